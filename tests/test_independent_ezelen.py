"""Check simkit's Ezelen traces with the independent checker in tests/independent_ezelen.py.

The checker imports nothing of simkit and was written from docs/rules/ezelen.md (Z1-Z7, M1-M8) and the
Ezelen part of docs/traces.md only.  This file produces traces with simkit (the batch API and the
`simkit trace` command) and runs the checker on them; the control tests break traces on purpose to show
that the checker can fail.
"""

from __future__ import annotations

import copy
import json
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from independent_ezelen import check_round, check_stream  # noqa: E402

STRATEGIES = ["random", "greedy", "sticky", "memory", "watcher", "dreamer"]


def lineup(n: int, shift: int = 0) -> list[str]:
    """A mixed lineup: every strategy appears once n >= 6, and over the shifts for smaller n."""
    return [STRATEGIES[(s + shift) % len(STRATEGIES)] for s in range(n)]


def generate(specs: list[str], n: int, matches: int, seed: int, rules=None, model=None) -> list[dict]:
    from simkit.games.ezelen import batch
    from simkit.games.ezelen.strategy import seats_for

    # a JSON round trip, so that the checker sees what a trace file holds
    return [json.loads(json.dumps(r)) for r in
            batch.match_traces(seats_for(specs, n), matches, seed, rules=rules or {}, model=model or {})]


# (name, specs, players, matches, seed, rules, model)
CASES = []
for _n in range(3, 14):
    CASES.append((f"mixed-{_n}", lineup(_n, _n), _n, 10 if _n < 8 else 4, 100 + _n, None, None))
    CASES.append((f"mixed-{_n}b", lineup(_n, _n + 3), _n, 8 if _n < 8 else 3, 1000 + 7 * _n, None, None))
for _i, _st in enumerate(STRATEGIES):
    CASES.append((f"all-{_st}", [_st], 4 + _i, 6, 200 + _i, None, None))
    CASES.append((f"all-{_st}-3", [_st], 3, 6, 250 + _i, None, None))
# 2 players: every decided round is a tie, so a match only ends through tempo losses
CASES.append(("two-players", ["random", "greedy"], 2, 3, 300, {"max_turns": 40}, {"tempo_fault": 0.05}))
CASES.append(("two-sticky", ["sticky", "memory"], 2, 2, 301, None, {"tempo_fault": 0.1}))
# tempo losses
CASES.append(("tempo-5", lineup(5, 1), 5, 12, 400, None, {"tempo_fault": 0.05}))
CASES.append(("tempo-9", lineup(9, 2), 9, 8, 401, None, {"tempo_fault": 0.05}))
CASES.append(("tempo-3", lineup(3, 4), 3, 10, 402, None, {"tempo_fault": 0.2}))
# stalls
CASES.append(("stall-4", ["random"], 4, 1, 500, {"max_turns": 5}, None))
CASES.append(("stall-7", lineup(7, 3), 7, 2, 501, {"max_turns": 8}, {"tempo_fault": 0.02}))
CASES.append(("stall-13", lineup(13, 5), 13, 1, 502, {"max_turns": 12}, None))
# per-seat model values (M8), other beat, exact reactions, an inattentive seat, a certain tempo fault
CASES.append(("per-seat", lineup(6, 0), 6, 3, 600, {"beat": 2.5},
              {"attention": [1.0, 0.5, 1.5, 1.0, 0.8, 2.0], "tempo_fault": [0.0, 0.01, 0.0, 0.02, 0.0, 0.01],
               "reaction_median": [0.6, 0.9, 0.4, 0.6, 1.2, 0.6]}))
CASES.append(("sigma-0", lineup(5, 2), 5, 6, 601, None, {"reaction_sigma": 0.0}))
CASES.append(("deaf-seat", lineup(4, 1), 4, 1, 602, {"max_turns": 25}, {"attention": [0.0, 1.0, 1.0, 1.0]}))
CASES.append(("cascade", lineup(8, 4), 8, 3, 603, None, {"base_notice": 0.1, "cascade": 0.5}))
# slow reactions (median 8 s > one beat): noticers still waiting to copy complete a set and signal (M3)
CASES.append(("slow-reaction", ["greedy"], 4, 6, 704, None, {"reaction_median": 8.0}))
CASES.append(("slow-reaction-7", lineup(7, 1), 7, 4, 707, {"max_turns": 40}, {"reaction_median": 8.0,
                                                                           "tempo_fault": 0.01}))
