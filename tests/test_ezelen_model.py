"""The model of the human side, M1–M8: hand-made rounds through both engines, and statistics of
the engine's traces checked against the model's formulas."""

import math
from collections import Counter

import numpy as np
import pytest
from test_ezelen_scripts import LOWEST, play_both, script

from simkit.core.errors import SimkitError
from simkit.games.ezelen import batch
from simkit.games.ezelen.model import DEFAULT_MODEL
from simkit.games.ezelen.strategy import seats_for

CALM = {"tempo_fault": 0.0}
SHARP = {"tempo_fault": 0.0, "attention": 100.0, "reaction_sigma": 0.0}
SET_DEALT = [[1, 1, 1, 1], [0, 0, 2, 2], [0, 0, 2, 2]]  # seat 0 signals at the deal


def test_m1_each_player_s_strategy_chooses_its_pass():
    t = play_both([[0, 0, 1, 2], [1, 1, 2, 2], [0, 0, 1, 2]], [script(2, 0), script(1, 2), script(0, 1)],
                  {"max_turns": 2}, CALM)
    assert t["turns"] == [[2, 1, 0], [0, 2, 1]]


def _eligible_by_beat(rec):
    """(beat, seat, copied_so_far, noticed) for every noticing draw a trace implies (M2, M6)."""
    beat = rec["rules"]["beat"]
    signal = {s["seat"]: s["turn"] for s in rec["signals"]}
    notice = {s["seat"]: s["turn"] for s in rec["notices"]}
    if not signal:
        return
    first = min(signal.values())
    for b in range(first + 1, len(rec["turns"]) + 1):
        copied = sum(c["time"] <= b * beat for c in rec["copies"])
        for s in range(rec["players"]):
            if signal.get(s, b + 1) <= b or notice.get(s, b + 1) < b:
                continue
            yield b, s, copied, notice.get(s) == b


def test_m2_noticing_starts_the_beat_after_the_first_signal():
    for rec in batch.traces(seats_for(["greedy"], 6), 500, 8):
        if rec["signals"]:
            first = rec["signals"][0]["turn"]
            assert all(n["turn"] > first for n in rec["notices"])


def test_m2_noticing_chance_is_attention_times_base_plus_cascade_times_copied():
    attention = [1.0, 0.5, 2.0, 1.0, 0.8]
    model = {"attention": attention, "base_notice": 0.2, "cascade": 0.1, "tempo_fault": 0.0}
    trials, hits = Counter(), Counter()
    for rec in batch.traces(seats_for(["greedy", "random", "sticky", "memory", "greedy"], 5), 3000, 12, model=model):
        for _, s, copied, noticed in _eligible_by_beat(rec):
            p = min(attention[s] * (0.2 + 0.1 * copied), 1.0)
            trials[p] += 1
            hits[p] += noticed
    assert len(trials) >= 8
    for p, k in trials.items():
        if p == 1.0:
            assert hits[p] == k
        else:
            assert abs(hits[p] / k - p) <= 4 * math.sqrt(p * (1 - p) / k) + 1e-12, (p, k, hits[p])


def test_m2_a_player_without_attention_never_notices():
    t = play_both(SET_DEALT, [LOWEST] * 3, {"max_turns": 20}, {**CALM, "attention": [1.0, 0.0, 1.0]})
    assert 1 not in [n["seat"] for n in t["notices"]]
    assert t["loss_reason"] == "stalled" and len(t["turns"]) == 20


def test_m3_signallers_copy_at_their_signal_and_noticers_a_lognormal_reaction_later():
    logs = []
    for rec in batch.traces(seats_for(["greedy"], 7), 2000, 3, {"beat": 2.5}, {"reaction_median": 0.8,
                                                                                "reaction_sigma": 0.5}):
        if rec["loss_reason"] not in ("last", "tie"):
            continue  # a reaction still pending at a tempo or stalled end is not in the trace
        copies = {c["seat"]: c["time"] for c in rec["copies"]}
        signalled = set()
        for s in rec["signals"]:
            assert copies[s["seat"]] == s["turn"] * 2.5
            signalled.add(s["seat"])
        for n in rec["notices"]:
            if n["seat"] not in signalled:
                r = copies[n["seat"]] - n["turn"] * 2.5
                assert r > 0
                logs.append(math.log(r))
    logs = np.array(logs)
    assert len(logs) > 5000
    assert abs(logs.mean() - math.log(0.8)) < 4 * 0.5 / math.sqrt(len(logs))
    assert abs(logs.std() - 0.5) < 0.02


