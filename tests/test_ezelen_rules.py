"""Ezelen rules Z1–Z7 on hand-made deals, every one played through both engines (which must
agree move by move), and on the engine's own deals."""

from collections import Counter

import numpy as np
import pytest
from test_ezelen_scripts import LOWEST, illegal_both, play_both, script

from simkit.core.errors import SimkitError
from simkit.core.rng import PyRng, py_hand_state, py_match_seed
from simkit.games.ezelen import batch, reference
from simkit.games.ezelen import view as V
from simkit.games.ezelen.rules import check_rules
from simkit.games.ezelen.strategy import seats_for

CALM = {"tempo_fault": 0.0}  # no tempo faults, so a scripted round follows its script
SHARP = {"tempo_fault": 0.0, "attention": 100.0, "reaction_sigma": 0.0}  # everybody notices at once


@pytest.mark.parametrize("n", range(2, 14))
def test_z1_the_deck_is_one_set_of_four_per_player(n):
    for rec in batch.traces(seats_for(["random"], n), 10, 3, {"max_turns": 0}):
        assert Counter(v for hand in rec["deal"] for v in hand) == {v: 4 for v in range(n)}


@pytest.mark.parametrize("n", [0, 1, 14, 20])
def test_z1_other_player_counts_are_a_clear_error(n):
    with pytest.raises(SimkitError, match="Ezelen needs 2 to 13 players"):
        batch.play(seats_for(["random"], max(n, 1)), 10, 1)
    with pytest.raises(SimkitError, match="Ezelen needs 2 to 13 players"):
        reference.deal(0, n)


@pytest.mark.parametrize("deal, message", [
    ([[0, 0, 0, 0], [1, 1, 1]], "2 hands of 4 values"),
    ([[0, 0, 0, 0], [1, 1, 1, 2]], "values 0..1"),
    ([[0, 0, 0, 1], [1, 1, 1, 1]], "every value exactly 4 times"),
])
def test_z1_a_given_deal_is_checked(deal, message):
    with pytest.raises(SimkitError, match=message):
        batch.play_deal(seats_for(["random"], 2), deal)


@pytest.mark.parametrize("n", [2, 3, 7, 13])
def test_z2_both_engines_deal_the_same_four_cards_card_k_to_seat_k_mod_n(n):
    for m, rec in enumerate(batch.traces(seats_for(["random"], n), 30, 17, {"max_turns": 0})):
        key = py_hand_state(py_match_seed(17, m), 0)
        hands, _ = reference.deal(key, n)
        assert rec["deal"] == hands
        assert all(len(h) == 4 for h in hands)


def test_z2_the_deal_is_uniform():
    # seat 0's count of value 0 is hypergeometric: mean 4 * 4/16 = 1 with 4 players
    counts = [rec["deal"][0].count(0) for rec in batch.traces(seats_for(["random"], 4), 4000, 5, {"max_turns": 0})]
    assert abs(np.mean(counts) - 1.0) < 4 * np.sqrt(0.6 / 4000)  # variance 4*(1/4)(3/4)(12/15) = 0.6


def test_z3_everybody_passes_one_card_left_at_the_same_time():
    deal = [[0, 0, 1, 2], [1, 1, 2, 2], [0, 0, 1, 2]]
    t = play_both(deal, [script(2, 1), script(2, 2), script(1)], {"max_turns": 2}, CALM)
    # turn 0: seat 0 gives a 2 to seat 1, seat 1 a 2 to seat 2, seat 2 a 1 to seat 0
    assert t["turns"][0] == [2, 2, 1]
    assert t["turns"][1] == [1, 2, 0]  # seat 0 now passes the 1 it was given in turn 0


