"""Eigenwijs rules E1–E14 and the model H2–H8 (docs/rules/eigenwijs.md) in the reference engine
(simkit.games.eigenwijs.reference): the table's right response on hand-made tables, hand-made games
played with plain-Python deciders, and the engine's own seeded games (docs/traces.md)."""

import json
import math
from collections import Counter

import numpy as np
import pytest

from simkit.core.errors import IllegalMove, SimkitError
from simkit.core.rng import PyRng, py_hand_state, py_seat_state
from simkit.games.eigenwijs import reference as R
from simkit.games.eigenwijs import view as V
from simkit.games.eigenwijs.rules import (
    COUNT,
    EMPTY,
    IK,
    JIJ,
    JULLIE,
    MAX_COUNT,
    NIEMAND,
    NO_CALL,
    PRECIES,
    SLAP,
    WIJ,
    card_name,
    card_of,
    check_rules,
    deck,
    illegal_text,
)
from simkit.games.eigenwijs.strategy import Seat, seats_for

# no slips, no false slaps, no randomness in the times: a scripted game follows its script
CALM = {"slip": 0.0, "false_slap": 0.0, "call_sigma": 0.0, "slap_sigma": 0.0}
VARIANTS = [{}, {"chicks": True}, {"precies": True}, {"rotating": True},
            {"chicks": True, "precies": True, "rotating": True}]


def cards(*names: str) -> list[int]:
    return [card_of(x) for x in names]


def tops(*names: str | None) -> list[int]:
    return [EMPTY if x is None else card_of(x) for x in names]


def scripted(*responses: int):
    """A decider that means responses[t] in the game's turn t (view TURN), then the right response."""
    def decide(view, params, rng):
        t = int(view[V.TURN])
        return responses[t] if t < len(responses) else table_decider(view, params, rng)

    return decide


def table_decider(view, params, rng):
    """A decider that means the right response, read by the reference's own helper."""
    piles = int(view[V.PILES])
    return R.right_response([int(c) for c in view[V.TOPS:V.TOPS + piles]], int(view[V.PILE]), int(view[V.PREVIOUS]),
                            bool(view[V.PRECIES]))


def play(stacks: list[list[str]], start: int, deciders, model=None, rules=None, key: int = 1) -> dict:
    """Play a hand-made game (stacks of card names, top first) with plain-Python deciders."""
    n = len(stacks)
    if not isinstance(deciders, list):
        deciders = [deciders] * n
    seats = [Seat("script", None) for _ in range(n)]
    rules = {"max_turns": 200, **(rules or {})}
    return R.play_game([cards(*s) for s in stacks], start, seats, rules, {**CALM, **(model or {})},
                       PyRng(key), key, deciders=deciders)


def traced(n: int, games: int = 6, rules=None, model=None, specs=("right",), seed: int = 11):
    seats = seats_for([specs[s % len(specs)] for s in range(n)], n)  # the specs round the table
    return [R.trace_game(seed, g, seats, rules or {}, model) for g in range(games)]


def calls(turns: list[dict]) -> list[dict]:
    """The turns that got to a call (every turn but the one that ends a game, E10)."""
    return [t for t in turns if "right" in t]


# --- E1, E2, E3: players, deck, deal ------------------------------------------------------------------

@pytest.mark.parametrize("n", [0, 1, 7, 10])
def test_e1_other_player_counts_are_a_clear_error(n):
    with pytest.raises(SimkitError, match="Eigenwijs needs 2 to 6 players"):
        R.deal(0, n, {})
    with pytest.raises(SimkitError, match="Eigenwijs needs 2 to 6 players"):
        R.trace_game(0, 0, [Seat("script", None)] * n, {})


def test_e1_the_beginners_version_is_for_at_most_four_players():
    R.deal(0, 4, {"beginners": True})
    with pytest.raises(SimkitError, match="at most 4 players"):
        R.deal(0, 5, {"beginners": True})


@pytest.mark.parametrize("rules, size", [({}, 56), ({"chicks": True}, 64), ({"colours": 6}, 80),
                                         ({"egg_cards": [1, 1], "broken": 0, "colours": 2}, 4)])