def test_m3_a_noticed_player_who_completes_a_set_signals_and_copies_then():
    # seat 1 notices at beat 1 with a slow reaction (copy at 3 + 10); it completes its set in turn 1,
    # so it signals at 6.0 and copies then; seat 3 never notices, and the round stalls at beat 3
    model = {**SHARP, "attention": [1.0, 100.0, 100.0, 0.0], "reaction_median": 10.0}
    t = play_both([[1, 1, 1, 1], [0, 0, 3, 3], [2, 2, 3, 3], [0, 0, 2, 2]],
                  [LOWEST, script(3, 3), script(2, 3), script(0, 0)], {"max_turns": 3}, model)
    assert t["notices"] == [{"seat": 1, "turn": 1}, {"seat": 2, "turn": 1}]
    assert {"seat": 1, "turn": 2} in t["signals"]
    # seat 2's reaction (13.0) is still pending at the end (9.0), so it is not listed
    assert t["copies"] == [{"seat": 0, "time": 0.0}, {"seat": 1, "time": 6.0}]
    assert (t["loser"], t["loss_reason"]) == (None, "stalled")


def test_m4_tempo_faults_come_before_the_first_signal_and_only_from_players_not_in_the_know():
    faults_before = 0
    eligible = faults = 0
    for rec in batch.traces(seats_for(["greedy"], 5), 2000, 6, model={"tempo_fault": 0.02}):
        signal = {s["seat"]: s["turn"] for s in rec["signals"]}
        notice = {s["seat"]: s["turn"] for s in rec["notices"]}
        first = min(signal.values(), default=len(rec["turns"]) + 1)
        for f in rec["tempo_faults"]:
            assert signal.get(f["seat"], math.inf) > f["turn"] and notice.get(f["seat"], math.inf) > f["turn"]
            faults_before += f["turn"] < first
        # the rate per eligible beat: every beat a player neither signalled nor noticed gets a draw
        last = len(rec["turns"]) if rec["loss_reason"] == "tempo" else len(rec["turns"]) - 1
        for t in range(last + 1):
            for s in range(5):
                if signal.get(s, math.inf) > t and notice.get(s, math.inf) > t:
                    eligible += 1
        faults += len(rec["tempo_faults"])
    assert faults_before > 0
    assert abs(faults / eligible - 0.02) < 4 * math.sqrt(0.02 * 0.98 / eligible)


def test_m5_a_fixed_tie_break_deadlocks_and_the_round_ends_stalled_without_a_letter():
    deal = [[0, 0, 1, 1], [0, 0, 1, 1]]  # both players sit on two pairs
    t = play_both(deal, [LOWEST, LOWEST], {"max_turns": 40}, CALM, letters=[2, 3])
    assert t["turns"] == [[0, 0]] * 40
    assert (t["loser"], t["loss_reason"], t["letters"]) == (None, "stalled", [2, 3])
    greedy = seats_for(["greedy"], 2)
    for key in range(20):  # greedy breaks ties at random and gets out
        assert play_both(deal, greedy, {"max_turns": 40}, CALM, key=key)["loss_reason"] == "tie"


def test_m5_every_round_ends_by_max_turns():
    res = batch.play(seats_for(["sticky"], 2), 3000, 5, {"max_turns": 25})
    assert res.turns.max() == 25 and (res.reason == 3).any()  # rules.STALLED


def test_m6_1_signals_come_before_4_the_turn_limit_and_4_before_5_tempo_faults():
    t = play_both(SET_DEALT, [LOWEST] * 3, {"max_turns": 0}, {"tempo_fault": 1.0})
    assert t["signals"] == [{"seat": 0, "turn": 0}] and t["tempo_faults"] == []
    assert (t["turns"], t["loss_reason"]) == ([], "stalled")


def test_m6_3_the_end_by_copies_comes_before_4_the_turn_limit():
    t = play_both([[0, 0, 0, 0], [1, 1, 1, 1]], [LOWEST] * 2, {"max_turns": 0})
    assert (t["turns"], t["loss_reason"]) == ([], "tie")


def test_m6_2_noticing_then_3_the_end_with_no_passes_in_that_beat():
    t = play_both(SET_DEALT, [LOWEST] * 3, {}, SHARP)
    assert t["notices"] == [{"seat": 1, "turn": 1}, {"seat": 2, "turn": 1}]
    assert len(t["turns"]) == 1  # the passes of turn 0 only, as in the spec's example