def test_z3_the_choice_is_made_before_the_card_arrives():
    deal = [[0, 0, 1, 2], [1, 1, 2, 2], [0, 0, 1, 2]]
    seen = []

    def decider(seat, hand, view):
        seen.append((seat, int(view[V.TURN]), int(view[V.LAST_RECEIVED]), tuple(hand[:3]),
                     tuple(view[V.RECEIVED:V.RECEIVED + 3]), tuple(view[V.PASSED:V.PASSED + 3])))
        return int(np.flatnonzero(hand)[0])

    rules = check_rules({"max_turns": 3})
    rec = reference.play_round(deal, [LOWEST] * 3, rules, CALM, PyRng(0), 0, deciders=[decider] * 3)
    hands = [Counter(h) for h in deal]
    received = [Counter() for _ in range(3)]
    passed = [Counter() for _ in range(3)]
    for t, row in enumerate(rec["turns"]):
        for seat in range(3):
            last = rec["turns"][t - 1][seat - 1] if t > 0 else -1
            assert seen[3 * t + seat] == (seat, t, last, tuple(hands[seat][v] for v in range(3)),
                                          tuple(received[seat][v] for v in range(3)),
                                          tuple(passed[seat][v] for v in range(3)))
        for seat in range(3):
            hands[seat][row[seat]] -= 1
            hands[(seat + 1) % 3][row[seat]] += 1
            passed[seat][row[seat]] += 1
            received[(seat + 1) % 3][row[seat]] += 1
        assert all(sum(h.values()) == 4 for h in hands)  # hands stay at four cards


def test_z4_a_set_dealt_is_signalled_at_turn_0_and_kept_by_passing_on_what_arrives():
    deal = [[0, 0, 2, 2], [1, 1, 1, 1], [0, 0, 2, 2]]
    # seat 1's script is illegal (it holds no 2): a signaller never consults its strategy
    t = play_both(deal, [script(0, 2, 0), script(2, 2, 2), script(2, 0, 2)], {"max_turns": 3},
                  {**CALM, "attention": 0.0})
    assert t["signals"] == [{"seat": 1, "turn": 0}]
    assert [row[1] for row in t["turns"]] == [row[0] for row in t["turns"]] == [0, 2, 0]
    assert t["loss_reason"] == "stalled" and t["copies"] == [{"seat": 1, "time": 0.0}]


def test_z4_signallers_in_a_row_all_pass_on_the_card_from_the_nearest_player_upstream():
    deal = [[0, 0, 3, 3], [1, 1, 1, 1], [2, 2, 2, 2], [0, 0, 3, 3]]
    t = play_both(deal, [script(3, 0), script(9), script(9), script(0, 3)], {"max_turns": 2},
                  {**CALM, "attention": 0.0})
    assert [(s["seat"], s["turn"]) for s in t["signals"]] == [(1, 0), (2, 0)]
    assert t["turns"] == [[3, 3, 3, 0], [0, 0, 0, 3]]


def test_z5_the_last_to_copy_loses_and_gets_a_letter():
    deal = [[1, 1, 1, 1], [0, 0, 2, 2], [0, 0, 2, 2]]
    t = play_both(deal, [LOWEST] * 3, {}, {**SHARP, "reaction_median": [0.6, 0.5, 0.9]}, letters=[0, 2, 1])
    assert t["signals"] == [{"seat": 0, "turn": 0}]
    assert t["copies"] == [{"seat": 0, "time": 0.0}, {"seat": 1, "time": 3.5}, {"seat": 2, "time": 3.9}]
    assert (t["loser"], t["loss_reason"], t["letters"]) == (2, "last", [0, 2, 2])


def test_z5_two_late_signallers_of_the_same_turn_sharing_the_latest_copy_time_tie():
    deal = [[0, 0, 3, 3], [1, 1, 1, 1], [2, 2, 2, 2], [0, 0, 3, 3]]
    t = play_both(deal, [script(0, 0), LOWEST, LOWEST, script(3, 3)], {}, {**CALM, "attention": 0.0},
                  letters=[1, 1, 1, 1])
    # seats 0 and 3 complete their sets together in turn 2, after seats 1 and 2 signalled
    assert [(s["seat"], s["turn"]) for s in t["signals"]] == [(1, 0), (2, 0), (0, 2), (3, 2)]
    assert (t["loser"], t["loss_reason"], t["letters"]) == (None, "tie", [1, 1, 1, 1])
    assert [c["time"] for c in t["copies"]] == [0.0, 0.0, 6.0, 6.0]


