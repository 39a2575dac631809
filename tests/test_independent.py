"""Check the engine's traces with the independent checker in tests/independent_replay.py.

The traces come from the command line tool (`simkit trace`, called through its entry point); the
checker imports nothing of the engine.  Rule ids (W..) refer to docs/rules/whos-the-ass.md, the format to
docs/traces.md.
"""

from __future__ import annotations

import copy
import json
import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from independent_replay import check_lowest_seats, check_trace, replay_lowest  # noqa: E402

OPTIONS = ("1or14", "1", "any")
PLAYER_COUNTS = range(3, 13)
HANDS_A = 4
# test B: all-`lowest` traces
LOWEST_CASES = [(3, "1or14"), (5, "any"), (7, "1"), (9, "1or14"), (12, "any")]
HANDS_B = 6


BUILTINS = ["random", "lowest", "greedy", "highest", "spend", "hoard", "dump", "delay", "dodge", "grab",
            "keep_low", "compose()"]


def mixed_lineup(n: int) -> list[str]:
    """A lineup of built-in strategies (every one appears over the player counts), `lowest` in it."""
    return [BUILTINS[(s * 5 + n) % len(BUILTINS)] if s else "lowest" for s in range(n)]


def run_trace(out: Path, n: int, hands: int, seed: int, strategies: list[str], ass_joker: str) -> list[dict]:
    """`simkit trace ...` through the command's own entry (in-process: a process start costs ~1 s)."""
    from simkit.cli import cli

    args = ["trace", "--players", str(n), "--hands", str(hands), "--seed", str(seed),
            "--strategies", ",".join(strategies), "--ass-joker", ass_joker, "-o", str(out)]
    cli.main(args, standalone_mode=False)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == hands, f"{out.name}: expected {hands} lines, got {len(lines)}"
    return [json.loads(line) for line in lines]


@pytest.fixture(scope="module")
def traces(tmp_path_factory):
    """All traces of this module."""
    tmp = tmp_path_factory.mktemp("independent")
    jobs = {}
    for n in PLAYER_COUNTS:
        for o in OPTIONS:
            jobs[("mixed", n, o)] = (tmp / f"mixed_{n}_{o}.jsonl", n, HANDS_A, 1000 + n, mixed_lineup(n), o)
    for n, o in LOWEST_CASES:
        jobs[("lowest", n, o)] = (tmp / f"lowest_{n}_{o}.jsonl", n, HANDS_B, 2000 + n, ["lowest"], o)
    return {key: run_trace(*args) for key, args in jobs.items()}


# ---------------------------------------------------------------------------------------------
# Test A: every record of mixed random/lowest lineups passes the independent checker
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("ass_joker", OPTIONS)
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_a_mixed_traces_pass_checker(traces, n, ass_joker):
    records = traces[("mixed", n, ass_joker)]
    for rec in records:
        assert rec["players"] == n
        assert rec["rules"]["ass_joker"] == ass_joker
        assert rec["strategies"] == mixed_lineup(n)
        try:
            check_trace(rec)
        except AssertionError as exc:
            raise AssertionError(
                f"n={n} ass_joker={ass_joker} seed={rec.get('seed')} hand={rec.get('hand')}: {exc}") from None


@pytest.mark.parametrize("ass_joker", OPTIONS)
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_a_lowest_seats_in_mixed_traces_follow_the_digest(traces, n, ass_joker):
    """Bonus: in the mixed lineups, every move of a `lowest` seat is the one the digest prescribes."""
    for rec in traces[("mixed", n, ass_joker)]:
        try:
            check_lowest_seats(rec)
        except AssertionError as exc:
            raise AssertionError(
                f"n={n} ass_joker={ass_joker} seed={rec.get('seed')} hand={rec.get('hand')}: {exc}") from None


# ---------------------------------------------------------------------------------------------
# Test B: all-`lowest` traces equal an independent replay of the same deal
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("n,ass_joker", LOWEST_CASES)
def test_b_lowest_traces_match_independent_replay(traces, n, ass_joker):
    for rec in traces[("lowest", n, ass_joker)]:
        where = f"n={n} ass_joker={ass_joker} seed={rec['seed']} hand={rec['hand']}"
        check_trace(rec)
        mine = replay_lowest(rec["deal"], ass_joker)
        for i, (a, b) in enumerate(zip(mine["tricks"], rec["tricks"])):
            assert a == b, f"{where}: trick {i} differs\n independent: {a}\n trace:       {b}"
        assert len(mine["tricks"]) == len(rec["tricks"]), f"{where}: trick counts differ"
        assert mine["final_hands"] == rec["final_hands"], f"{where}: final_hands differ"
        assert mine["penalties"] == rec["penalties"], f"{where}: penalties differ"