def test_m6_1_completing_a_set_is_signalling_not_noticing():
    # seat 1 completes a set in turn 0 and signals at beat 1, where it would otherwise have noticed
    t = play_both([[1, 1, 1, 1], [0, 0, 0, 2], [0, 2, 2, 2]], [LOWEST, script(2), script(0)], {}, SHARP)
    assert t["signals"] == [{"seat": 0, "turn": 0}, {"seat": 1, "turn": 1}, {"seat": 2, "turn": 1}]
    assert t["notices"] == [] and t["loss_reason"] == "tie"


def test_m6_5_a_losing_tempo_fault_ends_the_round_before_6_the_passes():
    t = play_both([[0, 0, 1, 2], [1, 1, 2, 2], [0, 0, 1, 2]], [LOWEST] * 3, {}, {"tempo_fault": [1.0, 0.0, 0.0]})
    assert len(t["turns"]) == 1 and t["loser"] == 0


def test_m6_exact_ties_of_the_latest_copy_are_broken_by_the_rounds_generator():
    losers = Counter()
    for key in range(200):  # sigma 0: both noticers copy at exactly 3.6
        t = play_both(SET_DEALT, [LOWEST] * 3, {}, SHARP | {"reaction_median": 0.6}, key=key)
        assert t["copies"][1]["time"] == t["copies"][2]["time"]
        losers[t["loser"]] += 1
    assert set(losers) == {1, 2} and 60 <= losers[1] <= 140


def test_m7_random_passes_each_of_the_four_cards_with_probability_one_quarter():
    rounds = 4000
    passed, held = Counter(), Counter()
    for rec in batch.traces(seats_for(["random"], 3), rounds, 2, {"max_turns": 1}, CALM):
        if rec["turns"]:
            for s in range(3):
                for v in set(rec["deal"][s]):
                    held[rec["deal"][s].count(v)] += 1
                    passed[rec["deal"][s].count(v)] += rec["turns"][0][s] == v
    for count, k in held.items():
        if count < 4:
            assert abs(passed[count] / k - count / 4) < 4 * math.sqrt(count / 4 * (1 - count / 4) / k) + 1e-9


@pytest.mark.parametrize("name", ["greedy", "sticky", "memory"])
def test_m7_strategies_break_ties_at_random_not_by_position(name):
    deal = [[0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3], [0, 1, 2, 3]]  # all four values tie everywhere
    first = Counter()
    for key in range(400):
        first[play_both(deal, seats_for([name], 4), {"max_turns": 1}, CALM, key=key)["turns"][0][0]] += 1
    assert set(first) == {0, 1, 2, 3} and min(first.values()) > 60, first


def test_m8_every_model_value_per_seat_in_the_trace():
    seats = seats_for(["greedy", "watcher", "dreamer"], 3)
    rec = next(batch.traces(seats, 1, 0, model={"cascade": [0.1, 0.2, 0.3], "tempo_fault": 0.001}))
    assert rec["model"] == {"base_notice": 0.35, "cascade": [0.1, 0.2, 0.3], "reaction_median": [0.6, 0.5, 0.6],
                            "reaction_sigma": 0.35, "attention": [1.0, 1.5, 0.6], "tempo_fault": [0.001] * 3}
    assert set(rec["model"]) == set(DEFAULT_MODEL)


def test_m8_the_callers_values_override_a_strategys_profile():
    seats = seats_for(["watcher", "greedy"], 2)
    rec = next(batch.traces(seats, 1, 0, model={"attention": [0.9, 2.0]}))
    assert rec["model"]["attention"] == [0.9, 2.0] and rec["model"]["reaction_median"] == [0.5, 0.6]


def test_m8_per_seat_values_change_the_play_of_that_seat_only():
    seats = seats_for(["greedy"], 6)
    slow = batch.play(seats, 20_000, 3, model={"reaction_median": [0.6, 0.6, 0.6, 3.0, 0.6, 0.6]})
    counts = np.bincount(slow.loser[slow.loser >= 0], minlength=6)
    assert counts[3] > 2 * max(counts[s] for s in (0, 1, 2, 4, 5))


@pytest.mark.parametrize("model, message", [
    ({"attention": -1.0}, "attention=-1.0 is outside 0..100"),
    ({"tempo": 0.1}, "unknown model parameter 'tempo'"),
    ({"cascade": [0.1, 0.2]}, "cascade has 2 values for 3 players"),
    ({"base_notice": "high"}, "base_notice='high' is outside"),
])
def test_m8_bad_model_values_are_clear_errors(model, message):
    with pytest.raises(SimkitError, match=message):
        batch.play(seats_for(["greedy"], 3), 10, 1, model=model)
