"""Ezelen trace records (docs/traces.md): the spec's example round replayed in both engines,
every required key, and a JSON round trip that keeps every time exactly."""

import json
import sys
from collections import Counter
from itertools import islice
from pathlib import Path

import pytest
from test_ezelen_scripts import play_both, script

from simkit.games.ezelen import batch
from simkit.games.ezelen.check import Checker
from simkit.games.ezelen.strategy import seats_for

sys.path.insert(0, str(Path(__file__).resolve().parent))
from independent_ezelen import check_stream  # noqa: E402

SPEC_EXAMPLE = {
    "game": "ezelen", "format": 1, "seed": 7, "match": 0, "round": 0, "players": 3,
    "strategies": ["random", "random", "random"],
    "rules": {"beat": 3.0, "max_turns": 1000},
    "model": {"base_notice": 0.35, "cascade": 0.15, "reaction_median": 0.6, "reaction_sigma": 0.35,
              "attention": [1.0, 1.0, 1.0], "tempo_fault": [0.0005, 0.0005, 0.0005]},
    "deal": [[0, 0, 0, 1], [1, 1, 1, 2], [0, 2, 2, 2]],
    "turns": [[1, 2, 2], [0, 0, 2], [0, 0, 2]],
    "signals": [{"seat": 1, "turn": 1}],
    "copies": [{"seat": 1, "time": 3.0}, {"seat": 0, "time": 7.31}, {"seat": 2, "time": 9.71}],
    "tempo_faults": [],
    "loser": 2, "loss_reason": "last",
    "letters": [0, 0, 1],
}


def test_the_spec_example_round_replays_in_both_engines():
    # the same passes scripted; key 14 is one whose draws make seat 0 notice at beat 2 and seat 2 at beat 3
    t = play_both(SPEC_EXAMPLE["deal"], [script(1, 0, 0), script(2), script(2, 2, 2)], key=14)
    assert set(t) == set(SPEC_EXAMPLE) | {"notices"}
    same = ("players", "rules", "model", "deal", "turns", "signals", "tempo_faults", "loser", "loss_reason", "letters")
    assert {k: t[k] for k in same} == {k: SPEC_EXAMPLE[k] for k in same}
    assert t["notices"] == [{"seat": 0, "turn": 2}, {"seat": 2, "turn": 3}]
    assert [c["seat"] for c in t["copies"]] == [1, 0, 2] and t["copies"][0]["time"] == 3.0
    assert 6.0 < t["copies"][1]["time"] < 9.0 < t["copies"][2]["time"]


def test_records_survive_json_with_every_time_exact():
    seats = seats_for(["greedy", "random", "watcher", "sticky"], 4)
    for rec in batch.match_traces(seats, 3, 11, model={"tempo_fault": 0.01}):
        assert set(rec) >= set(SPEC_EXAMPLE)
        line = json.dumps(rec)
        assert "\n" not in line and json.loads(line) == rec


GOLDEN = Path(__file__).parent / "golden"


def _golden_files() -> dict[str, list[dict]]:
    return {p.name: [json.loads(line) for line in p.read_text(encoding="utf-8").splitlines()]
            for p in sorted(GOLDEN.glob("ezelen-*.jsonl"))}


@pytest.mark.parametrize("name", sorted(_golden_files()))
def test_golden_traces_are_reproduced_and_check_out(name):
    """`make golden` wrote them with `simkit trace`; a changed engine or rule reading shows up here."""
    records = _golden_files()[name]
    first = records[0]
    seats = seats_for(first["strategies"], first["players"])
    again = list(islice(batch.match_traces(seats, len(records), first["seed"], first["rules"]), len(records)))
    assert again == records
    checker = Checker()
    for rec in records:
        checker.check(rec)
    assert check_stream(records) == len(records)


def test_the_golden_traces_pin_every_z5_case():
    """Z5: a reaction alone at the latest copy time loses; a late signal alone there loses too; two or
    more same-turn signallers sharing it tie (with 2 players, every decided round)."""
    cases = Counter()
    for name, records in _golden_files().items():
        for rec in records:
            if rec["loss_reason"] not in ("last", "tie"):
                continue
            latest = max(c["time"] for c in rec["copies"])
            holders = [c["seat"] for c in rec["copies"] if c["time"] == latest]
            signalled = {e["seat"]: e["turn"] for e in rec["signals"]}
            if len(holders) == 1:
                assert (rec["loss_reason"], rec["loser"]) == ("last", holders[0])
                cases["late signal loses" if holders[0] in signalled else "reaction loses"] += 1
            else:
                assert all(s in signalled for s in holders) and len({signalled[s] for s in holders}) == 1
                assert (rec["loss_reason"], rec["loser"]) == ("tie", None)
                cases["2-player tie" if rec["players"] == 2 else "same-turn signallers tie"] += 1
    assert set(cases) == {"late signal loses", "reaction loses", "same-turn signallers tie", "2-player tie"}, cases
