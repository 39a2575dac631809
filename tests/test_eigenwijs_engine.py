"""Eigenwijs: the compiled engine against the reference engine (identical trace records, times
compared exactly), an exactly computable fact (the right response on a freshly dealt table, E6-E8,
E12, by enumeration), reproducibility, the cap, and illegal responses."""

import itertools
import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from simkit.core.errors import IllegalMove
from simkit.core.rng import hand_state
from simkit.games.eigenwijs import batch, reference
from simkit.games.eigenwijs import view as V
from simkit.games.eigenwijs.cards import right_response
from simkit.games.eigenwijs.engine import DECK_DTYPE, START, TURNS, WINNER, deal
from simkit.games.eigenwijs.rules import (
    BROKEN,
    CHICK,
    DECK_MAX,
    ENDINGS,
    GAME,
    MAX_PLAYERS,
    NO_CALL,
    card_code,
    check_rules,
    deck,
    response_name,
)
from simkit.games.eigenwijs.strategy import Seat, compile_decision, seats_for
from simkit.strategies import registry

BUILTIN = [i.name for i in registry.available(GAME)]  # before any test registers its own
SLIPPY = {"slip": 0.2, "false_slap": 0.05, "call_sigma": 0.8}  # every way of taking the cards, often
CASES = [  # players, rules, model, lineup
    (2, {}, None, ["right"]),
    (2, {"rotating": True}, SLIPPY, ["quick", "guesser"]),
    (3, {"rotating": True, "precies": True}, SLIPPY, ["right", "no_precies", "careful"]),
    (4, {"chicks": True}, None, ["right", "chick_blind", "beginner", "quick"]),
    (4, {"beginners": True, "precies": True}, {"slip": [0.0, 0.1, 0.3, 1.0]}, ["right"]),
    (5, {"chicks": True, "precies": True}, SLIPPY, ["careful", "right", "no_precies", "chick_blind", "quick"]),
    (6, {"chicks": True, "precies": True, "rotating": True, "colours": 6, "egg_cards": [3, 3, 2, 1]}, SLIPPY,
     BUILTIN[:6]),
    (3, {"max_turns": 40}, {"call_median": 2.9, "slap_sigma": 0.0}, ["guesser", "right", "right"]),
]


def _seats(lineup, n):
    return seats_for((lineup * n)[:n], n)


@pytest.mark.parametrize("n, rules, model, lineup", CASES)
def test_both_engines_write_identical_records(n, rules, model, lineup):
    """H8: the same draws in the same order; E1-E14 and H1-H6 read the same way twice."""
    seats = _seats(lineup, n)
    rules = check_rules(rules)
    ends = Counter()
    for k, fast in enumerate(batch.traces(seats, 12, 2026, rules, model, first=50)):
        ref = reference.trace_game(2026, 50 + k, seats, rules, model)
        assert fast == ref, f"game {50 + k}"
        ends[fast["end"]] += 1
        for turn in fast["turns"]:
            ends[turn.get("why", "on")] += 1
    assert sum(ends[e] for e in ("won", "capped")) == 12
    if model is SLIPPY:
        assert {"tie", "wrong", "false_slap", "on"} <= set(ends)


def test_every_ending_of_a_turn_happens_in_the_compared_games():
    """The cases above, taken together, reach every way a turn can end (rules.ENDINGS) and a cap."""
    seen = set()
    for n, rules, model, lineup in CASES:
        for rec in batch.traces(_seats(lineup, n), 12, 2026, check_rules(rules), model, first=50):
            seen.add(rec["end"])
            seen.update(t.get("why", "won" if "right" not in t else "on") for t in rec["turns"])
    assert set(ENDINGS) | {"capped"} <= seen


def test_any_split_into_chunks_and_rotations_gives_the_same_games():
    """Reproducible: game g draws only from (seed, g), whatever the chunks; a seating replays it."""
    seats = _seats(["right", "quick", "careful"], 3)
    whole = batch.play(seats, 300, 9)
    parts = batch.play(seats, 300, 9, chunks=7)
    assert np.array_equal(whole, parts)
    later = batch.play(seats, 100, 9, first=200)
    assert np.array_equal(whole[200:], later)
    both = batch.play_rotations([seats, seats], 300, 9)
    assert np.array_equal(both[0], whole) and np.array_equal(both[1], whole)
    assert (whole[:, WINNER] >= 0).all() and (whole[:, TURNS] > 0).all()
    records = list(batch.traces(seats, 20, 9))
    assert [r["start"] for r in records] == whole[:20, START].tolist()