def test_e2_deck_sizes_and_every_dealt_card_is_from_the_deck(rules, size):
    full = Counter(deck(check_rules(rules)))
    assert sum(full.values()) == size
    for n in (2, 3, 4):
        stacks, _ = R.deal(py_hand_state(5, n), n, rules)
        dealt = Counter(c for s in stacks for c in s)
        assert sum(dealt.values()) == n * (size // n)
        assert all(dealt[c] <= full[c] for c in dealt)  # drawn without replacement
        if size % n == 0:
            assert dealt == full


@pytest.mark.parametrize("n", range(2, 7))
def test_e3_equal_stacks_and_the_leftovers_go_back_into_the_box(n):
    for rules in ({}, {"chicks": True}):
        size = len(deck(check_rules(rules)))
        stacks, _ = R.deal(py_hand_state(3, 0), n, rules)
        assert [len(s) for s in stacks] == [size // n] * n


def test_e3_a_deck_too_small_for_the_table_is_an_error():
    rules = {"colours": 2, "egg_cards": [1], "broken": 0}  # two cards
    assert [len(s) for s in R.deal(0, 2, rules)[0]] == [1, 1]
    with pytest.raises(SimkitError, match="cannot give each of 3 players a card"):
        R.deal(0, 3, rules)


def test_e3_h8_card_k_of_the_shuffled_deck_goes_to_seat_k_mod_n_after_a_fisher_yates_shuffle():
    key = py_hand_state(9, 4)
    stacks, rng = R.deal(key, 3, {})
    mine = PyRng(key)
    order = list(range(56))  # positions in the laid-out deck
    for i in range(55):
        j = i + mine.below(56 - i)
        order[i], order[j] = order[j], order[i]
    laid = deck(check_rules({}))
    assert stacks == [[laid[order[k]] for k in range(54) if k % 3 == s] for s in range(3)]
    assert rng.state == mine.state  # the game's generator goes on after the shuffle's draws


@pytest.mark.parametrize("rules", VARIANTS)
def test_e3_e8_e9_cards_are_conserved_at_every_end_and_every_taking_takes_the_rounds_cards(rules):
    for n in (2, 3, 5):
        for rec in traced(n, 4, rules, specs=("right", "guesser", "quick", "beginner", "careful")):
            dealt = sum(len(s) for s in rec["deal"])
            assert dealt == n * (len(deck(rec["rules"])) // n)
            counts = [len(s) for s in rec["deal"]]
            on_table = 0
            for t in rec["turns"]:
                counts[t["seat"]] -= 1
                on_table += 1
                if "taker" in t:
                    assert t["taken"] == on_table  # every card played in the round (E8, E9)
                    counts[t["taker"]] += on_table
                    on_table = 0
                assert min(counts) >= 0
            assert counts == rec["stacks"]
            assert sum(rec["stacks"]) + on_table == dealt


# --- E5, E13: the piles -----------------------------------------------------------------------------

@pytest.mark.parametrize("n", range(2, 7))
def test_e5_each_card_goes_onto_the_flippers_own_pile(n):
    for rec in traced(n, 3, {"rotating": False}):  # the default plays 5-6 players on rotating piles (E13 reading)
        assert all(t["pile"] == t["seat"] for t in rec["turns"])


@pytest.mark.parametrize("n, piles", [(2, 3), (3, 4), (4, 3), (6, 3)])
def test_e13_rotating_piles_go_round_from_pile_0_and_a_taking_does_not_reset_them(n, piles):
    takings = 0
    for rec in traced(n, 3, {"rotating": True}):
        assert [t["pile"] for t in rec["turns"]] == [k % piles for k in range(len(rec["turns"]))]
        takings += sum("taker" in t for t in rec["turns"])
    assert takings > 0


def test_e7_e13_jullie_only_where_two_other_piles_can_be_open():
    own = [t["right"] for rec in traced(2, 20) for t in calls(rec["turns"])]
    rotating = [t["right"] for rec in traced(2, 20, {"rotating": True}) for t in calls(rec["turns"])]
    assert "Jullie" not in own and "Wij" in own
    assert "Jullie" in rotating


# --- E6, E7, E8, E12, E14: the right response on a hand-made table -----------------------------------

@pytest.mark.parametrize("table, pile, right", [
    (("x", "x"), 0, NIEMAND),               # E7 Niemand: no egg open
    (("x", None, None), 0, NIEMAND),        # E5: empty piles show nothing
    (("r2", None), 0, IK),                  # E7 Ik
    (("r2", "y1"), 0, IK),
    (("r2", "y1"), 1, JIJ),                 # E7 Jij: all of red on the other card
    (("r1", "r2", "y2"), 0, WIJ),           # E7 Wij: red 3 on the player's card and another
    (("r1", "r2", "y2"), 2, JULLIE),        # E7 Jullie: red 3 on two other cards
    (("r3", "y1", "y1"), 0, IK),            # E6: the eggs are added up, not the cards counted
    (("r1", "x", "y1", "y1"), 0, JULLIE),   # E6: a broken egg counts nothing
    (("r1", "r1", "r1", "r1", "y3"), 0, WIJ),  # Wij reading: the player's card and three others
    (("x", None, "g1", None, "x", None), 4, JIJ),
])
def test_e6_e7_the_word_on_a_table(table, pile, right):
    assert R.right_response(tops(*table), pile) == right


@pytest.mark.parametrize("table", [("r2", "y2"), ("r1", "r1", "y2"), ("r3", "y2", "g3", "y1"), ("r2", "y2", "c"),
                                   ("b1", "g1", None, "x"), ("r3", "y1", "y1", "y1")])
def test_e8_e12_two_or_more_colours_sharing_the_most_eggs_is_a_tie_chick_or_not(table):
    assert R.right_response(tops(*table), 0) == SLAP
    assert R.majority(tops(*table))[2]


def test_e8_no_eggs_at_all_is_no_tie():
    assert R.majority(tops("x", "x", None)) == (None, 0, False)
    assert R.right_response(tops("x", "x", None), 1) == NIEMAND


@pytest.mark.parametrize("table, count", [(("c", "r2", "r1"), 3), (("c", "x"), 0), (("c",), 0),
                                          (("r2", "c", "y1", "b1"), 2), (("g3", "g3", "c", "r1"), 6)])
def test_e12_while_a_chick_is_open_the_majority_colours_eggs_are_counted(table, count):
    for pile in range(len(table)):
        assert R.right_response(tops(*table), pile) == COUNT + count


def test_e12_a_covered_chick_counts_no_more():
    # the chick lay on pile 1 and was covered by y1: the words of E7 again
    assert R.right_response(tops("r2", "y1"), 1) == JIJ


@pytest.mark.parametrize("word", [NIEMAND, IK, JIJ, WIJ, JULLIE, COUNT, COUNT + 3])
def test_e14_a_repeated_word_becomes_precies_and_precies_is_not_repeated(word):
    assert R.precies_rule(word, word, True) == PRECIES
    assert R.precies_rule(word, PRECIES, True) == word  # "Precies" twice in a row: the original word
    assert R.precies_rule(word, NO_CALL, True) == word  # nothing called before in the round
    assert R.precies_rule(word, word, False) == word  # without the variant
    assert R.precies_rule(SLAP, SLAP, True) == SLAP  # a tie is slapped, never "Precies"
    assert R.right_response(tops("c", "r3"), 1, COUNT + 3, True) == PRECIES  # counts are words too (E14)


# --- hand-made games: E8–E11, E14, H2–H6 ---------------------------------------------------------------

def test_e10_the_game_ends_at_the_last_card_before_any_call_and_draw():
    def never(view, params, rng):
        raise AssertionError("no call after the last card")

    rng = PyRng(5)
    seats = [Seat("script", None)] * 2
    out = R.play_game([cards("r1"), cards("y1", "x")], 0, seats, {}, None, rng, 5, deciders=[never, never])
    assert out == {"turns": [{"seat": 0, "card": "r1", "pile": 0}], "winner": 0, "end": "won", "stacks": [0, 2]}
    assert rng.state == 5  # no draws


def test_e10_e11_seeded_games_end_at_a_last_card_and_the_taker_flips_next():
    for n in (2, 4, 6):
        for rec in traced(n, 4, specs=("quick", "guesser")):
            turns = rec["turns"]
            assert rec["end"] == "won" and rec["stacks"][rec["winner"]] == 0
            assert turns[-1] == {"seat": rec["winner"], "card": turns[-1]["card"], "pile": turns[-1]["pile"]}
            assert all("right" in t for t in turns[:-1])
            for a, b in zip(turns, turns[1:]):
                assert b["seat"] == (a["taker"] if "taker" in a else (a["seat"] + 1) % n)


def test_e8_h4_h6_at_a_tie_the_last_to_slap_takes_every_pile():
    # seat 0 flips r2 (Ik), seat 1 y2 (a tie); seat 2 slaps last
    slow = {"slap_median": [0.3, 0.4, 0.9]}
    out = play([["r2", "x"], ["y2", "x"], ["b1", "x"]], 0, scripted(IK, SLAP, JIJ), slow)
    first, tie = out["turns"][:2]
    assert first["right"] == "Ik" and "taker" not in first
    assert tie["right"] == tie["said"] == "slap"
    assert tie["slaps"] == [0.3, 0.4, 0.9]
    assert (tie["taker"], tie["why"], tie["at"], tie["taken"]) == (2, "tie", 0.9, 2)
    assert out["turns"][2]["seat"] == 2  # E11: the taker flips first
    assert out["turns"][2]["card"] == "b1" and out["turns"][2]["right"] == "Ik"  # the piles were emptied
    assert "false_slaps" not in tie


def test_e8_h4_a_flipper_who_calls_a_word_at_a_tie_slaps_after_the_call_and_it_is_no_fault():
    slow = {"slap_median": [0.3, 0.5, 0.9]}
    out = play([["r2", "x"], ["y2", "x"], ["b1", "x"]], 0, scripted(IK, JIJ), slow)
    tie = out["turns"][1]
    call = 1.0 * (1 + 0.1 * (2 - 1))  # H3: call_median x (1 + call_crowd x (open - 1))
    assert tie["said"] == "Jij" and tie["call"] == call
    assert tie["slaps"] == [0.3, call + 0.5, 0.9]
    assert (tie["taker"], tie["why"], tie["at"]) == (1, "tie", call + 0.5)


def test_h6_equal_latest_slaps_go_to_the_first_from_the_flipper_clockwise():
    out = play([["r2", "x"], ["y2", "x"], ["b1", "x"]], 0, scripted(IK, SLAP))
    assert out["turns"][1]["slaps"] == [0.45] * 3 and out["turns"][1]["taker"] == 1  # the flipper
    out = play([["r2", "x"], ["y2", "x"], ["b1", "x"]], 0, scripted(IK, SLAP), {"slap_median": [0.5, 0.1, 0.5]})
    assert out["turns"][1]["taker"] == 2  # seat 2 comes before seat 0 from flipper 1


def test_e9_h6_a_wrong_word_is_taken_at_its_call():
    out = play([["r2", "x", "x"], ["y1", "x"]], 0, scripted(IK, IK))
    wrong = out["turns"][1]
    assert wrong["right"] == "Jij" and wrong["said"] == "Ik"
    assert (wrong["taker"], wrong["why"], wrong["at"], wrong["taken"]) == (1, "wrong", wrong["call"], 2)
    assert wrong["call"] == 1.0 * (1 + 0.1 * (2 - 1))
    # seat 1 flips next (E11): x, then (seat 0 x) r2, then seat 0 plays its last card
    assert [(t["seat"], t["card"]) for t in out["turns"][2:]] == [(1, "x"), (0, "x"), (1, "r2"), (0, "x")]
    assert out["winner"] == 0 and out["stacks"] == [0, 1]


def test_e9_h3_a_call_later_than_hesitation_is_a_fault_at_the_hesitation():
    out = play([["r2", "x"], ["y1", "x"]], 0, scripted(IK), {"call_median": [3.5, 1.0]})
    turn = out["turns"][0]
    assert turn["said"] == turn["right"] == "Ik" and turn["call"] == 3.5
    assert (turn["taker"], turn["why"], turn["at"], turn["taken"]) == (0, "hesitation", 3.0, 1)
    out = play([["r2", "x"], ["y1", "x"]], 0, scripted(IK), {"call_median": [3.5, 1.0]}, {"hesitation": 4.0})
    assert "taker" not in out["turns"][0]  # the rule option moves the limit


def test_e9_h5_a_flipper_who_slaps_without_a_tie_takes_at_its_slap():
    out = play([["r2", "x"], ["y1", "x"]], 0, scripted(SLAP))
    turn = out["turns"][0]
    assert turn["right"] == "Ik" and turn["said"] == "slap"
    assert turn["false_slaps"] == [{"seat": 0, "time": 0.45}]
    assert (turn["taker"], turn["why"], turn["at"]) == (0, "false_slap", 0.45)


def test_e9_h5_h6_the_earliest_fault_takes_and_every_false_slap_is_written():
    stacks = [["r2", "x"], ["y1", "x"], ["b1", "x"]]
    # seats 1 and 2 slap falsely at 0.6 and 0.3; the flipper's call (1.0) is right
    out = play(stacks, 0, scripted(IK), {"false_slap": 1.0, "slap_median": [0.45, 0.6, 0.3]})
    turn = out["turns"][0]
    assert turn["false_slaps"] == [{"seat": 1, "time": 0.6}, {"seat": 2, "time": 0.3}]
    assert (turn["taker"], turn["why"], turn["at"]) == (2, "false_slap", 0.3)
    # a wrong word at 0.2 comes before the false slaps
    out = play(stacks, 0, scripted(JIJ), {"false_slap": 1.0, "call_median": 0.2, "slap_median": [0.45, 0.6, 0.3]})
    turn = out["turns"][0]
    assert (turn["taker"], turn["why"], turn["at"]) == (0, "wrong", 0.2)
    assert [f["seat"] for f in turn["false_slaps"]] == [1, 2]
    # equal false slaps: the first clockwise from the flipper (seat 1 flips: seat 2 before seat 0)
    out = play(stacks, 1, scripted(IK), {"false_slap": [1.0, 0.0, 1.0]})
    turn = out["turns"][0]
    assert turn["false_slaps"] == [{"seat": 0, "time": 0.45}, {"seat": 2, "time": 0.45}]
    assert (turn["taker"], turn["why"]) == (2, "false_slap")


def test_e9_without_a_fault_the_turn_passes_on_clockwise():
    out = play([["y2", "x"], ["x", "x"], ["r1", "x"]], 2, scripted(IK, IK, JIJ))
    assert [t["seat"] for t in out["turns"]] == [2, 0, 1, 2]
    assert not any("taker" in t for t in out["turns"])
    assert [t["right"] for t in out["turns"][:3]] == ["Ik", "Ik", "Jij"]
    assert out["winner"] == 2 and out["stacks"] == [1, 1, 0]


def test_e8_e9_reading_the_taken_cards_go_under_the_stack_pile_by_pile_bottom_card_first():
    # 3 players, own piles: seat 0 r1, seat 1 g2, seat 2 b3 (Ik each); seat 0 y1 on r1: Jij is right, Wij is wrong.
    # Seat 0 takes pile 0 (r1, then y1 on it), pile 1 (g2), pile 2 (b3) under its last card x.
    out = play([["r1", "y1", "x"], ["g2"] + ["x"] * 5, ["b3"] + ["x"] * 5], 0, scripted(IK, IK, IK, WIJ))
    turns = out["turns"]
    assert [t["right"] for t in turns[:4]] == ["Ik", "Ik", "Ik", "Jij"]
    assert (turns[3]["taker"], turns[3]["why"], turns[3]["taken"]) == (0, "wrong", 4)
    assert not any("taker" in t for t in turns[4:])
    assert [t["card"] for t in turns if t["seat"] == 0] == ["r1", "y1", "x", "r1", "y1", "g2", "b3"]
    assert out["winner"] == 0 and out["stacks"] == [0, 1, 1]


def test_e14_the_rules_example_ik_precies_ik():
    # seat 0 r1 (Ik), seat 1 y2 (Ik again: Precies), seat 2 g3 (Ik again, but not a second Precies: Ik)
    rules = {"precies": True}
    out = play([["r1", "x"], ["y2", "x"], ["g3", "x"]], 0, scripted(IK, PRECIES, IK), rules=rules)
    assert [(t["right"], t["said"]) for t in out["turns"][:3]] == [("Ik", "Ik"), ("Precies", "Precies"), ("Ik", "Ik")]
    assert not any("taker" in t for t in out["turns"])
    # forgetting the rule is a wrong word (E9)
    out = play([["r1", "x"], ["y2", "x"], ["g3", "x"]], 0, scripted(IK, IK), rules=rules)
    assert (out["turns"][1]["right"], out["turns"][1]["why"], out["turns"][1]["taker"]) == ("Precies", "wrong", 1)
    # without the variant, Ik three times is right
    out = play([["r1", "x"], ["y2", "x"], ["g3", "x"]], 0, scripted(IK, IK, IK))
    assert [t["right"] for t in out["turns"][:3]] == ["Ik"] * 3


def test_e11_e14_a_taking_starts_a_round_with_nothing_called_before():
    seen = []

    script = scripted(IK, JIJ, NIEMAND)

    def record(view, params, rng):
        seen.append((int(view[V.TURN]), int(view[V.ROUND_TURN]), int(view[V.PREVIOUS])))
        return script(view, params, rng)

    # seat 0 r2 (Ik), seat 1 y1 (Jij), seat 0 x (Jij again: Precies; Niemand is wrong, seat 0 takes), seat 0 g1
    out = play([["r2", "x", "g1", "x"], ["y1", "x", "x"]], 0, record, rules={"precies": True})
    assert [t["right"] for t in out["turns"][:4]] == ["Ik", "Jij", "Precies", "Ik"]
    assert (out["turns"][2]["why"], out["turns"][2]["taker"]) == ("wrong", 0)
    assert seen[:4] == [(0, 0, NO_CALL), (1, 1, IK), (2, 2, JIJ), (3, 0, NO_CALL)]


def test_e12_a_count_in_a_hand_made_game_and_nul():
    rules = {"chicks": True}
    out = play([["c", "y2", "x"], ["r3", "x", "x"]], 0, scripted(COUNT + 0, COUNT + 3, COUNT + 2), rules=rules)
    assert [t["right"] for t in out["turns"][:3]] == ["0", "3", "Jij"]
    assert out["turns"][2]["why"] == "wrong"  # y2 covered the chick: the words of E7 again
    assert [t.get("why") for t in out["turns"][:2]] == [None, None]


def test_h2_a_count_slips_one_up_or_down_and_nul_slips_to_one():
    rules = {"chicks": True}
    out = play([["c", "x"], ["x", "x"]], 0, scripted(COUNT + 0), {"slip": 1.0}, rules)
    assert out["turns"][0]["said"] == "1" and out["turns"][0]["why"] == "wrong"
    said = {play([["c", "x"], ["r2", "x"]], 0, scripted(COUNT, COUNT + 2), {"slip": [0.0, 1.0]}, rules,
                 key=k)["turns"][1]["said"] for k in range(40)}
    assert said == {"1", "3"}
    top = play([["c", "x"], ["x", "x"]], 0, scripted(COUNT + MAX_COUNT), {"slip": 1.0}, rules)
    assert top["turns"][0]["said"] == str(MAX_COUNT - 1)


def test_h2_a_slipped_slap_becomes_a_word_and_a_word_another_word_in_use():
    said_slap = {play([["r2", "x"], ["y2", "x"]], 0, scripted(IK, SLAP), {"slip": [0.0, 1.0]},
                      key=k)["turns"][1]["said"] for k in range(60)}
    assert said_slap == {"Niemand", "Ik", "Jij", "Wij"}  # 2 players, own piles: no Jullie
    said_ik = {play([["r2", "x"], ["y1", "x"]], 0, scripted(IK), {"slip": 1.0}, {"precies": True, "rotating": True},
                    key=k)["turns"][0]["said"] for k in range(80)}
    assert said_ik == {"Niemand", "Jij", "Wij", "Jullie", "Precies"}


def test_h2_slip_probability_grows_with_the_table_and_is_capped():
    m = {"slip": 0.1, "crowd": 0.5, "group": 2.0, "chick_slip": 3.0, "precies_slip": 4.0}
    assert R.slip_chance(m, 1, False, IK) == 0.1
    assert math.isclose(R.slip_chance(m, 3, False, IK), 0.2)
    assert math.isclose(R.slip_chance(m, 3, False, WIJ), 0.4)
    assert math.isclose(R.slip_chance(m, 3, True, COUNT + 2), 0.6)
    assert R.slip_chance(m, 3, True, PRECIES) == 1.0  # 2.4, capped


@pytest.mark.parametrize("rules", VARIANTS)
def test_h2_without_slips_every_seat_says_what_it_means_and_with_certain_slips_never(rules):
    specs = ("guesser", "right", "chick_blind", "no_precies")
    rules = {**rules, "max_turns": 300}
    never = [t for rec in traced(4, 3, rules, {"slip": 0.0}, specs) for t in calls(rec["turns"])]
    assert never and all(t["said"] == t["meant"] for t in never)
    always = [t for rec in traced(4, 3, rules, {"slip": 1.0}, specs) for t in calls(rec["turns"])]
    assert always and all(t["said"] != t["meant"] for t in always)


def test_h1_the_right_strategy_means_what_the_reference_reads():
    for rules in VARIANTS:
        for n in (2, 3, 6):
            for rec in traced(n, 3, rules):
                assert all(t["meant"] == t["right"] for t in calls(rec["turns"]))


def test_h1_each_seat_means_what_its_own_strategy_means():
    # the same compiled function at seats 1 and 3 (right, and its profile quick), another at seats 0 and 2
    guessed = Counter()
    for rec in traced(4, 4, {"max_turns": 400}, specs=("guesser", "right", "guesser", "quick")):
        for t in calls(rec["turns"]):
            if t["seat"] % 2:
                assert t["meant"] == t["right"]
            else:
                guessed[t["meant"] == t["right"]] += 1
    assert guessed[False] > guessed[True] > 0


def test_h3_a_very_slow_caller_hesitates_at_every_turn_without_a_tie():
    model = {"call_median": 60.0, "false_slap": 0.0}
    turns = [t for rec in traced(3, 3, {"max_turns": 300}, model, seed=2) for t in calls(rec["turns"])]
    assert turns
    for t in turns:
        assert t["call"] > 3.0
        if t["right"] == "slap":
            assert t["why"] == "tie"
        else:
            assert (t["why"], t["at"], t["taker"]) == ("hesitation", 3.0, t["seat"])


def test_h5_false_slaps_never_or_always():
    for rec in traced(3, 2, {}, {"false_slap": 0.0}):
        assert all("false_slaps" not in t or t["said"] == "slap" for t in rec["turns"])
    for rec in traced(3, 2, {"max_turns": 300}, {"false_slap": 1.0}):
        for t in calls(rec["turns"]):
            if t["right"] != "slap":
                others = [s for s in range(3) if s != t["seat"]]
                assert [f["seat"] for f in t["false_slaps"] if f["seat"] != t["seat"]] == others


def test_h8_the_draws_of_a_turn_in_order():
    # seat 0 flips r2 (Ik), seat 1 y2 (a tie); per turn: the slip, the call, a slap per seat, a false slap per other
    key = 77
    out = play([["r2", "x"], ["y2", "x"], ["b1", "x"]], 0, scripted(IK, SLAP), {"call_sigma": 0.4, "slap_sigma": 0.3},
               key=key)
    mine = PyRng(key)
    mine.uniform()
    call = 1.0 * math.exp(0.4 * mine.normal())
    [mine.normal() for _ in range(3)]
    [mine.uniform() for _ in range(2)]
    mine.uniform()
    second_call = 1.0 * (1 + 0.1 * (2 - 1)) * math.exp(0.4 * mine.normal())
    slaps = [0.45 * math.exp(0.3 * mine.normal()) for _ in range(3)]
    assert out["turns"][0]["call"] == call
    assert out["turns"][1]["call"] == second_call
    assert out["turns"][1]["slaps"] == slaps


@pytest.mark.parametrize("key", range(8))
def test_h2_h8_a_slipped_count_draws_below_2_after_the_slip_0_for_one_less(key):
    out = play([["c", "x"], ["r2", "x"]], 0, scripted(COUNT, COUNT + 2), {"slip": [0.0, 1.0]}, {"chicks": True},
               key=key)
    mine = PyRng(key)
    mine.uniform(), mine.normal(), mine.normal(), mine.normal(), mine.uniform()  # turn 0, 2 players
    mine.uniform()  # turn 1's slip
    assert out["turns"][1]["said"] == ("1" if mine.below(2) == 0 else "3")
    assert out["turns"][1]["call"] == 1.0 * (1 + 0.1 * (2 - 1)) * 1.3 * math.exp(0.0 * mine.normal())


def test_h8_changing_a_probability_changes_no_draw():
    seats = seats_for(["right"], 3)
    for g in range(3):
        a = R.trace_game(4, g, seats, {}, {"false_slap": 0.0, "slip": 0.0})
        b = R.trace_game(4, g, seats, {}, {"false_slap": 1e-15, "slip": 1e-15})
        assert a["turns"] == b["turns"]


def test_h8_each_seat_decides_with_its_own_stream_and_params():
    firsts = {}

    def record(view, params, rng):
        assert not view.flags.writeable and view.shape == (V.SIZE,)
        assert not params.flags.writeable and params[0] == 10 + view[V.SEAT]
        firsts.setdefault(int(view[V.SEAT]), int(rng[0]))
        return NIEMAND

    seats = [Seat("script", None, (10.0 + s,)) for s in range(3)]
    R.play_game([cards("x", "x")] * 3, 0, seats, {}, CALM, PyRng(99), 99, deciders=[record] * 3)
    assert firsts == {s: py_seat_state(99, s) for s in range(3)}


def test_the_view_shows_the_table_and_the_stacks():
    views = []

    def record(view, params, rng):
        views.append(np.array(view))
        return IK if view[V.TURN] == 0 else JIJ

    play([["r2", "x", "x"], ["y1", "x"]], 1, record, rules={"chicks": True, "colours": 5, "rotating": True})
    first, second = views[:2]
    assert list(first[:10]) == [2, 1, 3, 0, NO_CALL, 1, 0, 5, 0, 0]
    assert list(first[V.STACKS:V.STACKS + 6]) == [3, 1, 0, 0, 0, 0]
    assert list(first[V.TOPS:V.TOPS + 6]) == [card_of("y1"), EMPTY, EMPTY, EMPTY, EMPTY, EMPTY]
    assert not first[10:V.STACKS].any() and not first[V.TOPS + 6:].any()
    assert list(second[:10]) == [2, 0, 3, 1, IK, 1, 0, 5, 1, 1]
    assert list(second[V.STACKS:V.STACKS + 2]) == [2, 1]
    assert list(second[V.TOPS:V.TOPS + 3]) == [card_of("y1"), card_of("r2"), EMPTY]


# --- the record, the cap, determinism, illegal moves ----------------------------------------------------

def test_the_cap_ends_a_game_capped_without_a_winner():
    seats = seats_for(["guesser"], 3)
    rec = R.trace_game(1, 0, seats, {"max_turns": 5})
    assert (rec["end"], rec["winner"], len(rec["turns"])) == ("capped", None, 5)
    rec = R.trace_game(1, 0, seats, {"max_turns": 0})
    assert (rec["end"], rec["winner"], rec["turns"]) == ("capped", None, [])
    assert rec["stacks"] == [len(s) for s in rec["deal"]]


def test_a_game_of_faults_only_is_capped():
    # seat 0 slaps at every turn without a tie and takes its own card back: the game cannot end
    out = play([["r2", "x"], ["y1", "x"]], 0, scripted(*[SLAP] * 40), rules={"max_turns": 30})
    assert (out["end"], out["winner"], len(out["turns"]), out["stacks"]) == ("capped", None, 30, [2, 2])
    assert all((t["seat"], t["why"], t["taker"]) == (0, "false_slap", 0) for t in out["turns"])


def test_the_record_has_the_keys_of_the_trace_spec_in_order_and_survives_json():
    seats = seats_for(["quick", "beginner", "careful"], 3)
    rec = R.trace_game(7, 0, seats, {})
    assert list(rec) == ["game", "format", "seed", "number", "players", "strategies", "rules", "model", "deal",
                         "start", "turns", "winner", "end", "stacks"]
    assert rec["strategies"] == ["quick", "beginner", "careful"]
    assert rec["rules"] == check_rules({}) and rec["model"]["slip"] == [0.05, 0.08, 0.015]
    assert rec["model"]["crowd"] == [0.15, 0.3, 0.15] and rec["model"]["group"] == 1.5
    order = ["seat", "card", "pile", "right", "meant", "said", "call", "slaps", "false_slaps", "taker", "why", "at",
             "taken"]
    for t in rec["turns"]:
        assert list(t) == [k for k in order if k in t]
        assert ("slaps" in t) == (t.get("right") == "slap")
        assert ("taker" in t) == ("why" in t) == ("at" in t) == ("taken" in t)
        assert all(type(t[k]) is float for k in ("call", "at") if k in t)
    assert json.loads(json.dumps(rec)) == rec
    key = py_hand_state(7, 0)
    stacks, rng = R.deal(key, 3, {})
    assert rec["deal"] == [[card_name(c) for c in s] for s in stacks] and rec["start"] == rng.below(3)


def test_e4_h8_the_starting_seat_is_drawn_after_the_shuffle():
    seats = seats_for(["right"], 3)
    starts = []
    for g in range(30):
        rec = R.trace_game(5, g, seats, {"max_turns": 0})
        _, rng = R.deal(py_hand_state(5, g), 3, {})
        assert rec["start"] == rng.below(3)
        starts.append(rec["start"])
    assert set(starts) == {0, 1, 2}


def test_the_same_seed_gives_the_same_record_and_another_game_another_deal():
    seats = seats_for(["quick", "guesser"], 2)
    assert R.trace_game(3, 2, seats, {"chicks": True}) == R.trace_game(3, 2, seats, {"chicks": True})
    assert R.trace_game(3, 2, seats, {})["deal"] != R.trace_game(3, 3, seats, {})["deal"]


def test_play_game_leaves_the_callers_stacks_alone():
    stacks = [cards("r2", "x"), cards("y1", "x")]
    before = [list(s) for s in stacks]
    R.play_game(stacks, 0, [Seat("script", None)] * 2, {}, CALM, PyRng(1), 1, deciders=[scripted(NIEMAND)] * 2)
    assert stacks == before


@pytest.mark.parametrize("response, rules", [(99, {}), (PRECIES, {}), (COUNT + 2, {"precies": True}),
                                             (COUNT + MAX_COUNT + 1, {"chicks": True}), (-1, {}), (7, {})])
def test_h1_an_illegal_response_stops_the_run_with_one_clear_error(response, rules):
    seats = [Seat("mine", None, origin="mine.py: bad"), Seat("script", None)]
    with pytest.raises(IllegalMove) as e:
        R.play_game([cards("y1", "x"), cards("r2", "x", "x")], 1, seats, rules, CALM, PyRng(1), 1,
                    number=4, deciders=[scripted(IK, response), scripted(IK)])
    assert str(e.value) == illegal_text("mine", "mine.py: bad", 0, 4, 1, response)


@pytest.mark.parametrize("response, rules", [(PRECIES, {"precies": True}), (COUNT + MAX_COUNT, {"chicks": True}),
                                             (SLAP, {}), (JULLIE, {})])
def test_h1_every_response_in_use_is_legal(response, rules):
    out = play([["y1", "x"], ["r2", "x", "x"]], 1, scripted(IK, response), rules=rules)
    assert out["turns"][1]["meant"] == out["turns"][1]["said"]