def test_z5_first_turn_signallers_together_tie():
    # three players dealt three sets signal together at the deal: nobody is last
    t = play_both([[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2]], [LOWEST] * 3, {}, CALM, letters=[0, 3, 2])
    assert [(s["seat"], s["turn"]) for s in t["signals"]] == [(0, 0), (1, 0), (2, 0)]
    assert (t["loser"], t["loss_reason"], t["letters"], t["turns"]) == (None, "tie", [0, 3, 2], [])
    # the first signal comes in turn 1 from all three at once (with 3 players two sets make the third)
    t = play_both([[0, 0, 0, 1], [1, 1, 1, 2], [2, 2, 2, 0]], [script(1), script(2), script(0)], {}, CALM)
    assert [(s["seat"], s["turn"]) for s in t["signals"]] == [(0, 1), (1, 1), (2, 1)]
    assert (t["loser"], t["loss_reason"]) == (None, "tie")


# seat 0 signals at the deal; seats 1 and 3 notice at beat 1 and copy at 3.5 and 3.4; seat 2 never notices
LATE = {**SHARP, "attention": [1.0, 100.0, 0.0, 100.0], "reaction_median": [0.6, 0.5, 0.6, 0.4]}


def test_z5_a_late_signaller_whose_copy_is_not_the_latest_does_not_lose():
    # seat 2 completes its set in turn 0 and signals at 3.0, before the others copy: seat 1 is last
    t = play_both([[1, 1, 1, 1], [0, 2, 3, 3], [0, 0, 0, 2], [2, 2, 3, 3]],
                  [LOWEST, script(0), script(2), script(3)], {}, LATE)
    assert t["signals"] == [{"seat": 0, "turn": 0}, {"seat": 2, "turn": 1}]
    assert [(c["seat"], c["time"]) for c in t["copies"]] == [(0, 0.0), (2, 3.0), (3, 3.0 + 0.4), (1, 3.5)]
    assert (t["loser"], t["loss_reason"]) == (1, "last")


def test_z5_a_late_signaller_alone_at_the_latest_copy_time_loses_and_one_who_copied_does_not_signal():
    # seat 2 needs two turns: it signals at 6.0, after the others copied, so its signal is the last
    # copy and it loses; seats 1 and 3 hold sets at 6.0 too, but they have copied already and do
    # not signal again (M3)
    t = play_both([[1, 1, 1, 1], [0, 0, 3, 3], [0, 0, 2, 2], [2, 2, 3, 3]],
                  [LOWEST, script(0, 0), script(2, 2), script(3, 3)], {}, LATE, letters=[0, 0, 1, 0])
    assert t["signals"] == [{"seat": 0, "turn": 0}, {"seat": 2, "turn": 2}]
    assert [(c["seat"], c["time"]) for c in t["copies"]] == [(0, 0.0), (3, 3.0 + 0.4), (1, 3.5), (2, 6.0)]
    assert (t["loser"], t["loss_reason"], t["letters"]) == (2, "last", [0, 0, 2, 0])


def test_z5_a_reaction_landing_on_a_late_signal_shares_the_latest_time_and_one_of_the_two_loses():
    # reading: not a tie (not all holders signalled); the round's generator picks among the holders.
    # reaction exactly one beat (sigma 0): seats 1 and 3 notice at beat 1 and copy at 6.0, where seat 2
    # completes its set after two turns and signals
    model = {**SHARP, "attention": [1.0, 100.0, 0.0, 100.0], "reaction_median": [3.0, 3.0, 3.0, 2.0]}
    losers = Counter()
    for key in range(60):
        t = play_both([[1, 1, 1, 1], [0, 0, 3, 3], [0, 0, 2, 2], [2, 2, 3, 3]],
                      [LOWEST, script(0, 0), script(2, 2), script(3, 3)], {}, model, key=key)
        assert t["signals"] == [{"seat": 0, "turn": 0}, {"seat": 2, "turn": 2}]
        assert [(c["seat"], c["time"]) for c in t["copies"]] == [(0, 0.0), (3, 5.0), (1, 6.0), (2, 6.0)]
        assert t["loss_reason"] == "last"
        losers[t["loser"]] += 1
    assert set(losers) == {1, 2}