def test_records_follow_the_outcomes_of_the_parallel_driver():
    seats = _seats(["right", "guesser"], 2)
    out = batch.play(seats, 20, 3)
    for k, rec in enumerate(batch.traces(seats, 20, 3)):
        assert len(rec["turns"]) == out[k, TURNS]
        assert (rec["winner"] if rec["winner"] is not None else -1) == out[k, WINNER]


def test_a_game_that_cannot_end_is_capped():
    """Every call a slip: the cards only go back to the stacks; max_turns stops the game."""
    seats = _seats(["right"], 3)
    out = batch.play(seats, 50, 1, {"max_turns": 300}, {"slip": 1.0})
    assert (out[:, WINNER] == -1).all() and (out[:, TURNS] == 300).all()
    rec = next(batch.traces(seats, 1, 1, {"max_turns": 300}, {"slip": 1.0}))
    assert rec["end"] == "capped" and rec["winner"] is None and len(rec["turns"]) == 300
    assert 0 < sum(rec["stacks"]) <= len(deck(check_rules({})))


def _kinds(rules):
    """The deck as (card, how many) pairs."""
    return sorted(Counter(deck(rules)).items())


def _exact(rules, n):
    """E6-E8, E12: the distribution of the right response (the flipping player's card on pile 0,
    nothing called before) on n cards drawn without replacement from the deck, by enumerating
    the multisets of card kinds with their hypergeometric weights."""
    kinds = _kinds(rules)
    total = sum(k for _, k in kinds)
    dist = Counter()
    for mine, k_mine in kinds:
        left = [(c, k - (c == mine)) for c, k in kinds]
        for others in itertools.combinations_with_replacement(range(len(left)), n - 1):
            picked = Counter(others)
            ways = math.prod(math.comb(left[i][1], m) for i, m in picked.items())
            if not ways:
                continue
            # ordered draws of the others: ways x (n-1)! / prod(m!) orderings of distinct positions,
            # all counted by the multiset weight; the table's response does not depend on the order
            weight = k_mine * ways * math.factorial(n - 1)
            tops = np.full(MAX_PLAYERS, -1, np.int64)
            tops[0] = mine
            tops[1:n] = [left[i][0] for i in others]
            dist[int(right_response(tops, n, 0, False, NO_CALL))] += weight
    norm = sum(dist.values())
    assert norm == math.perm(total, n)
    return {r: w / norm for r, w in dist.items()}


@pytest.mark.parametrize("n, rules", [(4, {}), (3, {"chicks": True}), (5, {"colours": 3, "egg_cards": [2, 2, 1]})])
def test_the_right_response_on_a_dealt_table_matches_enumeration(n, rules):
    """The first card of each stack after the engine's deal (E3) is an n-card draw from the deck;
    the engine's right responses on 40,000 such tables agree with the enumeration within 4.5
    standard errors for every response (and no response outside it occurs)."""
    rules = check_rules(rules)
    exact = _exact(rules, n)
    cards = np.array(deck(rules), DECK_DTYPE)
    scratch = np.zeros(DECK_MAX, DECK_DTYPE)
    stacks = np.zeros((MAX_PLAYERS, DECK_MAX), DECK_DTYPE)
    heads, sizes = np.zeros(MAX_PLAYERS, np.int64), np.zeros(MAX_PLAYERS, np.int64)
    rng = np.zeros(1, np.uint64)
    tops = np.full(MAX_PLAYERS, -1, np.int64)
    seen = Counter()
    draws = 40_000
    for g in range(draws):
        rng[0] = hand_state(np.uint64(77), np.uint64(g))
        deal(cards, scratch, stacks, heads, sizes, n, rng)
        tops[:n] = stacks[:n, 0]
        seen[int(right_response(tops, n, 0, False, NO_CALL))] += 1
    assert set(seen) <= set(exact)
    for r, p in exact.items():
        se = math.sqrt(p * (1 - p) / draws)
        assert abs(seen[r] / draws - p) <= 4.5 * se + 1e-12, (response_name(r), seen[r] / draws, p)


def test_the_enumeration_knows_the_simple_cases():
    """Two cards of the default deck: Niemand needs two broken eggs, a tie two egg cards of
    different colours with as many eggs; both by hand."""
    rules = check_rules({})
    exact = _exact(rules, 2)
    total = 56
    assert exact[0] == pytest.approx(8 * 7 / (total * (total - 1)))  # Niemand
    same_eggs_other_colour = sum(4 * k * 3 * k for k in (5, 4, 3))  # mine any egg card, the other as many eggs
    assert exact[6] == pytest.approx(same_eggs_other_colour / (total * (total - 1)))  # a slap