CASES.append(("certain-tempo", lineup(3, 0), 3, 1, 604, None, {"tempo_fault": [0.0, 1.0, 0.0]}))


@pytest.fixture(scope="module")
def traces():
    return {c[0]: generate(*c[1:]) for c in CASES}


@pytest.mark.parametrize("case", [c[0] for c in CASES])
def test_engine_traces_pass_checker(traces, case):
    records = traces[case]
    assert records
    assert check_stream(records) == len(records)


def test_checker_covers_every_kind_of_round(traces):
    """A few thousand rounds, every player count 2..13, every strategy, every loss reason."""
    records = [r for rs in traces.values() for r in rs]
    reasons = Counter(r["loss_reason"] for r in records)
    assert len(records) >= 5000, len(records)
    assert {r["players"] for r in records} == set(range(2, 14))
    assert {s for r in records for s in r["strategies"]} == set(STRATEGIES)
    for reason, least in (("last", 1500), ("tie", 1000), ("tempo", 100), ("stalled", 200)):
        assert reasons[reason] >= least, reasons
    late = sum(1 for r in records if len({s["turn"] for s in r["signals"]}) > 1)
    assert late >= 100  # M3 late signallers
    late_losers = sum(1 for r in records if r["loss_reason"] == "last" and r["loser"] in _signallers(r))
    assert late_losers >= 50  # Z5: a late signal alone at the latest copy time loses
    assert sum(1 for r in records if max(r["letters"]) == 4) >= 100  # completed matches (Z7)
    noticed_then_signalled = sum(1 for r in records for e in r["signals"]
                                 if any(x["seat"] == e["seat"] for x in r["notices"]))
    assert noticed_then_signalled >= 20
    assert all("notices" in r for r in records)


def test_checker_without_notices(traces):
    """The optional `notices` key removed: the weaker checks still pass."""
    for name in ("mixed-5", "tempo-5", "stall-7"):
        records = copy.deepcopy(traces[name])
        for r in records:
            del r["notices"]
        check_stream(records)


def test_cli_traces_pass_checker(tmp_path):
    """The same through `simkit trace` (a file), options on the command line."""
    from simkit.cli import cli

    out = tmp_path / "ez.jsonl"
    args = ["trace", "--game", "ezelen", "-n", "6", "-H", "120", "-s", "77", "--strategies",
            ",".join(lineup(6, 1)), "--model", "tempo_fault=0.02", "--rule", "max_turns=30", "-o", str(out)]
    cli.main(args, standalone_mode=False)
    records = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert len(records) == 120
    assert check_stream(records) == 120


# ---------------------------------------------------------------------------------------------
# control tests: broken traces must fail
# ---------------------------------------------------------------------------------------------

def _replay_hands(rec: dict, upto: int) -> list[Counter]:
    """Hands at beat `upto` (before the passes of turns[upto])."""
    n = rec["players"]
    hands = [Counter(h) for h in rec["deal"]]
    for row in rec["turns"][:upto]:
        hands = [+(hands[s] + Counter([row[(s - 1) % n]]) - Counter([row[s]])) for s in range(n)]
    return hands


def _first(records, pred):
    for i, r in enumerate(records):
        if pred(r):
            return i, copy.deepcopy(r)
    raise AssertionError("no record fits the control test")


def _fails(rec_or_records, pattern: str) -> None:
    with pytest.raises(AssertionError, match=pattern):
        if isinstance(rec_or_records, list):
            check_stream(rec_or_records)
        else:
            check_round(rec_or_records)


def _signalled(rec, s, t):
    return any(e["seat"] == s and e["turn"] <= t for e in rec["signals"])


def _break_a_pass(records, replacement, pattern):
    """Replace the first pass of a seat that has not signalled for which `replacement(rec, hand)`
    offers a value; the checker must then fail with `pattern`."""
    for rec in records:
        for t in range(len(rec["turns"])):
            hands = _replay_hands(rec, t)
            for s in range(rec["players"]):
                value = None if _signalled(rec, s, t) else replacement(rec, hands[s])
                if value is not None:
                    bad = copy.deepcopy(rec)
                    bad["turns"][t][s] = value
                    _fails(bad, pattern)
                    return
    raise AssertionError("no pass to break")


def test_control_pass_of_value_not_held(traces):
    def not_held(rec, hand):
        return next((v for v in range(rec["players"]) if hand[v] == 0), None)
    _break_a_pass(traces["mixed-5"], not_held, "Z3|Z4")