def test_z5_with_two_players_both_sets_complete_together_so_every_decided_round_is_a_tie():
    seats = seats_for(["random"], 2)
    res = batch.play(seats, 20_000, 4, model={"tempo_fault": 0.0})
    assert set(res.reason) == {2}  # rules.TIE
    for rec in batch.traces(seats, 200, 4, model={"tempo_fault": 0.0}):
        assert [s["turn"] for s in rec["signals"]] == [len(rec["turns"])] * 2


def test_z6_a_first_tempo_fault_is_a_warning_the_second_loses():
    deal = [[0, 0, 1, 2], [1, 1, 2, 2], [0, 0, 1, 2]]
    t = play_both(deal, [LOWEST] * 3, {}, {"tempo_fault": [0.0, 1.0, 0.0]}, letters=[0, 3, 0])
    assert t["tempo_faults"] == [{"seat": 1, "turn": 0}, {"seat": 1, "turn": 1}]
    assert len(t["turns"]) == 1  # the round resumed after the warning, and ended before the passes of turn 1
    assert (t["loser"], t["loss_reason"], t["letters"]) == (1, "tempo", [0, 4, 0])


def test_z6_m4_two_second_faults_in_one_beat_the_rounds_generator_picks():
    deal = [[0, 0, 1, 2], [1, 1, 2, 2], [0, 0, 1, 2]]
    losers = Counter()
    for key in range(300):
        t = play_both(deal, [LOWEST] * 3, {}, {"tempo_fault": 1.0}, key=key)
        assert len(t["tempo_faults"]) == 6 and t["loss_reason"] == "tempo"
        losers[t["loser"]] += 1
    assert all(70 <= losers[s] <= 130 for s in range(3)), losers


def test_z7_letters_e_z_e_l_and_the_donkey():
    seats = seats_for(["greedy", "random", "sticky", "memory"], 4)
    res = batch.matches(seats, 300, 9)
    assert set(res.donkey) <= {0, 1, 2, 3}
    for m in range(300):
        letters = res.letters[m]
        assert letters[res.donkey[m]] == 4 and sorted(letters)[-2] < 4
        # every round gives at most one letter, so the letters are the rounds won by last/tempo
        assert letters.sum() == res.reasons[m, 0] + res.reasons[m, 1]
        assert res.reasons[m].sum() == res.rounds[m]


def test_z7_matches_agree_with_the_reference_round_by_round():
    seats = seats_for(["greedy", "random", "watcher"], 3)
    rules = check_rules({"max_turns": 60})
    model = {"tempo_fault": 0.01}
    res = batch.matches(seats, 6, 31, rules, model)
    fast = list(batch.match_traces(seats, 6, 31, rules, model))
    ref = [rec for m in range(6) for rec in reference.play_match(31, m, seats, rules, model)]
    assert fast == ref
    for m in range(6):
        rounds = [r for r in fast if r["match"] == m]
        assert len(rounds) == res.rounds[m]
        assert rounds[-1]["letters"] == list(res.letters[m])
        assert Counter(r["loss_reason"] for r in rounds) == {
            reason: int(c) for reason, c in zip(("last", "tempo", "tie", "stalled"), res.reasons[m]) if c}


def test_z7_a_match_stops_unfinished_at_max_rounds():
    seats = seats_for(["random"], 2)  # two players always tie, so nobody gets letters without tempo faults
    res = batch.matches(seats, 3, 1, model={"tempo_fault": 0.0}, max_rounds=50)
    assert list(res.donkey) == [-1, -1, -1] and list(res.rounds) == [50, 50, 50]


def test_an_illegal_pass_is_a_clear_error_in_both_engines():
    deal = [[0, 0, 1, 2], [1, 1, 2, 2], [0, 0, 1, 2]]
    message = illegal_both(deal, [LOWEST, script(1, 1, 1), LOWEST], {}, CALM)
    assert message == ("strategy 'script' at seat 1 made an illegal move in match 0, round 0, turn 2: passed value 1, "
                       "which it does not hold (Z3: a player passes one of its own cards)")
    message = illegal_both(deal, [script(7), LOWEST, LOWEST], {}, CALM)
    assert "at seat 0" in message and "turn 0: passed value 7, values are 0..2" in message