def _answer(value):
    def decide(view, params, rng):
        return value if view[V.TURN] >= 2 else 1
    return decide


@pytest.mark.parametrize("value", [99, 5, 16, -1])
def test_an_illegal_response_is_the_same_error_in_both_engines(value):
    """H1: Precies without its variant, a count without chicks, anything out of range."""
    decide = compile_decision(_answer(value))
    seat = Seat("mine", decide, origin="mine.py: decide")
    seats = [seat, seat, seat]
    with pytest.raises(IllegalMove) as fast:
        batch.play(seats, 3, 0)
    with pytest.raises(IllegalMove) as slow:
        reference.trace_game(0, 0, seats, check_rules({}))
    assert str(fast.value) == str(slow.value)
    assert "mine.py: decide" in str(fast.value) and f"response {value}" in str(fast.value)
    with pytest.raises(IllegalMove) as traced:
        next(batch.traces(seats, 1, 0))
    assert str(traced.value) == str(slow.value)


def test_the_deck_defaults_and_a_table_too_small():
    assert len(deck(check_rules({}))) == 56 and len(deck(check_rules({"chicks": True}))) == 64
    assert deck(check_rules({}))[:5] == [card_code(0, 1)] * 5 and BROKEN in deck(check_rules({}))
    assert CHICK not in deck(check_rules({})) and CHICK in deck(check_rules({"chicks": True}))


def test_h7_profiles_bring_their_model_values_to_their_seats():
    rec = next(batch.traces(seats_for(["quick", "right", "careful"], 3), 1, 0))
    assert rec["model"]["slip"] == [0.05, 0.03, 0.015] and rec["model"]["call_median"] == [0.7, 1.0, 1.4]
    assert rec["model"]["slap_median"] == [0.35, 0.45, 0.45] and rec["model"]["false_slap"] == [0.02, 0.01, 0.005]
    over = next(batch.traces(seats_for(["quick", "right", "careful"], 3), 1, 0, model={"slip": [0.0, 0.1, 0.2]}))
    assert over["model"]["slip"] == [0.0, 0.1, 0.2] and over["model"]["call_median"] == [0.7, 1.0, 1.4]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(2, 6), colours=st.integers(2, 6), eggs=st.lists(st.integers(0, 4), min_size=1, max_size=4),
       broken=st.integers(0, 6), chicks=st.booleans(), precies=st.booleans(), rotating=st.booleans(),
       slip=st.sampled_from([0.0, 0.05, 0.5, 1.0]), false_slap=st.sampled_from([0.0, 0.02, 0.3]),
       max_turns=st.integers(0, 400), seed=st.integers(0, 2**64 - 1))
def test_cards_are_conserved_and_every_game_ends(n, colours, eggs, broken, chicks, precies, rotating, slip,
                                                 false_slap, max_turns, seed):
    """E3, E8-E10 and the cap, on any deck and table: after every taking the taker holds what the
    piles held (the flips since the last taking); at the end the stacks and the open piles hold
    every dealt card; a game ends won (the winner's stack empty) or capped at max_turns."""
    assume(sum(eggs) > 0 and colours * sum(eggs) + broken >= n)
    rules = check_rules({"colours": colours, "egg_cards": eggs, "broken": broken, "chicks": chicks,
                         "precies": precies, "rotating": rotating, "max_turns": max_turns})
    lineup = (["right", "guesser"] if seed % 2 else ["right", "quick"]) * n
    rec = next(batch.traces(seats_for(lineup[:n], n), 1, seed % 1000, rules, {"slip": slip, "false_slap": false_slap}))
    dealt = n * (len(deck(rules)) // n)
    assert sum(len(d) for d in rec["deal"]) == dealt
    on_table = 0
    for turn in rec["turns"]:
        on_table += 1
        if "taker" in turn:
            assert turn["taken"] == on_table
            on_table = 0
    assert sum(rec["stacks"]) + on_table == dealt
    assert len(rec["turns"]) <= max_turns
    if rec["end"] == "won":
        assert rec["stacks"][rec["winner"]] == 0 and "right" not in rec["turns"][-1]
    else:
        assert len(rec["turns"]) == max_turns and rec["winner"] is None and min(rec["stacks"]) > 0