def test_control_signaller_does_not_pass_on(traces):
    def pred(r):
        return any(e["turn"] < len(r["turns"]) for e in r["signals"])
    _, rec = _first(traces["mixed-6"], pred)
    e = next(e for e in rec["signals"] if e["turn"] < len(rec["turns"]))
    t, s, n = e["turn"], e["seat"], rec["players"]
    hands = _replay_hands(rec, t)
    setv = next(v for v, k in hands[s].items() if k == 4)
    rec["turns"][t][s] = setv  # breaks the set instead of passing on
    _fails(rec, "Z4")
    assert n == 6


def test_control_wrong_loser(traces):
    _, rec = _first(traces["mixed-5"], lambda r: r["loss_reason"] == "last")
    rec["loser"] = (rec["loser"] + 1) % rec["players"]
    _fails(rec, "Z5|Z7")


def test_control_tie_called_last(traces):
    _, rec = _first(traces["mixed-4"], lambda r: r["loss_reason"] == "tie")
    rec["loss_reason"] = "last"
    rec["loser"] = rec["signals"][-1]["seat"]
    _fails(rec, "Z5")


def _signallers(rec: dict) -> set[int]:
    return {e["seat"] for e in rec["signals"]}


def test_control_lone_late_signaller_called_a_tie(traces):
    """Z5: the old reading (a signaller is never last) must fail the checker."""
    _, rec = _first(traces["mixed-5"], lambda r: r["loss_reason"] == "last" and r["loser"] in _signallers(r))
    rec["letters"][rec["loser"]] -= 1
    rec["loss_reason"], rec["loser"] = "tie", None
    _fails(rec, "Z5")


def test_control_missing_copy(traces):
    _, rec = _first(traces["mixed-7"], lambda r: r["loss_reason"] == "last")
    assert rec["copies"][-1]["seat"] == rec["loser"]
    del rec["copies"][-1]  # the noticer who copied last
    _fails(rec, "every seat copies once")


def test_control_copies_unsorted(traces):
    _, rec = _first(traces["mixed-7"], lambda r: r["loss_reason"] == "last")
    rec["copies"][0], rec["copies"][-1] = rec["copies"][-1], rec["copies"][0]
    _fails(rec, "sorted")


def test_control_copy_before_notice(traces):
    _, rec = _first(traces["mixed-6"], lambda r: r["loss_reason"] == "last")
    nt = rec["notices"][-1]
    c = next(c for c in rec["copies"] if c["seat"] == nt["seat"])
    c["time"] = nt["turn"] * rec["rules"]["beat"] - 0.01
    rec["copies"].sort(key=lambda c: (c["time"], c["seat"]))
    _fails(rec, "M3|M2|Z5")


def test_control_certain_notice_delayed(traces):
    """M2: once p >= 1 (defaults: 5 copies) a seat must notice in that beat; noticing a beat later fails."""
    for rec in traces["mixed-13"]:
        beat = rec["rules"]["beat"]
        for e in rec["notices"]:
            k = sum(1 for c in rec["copies"] if c["time"] <= e["turn"] * beat)
            if k >= 5 and e["turn"] < len(rec["turns"]) and e["seat"] != rec["loser"]:
                bad = copy.deepcopy(rec)
                bad_e = next(x for x in bad["notices"] if x["seat"] == e["seat"])
                bad_e["turn"] += 1
                next(c for c in bad["copies"] if c["seat"] == e["seat"])["time"] += beat
                bad["copies"].sort(key=lambda c: (c["time"], c["seat"]))
                _fails(bad, "M2: at beat .* >= 1")
                return
    raise AssertionError("no certain notice found")


def test_control_notice_too_early(traces):
    _, rec = _first(traces["mixed-6"], lambda r: r["notices"] and r["signals"])
    first = min(e["turn"] for e in rec["signals"])
    rec["notices"][0]["turn"] = first
    _fails(rec, "M2")


def test_control_missing_late_signal(traces):
    _, rec = _first(traces["mixed-8"], lambda r: len({e["turn"] for e in r["signals"]}) > 1)
    rec["signals"].pop()
    _fails(rec, "M3|copies")


def test_control_extra_first_signal(traces):
    _, rec = _first(traces["mixed-5"], lambda r: r["signals"] and r["loss_reason"] == "last")
    rec["signals"][0]["turn"] += 1
    rec["signals"].sort(key=lambda e: (e["turn"], e["seat"]))
    _fails(rec, "spec|M3|Z4")


