"""Property tests (hypothesis) over the compiled engine's traces, checked by code that shares
nothing with the engines: cards are conserved turn by turn (Z1, Z3, Z4), every round ends by its
turn limit (M5), letters only grow and a match ends exactly when somebody has four (Z7)."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.games.ezelen import batch
from simkit.games.ezelen.rules import GAME
from simkit.games.ezelen.strategy import seats_for
from simkit.strategies import registry

NAMES = [i.name for i in registry.available(GAME)]

cases = st.fixed_dictionaries({
    "seed": st.integers(0, 2**64 - 1),
    "first": st.integers(0, 2**40),
    "players": st.integers(2, 13),
    "lineup": st.lists(st.sampled_from(NAMES), min_size=13, max_size=13),
    "max_turns": st.integers(0, 80),
    "tempo_fault": st.sampled_from([0.0, 0.0005, 0.05]),
})


def _seats(case):
    return seats_for(case["lineup"][: case["players"]], case["players"])


def _traces(case, count=4):
    return list(batch.traces(_seats(case), count, case["seed"], {"max_turns": case["max_turns"]},
                             {"tempo_fault": case["tempo_fault"]}, first=case["first"]))


@settings(max_examples=60, deadline=None)
@given(cases)
def test_z1_z3_z4_cards_are_conserved_turn_by_turn(case):
    n = case["players"]
    for rec in _traces(case):
        hands = [Counter(h) for h in rec["deal"]]
        signalled = {s["seat"]: s["turn"] for s in rec["signals"]}
        for t, passes in enumerate(rec["turns"]):
            for s in range(n):
                if signalled.get(s, t + 1) <= t:  # Z4: a signaller passes on what arrives, keeping its set
                    assert passes[s] == passes[s - 1] and 4 in hands[s].values()
                else:
                    assert hands[s][passes[s]] > 0, "passed a card not in hand"
            hands = [hands[s] + Counter([passes[s - 1]]) - Counter([passes[s]]) for s in range(n)]
            assert all(sum(h.values()) == 4 for h in hands)
            assert sum(hands, Counter()) == {v: 4 for v in range(n)}


@settings(max_examples=60, deadline=None)
@given(cases)
def test_m5_m6_every_round_ends_within_its_turn_limit_with_a_consistent_outcome(case):
    for rec in _traces(case):
        turns = len(rec["turns"])
        assert turns <= case["max_turns"]
        reason = rec["loss_reason"]
        if reason == "stalled":
            assert turns == case["max_turns"]
        if turns == case["max_turns"]:  # M6: (3) may still end it at that beat, (5) no longer can
            assert reason in ("stalled", "last", "tie")
        assert (rec["loser"] is None) == (reason in ("tie", "stalled"))
        if reason in ("last", "tie"):
            assert len(rec["copies"]) == rec["players"]
        if reason == "tempo":
            assert [f["seat"] for f in rec["tempo_faults"]].count(rec["loser"]) == 2
        assert sum(rec["letters"]) == (rec["loser"] is not None)


@settings(max_examples=25, deadline=None)
@given(cases)
def test_z7_letters_only_grow_and_a_match_ends_exactly_at_four(case):
    seats = _seats(case)
    rules = {"max_turns": max(case["max_turns"], 10)}
    records = list(batch.match_traces(seats, 1, case["seed"], rules, {"tempo_fault": 0.02}, first=case["first"],
                                      max_rounds=400))
    before = [0] * case["players"]
    for k, rec in enumerate(records):
        assert rec["round"] == k
        gained = [a - b for a, b in zip(rec["letters"], before)]
        assert sorted(gained)[:-1] == [0] * (case["players"] - 1) and max(gained) <= 1
        before = rec["letters"]
    assert all(max(r["letters"]) < 4 for r in records[:-1])
    assert max(records[-1]["letters"]) == 4 or len(records) == 400