def test_b_replay_lowest_small_examples():
    """replay_lowest on hand-made 3-player deals, worked out by hand from the digest."""
    # seat 0 holds the ass and leads it (W6, `lowest` lead); seats 1, 2 play their lowest number;
    # seat 2 plays 5 > 2, takes the ass and the 2 and 5 (W14), then may not lead the ass (W15).
    deal = [[0, 3, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
            [2, 4, 4, 6, 6, 7, 8, 9, 10, 11, 12, 13, 14],
            [5, 5, 6, 7, 7, 8, 9, 10, 11, 12, 13, 14, 14]]
    out = replay_lowest(deal, "1or14")
    t0 = out["tricks"][0]
    assert t0 == {"kind": "ass", "leader": 0,
                  "plays": [{"seat": 0, "cards": [0], "value": 0},
                            {"seat": 1, "cards": [2], "value": 2},
                            {"seat": 2, "cards": [5], "value": 5}],
                  "taker": 2}
    t1 = out["tricks"][1]
    # seat 2 now holds 2, 5, 5, ...; it may not lead the ass, so it leads its lowest value: the 2
    assert t1["kind"] == "normal" and t1["leader"] == 2
    assert t1["plays"][0] == {"seat": 2, "cards": [2], "value": 2}
    # seat 0 follows with the lowest value above 2 it holds at least once: 3
    assert t1["plays"][1] == {"seat": 0, "cards": [3], "value": 3}
    # the replay itself is a valid trace
    rec = {"game": "whos-the-ass", "format": 1, "seed": 0, "hand": 0, "players": 3,
           "rules": {"ass_joker": "1or14"}, "strategies": ["lowest"] * 3, "deal": deal, **out}
    check_trace(rec)


# ---------------------------------------------------------------------------------------------
# Test C: the checker can fail
# ---------------------------------------------------------------------------------------------

def _all_records(traces):
    for key in sorted(traces, key=str):
        yield from traces[key]


def _hands_after(rec: dict, m: int) -> list[Counter]:
    """The hands after the first m tricks of a (valid) record."""
    hands = [Counter(h) for h in rec["deal"]]
    for trick in rec["tricks"][:m]:
        table = Counter()
        for p in trick["plays"]:
            if "cards" in p:
                hands[p["seat"]] -= Counter(p["cards"])
                table += Counter(p["cards"])
        if trick["kind"] == "ass":
            hands[trick["taker"]] += table
    return hands


def _expect_failure(rec: dict, fragment: str):
    with pytest.raises(AssertionError) as info:
        check_trace(rec)
    assert fragment in str(info.value), f"expected {fragment!r} in: {info.value}"


@pytest.fixture(scope="module")
def valid_record(traces):
    """A valid record with an ass trick that is followed by at least one more trick, and with a
    normal trick in which someone passed (so that every corruption below has a target)."""
    for rec in _all_records(traces):
        kinds = [t["kind"] for t in rec["tricks"]]
        has_ass_then_more = any(k == "ass" for k in kinds[:-1])
        has_pass = any(t["kind"] == "normal" and any("pass" in p for p in t["plays"][1:])
                       for t in rec["tricks"])
        if has_ass_then_more and has_pass and len(rec["tricks"]) >= 3:
            check_trace(rec)
            return rec
    pytest.fail("no suitable record among the generated traces")


def test_c_untouched_copy_passes(valid_record):
    check_trace(copy.deepcopy(valid_record))


def test_c_wrong_winner(valid_record):
    rec = copy.deepcopy(valid_record)
    i = next(i for i, t in enumerate(rec["tricks"]) if t["kind"] == "normal")
    trick = rec["tricks"][i]
    trick["winner"] = (trick["winner"] + 1) % rec["players"]
    _expect_failure(rec, "W10")


def test_c_wrong_taker(valid_record):
    rec = copy.deepcopy(valid_record)
    trick = next(t for t in rec["tricks"] if t["kind"] == "ass")
    trick["taker"] = trick["leader"]  # the leader of an ass trick never takes it
    _expect_failure(rec, "W14")


def test_c_illegal_raise_not_higher(valid_record):
    rec = copy.deepcopy(valid_record)
    trick = next(t for t in rec["tricks"]
                 if t["kind"] == "normal" and any("pass" in p for p in t["plays"][1:]))
    j = next(j for j, p in enumerate(trick["plays"]) if j > 0 and "pass" in p)
    lead = trick["plays"][0]
    # a "raise" with a set of exactly the lead's value: not strictly higher (W9)
    trick["plays"][j] = {"seat": trick["plays"][j]["seat"], "cards": list(lead["cards"]), "value": lead["value"]}
    _expect_failure(rec, "W9")


def test_c_illegal_raise_wrong_count(valid_record):
    rec = copy.deepcopy(valid_record)
    trick = next(t for t in rec["tricks"]
                 if t["kind"] == "normal" and any("pass" in p for p in t["plays"][1:]))
    j = next(j for j, p in enumerate(trick["plays"]) if j > 0 and "pass" in p)
    k = len(trick["plays"][0]["cards"])
    trick["plays"][j] = {"seat": trick["plays"][j]["seat"], "cards": [14] * (k + 1), "value": 14}
    _expect_failure(rec, "W9")


def test_c_wrong_penalty(valid_record):
    rec = copy.deepcopy(valid_record)
    rec["penalties"][0] += 1
    _expect_failure(rec, "W17")


def test_c_removed_final_trick(valid_record):
    rec = copy.deepcopy(valid_record)
    rec["tricks"].pop()
    _expect_failure(rec, "W16")


def test_c_extra_trick_after_end(valid_record):
    rec = copy.deepcopy(valid_record)
    rec["tricks"].append(copy.deepcopy(rec["tricks"][-1]))
    _expect_failure(rec, "W16")


def test_c_ass_led_right_after_being_taken(valid_record):
    rec = copy.deepcopy(valid_record)
    t = next(i for i, tr in enumerate(rec["tricks"][:-1]) if tr["kind"] == "ass")
    taker = rec["tricks"][t]["taker"]
    n = rec["players"]
    hands = _hands_after(rec, t + 1)
    assert hands[taker][0] == 1
    # the taker leads the ass at once; everything else about the trick is legal
    plays = [{"seat": taker, "cards": [0], "value": 0}]
    best, best_seat = 0, taker
    for i in range(1, n):
        s = (taker + i) % n
        card = min(c for c in hands[s].elements())
        value = 1 if card == 14 else card
        plays.append({"seat": s, "cards": [card], "value": value})
        if value >= best:
            best, best_seat = value, s
    rec["tricks"] = rec["tricks"][: t + 1] + [
        {"kind": "ass", "leader": taker, "plays": plays, "taker": best_seat}]
    _expect_failure(rec, "W15")


def test_c_wrong_play_value(valid_record):
    rec = copy.deepcopy(valid_record)
    play = next(p for t in rec["tricks"] if t["kind"] == "normal" for p in t["plays"] if "cards" in p)
    play["value"] += 1
    _expect_failure(rec, "W8")


def test_c_wrong_acting_order(valid_record):
    rec = copy.deepcopy(valid_record)
    plays = rec["tricks"][0]["plays"]
    plays[1], plays[2] = plays[2], plays[1]
    _expect_failure(rec, "acting order")


def test_c_joker_value_against_option():
    """A lone joker counted 14 in an ass trick is legal under "1or14"/"any" but not under "1" (W13)."""
    deal = [[0, 3, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13],
            [2, 4, 4, 6, 6, 7, 8, 9, 10, 11, 12, 13, 14],
            [5, 5, 6, 7, 7, 8, 9, 10, 11, 12, 13, 14, 14]]
    base = {"game": "whos-the-ass", "format": 1, "seed": 0, "hand": 0, "players": 3,
            "strategies": ["lowest"] * 3, "deal": deal}
    out = replay_lowest(deal, "1or14")
    # seat 1 answers the ass with its joker declared 14 instead of its 2: it now takes the ass.
    tricks = copy.deepcopy(out["tricks"][:1])
    tricks[0]["plays"][1] = {"seat": 1, "cards": [14], "value": 14}
    tricks[0]["taker"] = 1
    for option in ("1or14", "any"):
        rec = dict(base, rules={"ass_joker": option}, tricks=tricks,
                   final_hands=[[], [], []], penalties=[0, 0, 0])
        # legal so far: the first error is that the trace stops while everyone still holds cards
        _expect_failure(rec, "W16")
    rec = dict(base, rules={"ass_joker": "1"}, tricks=tricks,
               final_hands=out["final_hands"], penalties=out["penalties"])
    _expect_failure(rec, "W13")


def test_c_bad_header(valid_record):
    rec = copy.deepcopy(valid_record)
    del rec["seed"]
    _expect_failure(rec, "seed")
    rec = copy.deepcopy(valid_record)
    rec["rules"]["ass_joker"] = "14"
    _expect_failure(rec, "W13")
    rec = copy.deepcopy(valid_record)
    rec["deal"][0] = list(reversed(rec["deal"][0]))
    _expect_failure(rec, "sorted")
    rec = copy.deepcopy(valid_record)
    rec["deal"][0] = rec["deal"][0][1:]
    _expect_failure(rec, "W4")


def test_c_lowest_seat_check_can_fail(traces):
    """Relabel a `random` seat as `lowest` in a record where it deviated from `lowest`."""
    for rec in _all_records(traces):
        for s, st in enumerate(rec["strategies"]):
            if st != "random":
                continue
            relabelled = copy.deepcopy(rec)
            relabelled["strategies"][s] = "lowest"
            try:
                check_lowest_seats(relabelled)
            except AssertionError as exc:
                assert "lowest:" in str(exc)
                return
    pytest.fail("no random seat ever deviated from `lowest` in the generated traces")