def test_control_round_too_long(traces):
    _, rec = _first(traces["mixed-5"], lambda r: r["loss_reason"] == "last")
    rec["turns"].append(list(rec["turns"][-1]))
    _fails(rec, "M6|Z3|Z4|M3")


def test_control_round_too_short(traces):
    _, rec = _first(traces["mixed-5"], lambda r: r["loss_reason"] == "last" and r["notices"][-1]["turn"] > 1)
    rec["turns"].pop()
    _fails(rec, "M6|M2|spec")


def test_control_stalled_too_early(traces):
    _, rec = _first(traces["stall-4"], lambda r: r["loss_reason"] == "stalled")
    rec["turns"].pop()
    _fails(rec, "M5|M6")


def test_control_tempo_fault_after_notice(traces):
    def pred(r):
        return not r["tempo_faults"] and any(e["turn"] < len(r["turns"]) for e in r["notices"])
    _, rec = _first(traces["mixed-6"], pred)
    nt = next(e for e in rec["notices"] if e["turn"] < len(rec["turns"]))
    rec["tempo_faults"] = [{"seat": nt["seat"], "turn": nt["turn"]}]
    _fails(rec, "M4")


def test_control_tempo_wrong_loser(traces):
    _, rec = _first(traces["tempo-5"], lambda r: r["loss_reason"] == "tempo")
    rec["loser"] = (rec["loser"] + 1) % rec["players"]
    _fails(rec, "M4|Z6|Z7")


def test_control_second_fault_without_end(traces):
    _, rec = _first(traces["tempo-5"], lambda r: r["loss_reason"] == "last" and len(r["turns"]) > 2)
    s = next(c["seat"] for c in rec["copies"] if c["seat"] not in {e["seat"] for e in rec["signals"]})
    rec["tempo_faults"] = [{"seat": s, "turn": 0}, {"seat": s, "turn": 1}]
    _fails(rec, "Z6|M4")


def test_control_deal(traces):
    _, rec = _first(traces["mixed-4"], lambda r: r["deal"][0][0] < r["deal"][0][1])
    unsorted = copy.deepcopy(rec)
    unsorted["deal"][0] = unsorted["deal"][0][::-1]
    _fails(unsorted, "sorted")
    rec["deal"][0][0] += 1  # still sorted, one value now 5 times
    _fails(rec, "Z1: each value")


def test_control_signal_without_set(traces):
    _, rec = _first(traces["mixed-6"], lambda r: r["loss_reason"] == "last")
    nt = rec["notices"].pop(0)  # the noticer claims a signal instead
    rec["signals"].append({"seat": nt["seat"], "turn": nt["turn"]})
    rec["signals"].sort(key=lambda e: e["turn"])
    next(c for c in rec["copies"] if c["seat"] == nt["seat"])["time"] = nt["turn"] * rec["rules"]["beat"]
    rec["copies"].sort(key=lambda c: (c["time"], c["seat"]))
    _fails(rec, "must signal")


def test_control_greedy_strategy(traces):
    def most_held(rec, hand):  # greedy never passes a card of the value it holds most
        if max(hand.values()) > min(hand.values()):
            return next(v for v, k in hand.items() if k == max(hand.values()))
        return None
    _break_a_pass(traces["all-greedy"], most_held, "greedy|Z3|Z4|M3|spec")


def test_control_letters_not_carried(traces):
    records = copy.deepcopy(traces["mixed-5"])
    i = next(i for i, r in enumerate(records) if r["round"] == 2 and r["loser"] is not None)
    records[i]["letters"] = [1 if s == records[i]["loser"] else 0 for s in range(records[i]["players"])]
    _fails(records[: i + 1], "Z7")


def test_control_match_not_restarted(traces):
    records = copy.deepcopy(traces["mixed-5"])
    i = next(i for i, r in enumerate(records) if i and r["round"] == 0)
    records[i]["match"] = records[i - 1]["match"]
    _fails(records[: i + 1], "Z7")


def test_control_match_goes_on_after_ezel(traces):
    records = copy.deepcopy(traces["mixed-5"])
    i = next(i for i, r in enumerate(records) if i and r["round"] == 0)
    records[i]["round"] = records[i - 1]["round"] + 1
    records[i]["match"] = records[i - 1]["match"]
    _fails(records[: i + 1], "Z7")


def test_control_missing_key(traces):
    rec = copy.deepcopy(traces["mixed-3"][0])
    del rec["model"]["cascade"]
    _fails(rec, "cascade")
