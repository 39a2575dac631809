"""`simkit` for Ezelen as a user meets it: trace -> show -> check round trips, simulate (rounds and
matches), bench, and one clear line with exit code 2 for every kind of bad input."""

import json
from itertools import islice

import numpy as np
import pytest

from simkit.core.errors import SimkitError
from simkit.games.ezelen import batch
from simkit.games.ezelen.strategy import seats_for
from simkit.games.traces import to_line, write_traces
from simkit.strategies import registry

BUILTINS = [i.name for i in registry.available("ezelen")]


def lineup(n: int) -> list[str]:
    """Every built-in strategy appears over the player counts 8 and 13; 2 and 3 get others."""
    return [BUILTINS[(s + n) % len(BUILTINS)] for s in range(n)]


def test_the_lineups_cover_every_builtin():
    assert {"random", "greedy", "sticky", "memory", "watcher", "dreamer"} <= set(BUILTINS)
    assert set(lineup(8)) == set(BUILTINS) == set(lineup(13))


CASES = [  # players, rounds, seed, extra options
    (2, 5, 1, []),
    (3, 12, 2, ["--model", "tempo_fault=0.02", "--rule", "max_turns=6"]),
    (8, 10, 3, ["--model", "attention=1,1,0.6,1,1,2,1,1", "--rule", "beat=2.5"]),
    (13, 6, 4, []),
]


@pytest.mark.parametrize("n, rounds, seed, extra", CASES)
def test_trace_show_check_round_trip(run, tmp_path, n, rounds, seed, extra):
    target = tmp_path / "t.jsonl"
    code, out, err = run("trace", "--game", "ezelen", "-n", n, "-H", rounds, "-s", seed,
                         "--strategies", ",".join(lineup(n)), *extra, "-o", target)
    assert code == 0 and err == ""
    lines = target.read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    assert out.startswith(f"wrote {rounds} rounds (matches 0..{records[-1]['match']}) to ")
    # exactly what the API gives: match 0 until its donkey, then match 1 from round 0, ...
    rules = {"max_turns": 6} if n == 3 else {"beat": 2.5} if n == 8 else {}
    model = {"tempo_fault": 0.02} if n == 3 else {"attention": [1, 1, 0.6, 1, 1, 2, 1, 1]} if n == 8 else {}
    expected = islice(batch.match_traces(seats_for(lineup(n), n), rounds, seed, rules, model), rounds)
    assert lines == [to_line(r) for r in expected]
    for a, b in zip(records, records[1:]):
        assert (b["match"], b["round"]) in ((a["match"], a["round"] + 1), (a["match"] + 1, 0))
        assert b["round"] > 0 or max(a["letters"]) == 4
    code, out, _ = run("check", target)
    assert code == 0 and out == f"{target}: {rounds} rounds follow the rules and the trace format\n"
    for k, rec in enumerate(records):
        code, out, _ = run("show", target, "--hand", k)
        assert code == 0
        assert out.startswith(f"Ezelen match {rec['match']}, round {rec['round']} (seed {seed}), {n} players")
        assert f"seat {n - 1} {rec['strategies'][-1]}" in out and "dealt" in out and "turn 0 at 0 s" in out
        assert f"turn {len(rec['turns'])} at " in out and "the round ends" in out
        assert ("<- loser" in out) == (rec["loser"] is not None)
        signallers = {e["seat"] for e in rec["signals"]}
        assert out.count("(signal)") == sum(1 for c in rec["copies"] if c["seat"] in signallers)
    last = records[-1]
    code, by_match, _ = run("show", target, "--match", last["match"], "--round", last["round"])
    assert code == 0 and by_match == out


def test_show_tells_every_kind_of_ending(run, tmp_path):
    target = tmp_path / "t.jsonl"
    run("trace", "--game", "ezelen", "-n", "3", "-H", "30", "-s", "5", "--model", "tempo_fault=0.05",
        "--rule", "max_turns=4", "--strategies", "random", "-o", target)
    shown = "\n".join(run("show", target, "-k", k)[1] for k in range(30))
    assert "stalled after 4 turns (max_turns)" in shown
    assert "out of tempo (warned)" in shown and "out of tempo a second time and loses the round (Z6)" in shown
    run("trace", "--game", "ezelen", "-n", "2", "-H", "1", "-s", "5", "-o", target)
    code, out, _ = run("show", target)
    assert code == 0 and "a tie" in out and out.count("(signal)") == 2  # Z5: with 2 players, always a tie
    run("trace", "--game", "ezelen", "-n", "4", "-H", "12", "-s", "7", "--strategies", "greedy,random,sticky,watcher",
        "-o", target)
    assert "is the donkey: the match ends (Z7)" in "\n".join(run("show", target, "-k", k)[1] for k in range(12))
    # Z5: the tie of same-turn signallers, and a late signaller alone at the latest copy time, who loses
    run("trace", "--game", "ezelen", "-n", "3", "-H", "40", "-s", "7", "--strategies", "greedy", "-o", target)
    records = [json.loads(line) for line in target.read_text().splitlines()]
    shown = [run("show", target, "-k", k)[1] for k in range(40)]
    late = [k for k, r in enumerate(records) if r["loser"] in {e["seat"] for e in r["signals"]}]
    ties = [k for k, r in enumerate(records) if r["loss_reason"] == "tie"]
    assert late and ties
    assert all("copied last by signalling late" in shown[k] and "<- loser" in shown[k] for k in late)
    assert all("signalled in the same turn share the latest copy time" in shown[k] for k in ties)


def test_check_reports_every_broken_round_on_its_own_line(run, tmp_path):
    target = tmp_path / "t.jsonl"
    run("trace", "--game", "ezelen", "-n", "4", "-H", "8", "-s", "7", "--strategies", "greedy,random", "-o", target)
    assert run("check", target)[0] == 2  # two strategies for four players: nothing was written
    run("trace", "--game", "ezelen", "-n", "4", "-H", "8", "-s", "7", "--strategies", "greedy,random,memory,sticky",
        "-o", target)
    recs = [json.loads(line) for line in target.read_text().splitlines()]
    recs[1]["copies"][-1]["time"] += 1e-9
    recs[3]["letters"][0] += 1
    recs[4]["turns"].append(recs[4]["turns"][-1])
    recs[5]["deal"].reverse()
    del recs[6]["model"]
    target.write_text("\n".join(json.dumps(r) for r in recs) + "\nnot json\n")
    code, out, err = run("check", target)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert [line.removeprefix(f"simkit: error: {target}:").split(":")[0] for line in lines] == [
        "2", "4", "5", "6", "7", "9"]
    assert all(line.startswith(f"simkit: error: {target}:") for line in lines)
    assert "copies: the rules' replay gives" in lines[0] and "letters" in lines[1]
    assert "the rules end the round after" in lines[2] and "the deal is not the one" in lines[3]
    assert "missing key 'model'" in lines[4] and "not a JSON record" in lines[5]


def test_check_takes_both_games_in_one_file(run, tmp_path):
    ass, ezel, both = tmp_path / "a.jsonl", tmp_path / "e.jsonl", tmp_path / "both.jsonl"
    run("trace", "-n", "4", "-H", "3", "-o", ass)
    run("trace", "--game", "ezelen", "-n", "5", "-H", "4", "-o", ezel)
    both.write_text(ass.read_text() + ezel.read_text())
    code, out, _ = run("check", both)
    assert code == 0 and "3 hands and 4 rounds follow the rules" in out
    code, out, _ = run("show", both, "--hand", "4")
    assert code == 0 and out.startswith("Ezelen match 0, round 1 ")
    code, out, _ = run("show", both, "--hand", "1")
    assert code == 0 and out.startswith("hand 1 (seed 0), 4 players")


def test_the_trace_file_appears_whole_or_not_at_all(tmp_path):
    target = tmp_path / "t.jsonl"
    target.write_text("earlier result\n")

    def failing():
        yield {"game": "ezelen"}
        raise SimkitError("an illegal move in round 1")

    with pytest.raises(SimkitError):
        write_traces(str(target), failing())
    assert target.read_text() == "earlier result\n" and [p.name for p in tmp_path.iterdir()] == ["t.jsonl"]
    assert write_traces(str(target), iter([{"a": 1}, {"b": 2.5}])) == (2, {"b": 2.5})
    assert target.read_text() == '{"a": 1}\n{"b": 2.5}\n'


def test_an_illegal_pass_is_one_line_and_no_file(run, tmp_path):
    plugin = tmp_path / "cheats.py"
    plugin.write_text("from simkit.games.ezelen.strategy import strategy\n\n\n"
                      "@strategy('cheat_ez', 'Passes a value nobody holds.')\n"
                      "def cheat_ez(hand, view, params, memory, rng):\n    return 12\n")
    target = tmp_path / "t.jsonl"
    code, out, err = run("trace", "--game", "ezelen", "-n", "4", "--strategy-file", plugin,
                         "--strategies", "greedy,cheat_ez,greedy,greedy", "-o", target)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "strategy 'cheat_ez' (cheats.py: cheat_ez) at seat 1 made an illegal move in match 0, round 0" in err
    assert list(tmp_path.iterdir()) == [plugin]
    code, out, _ = run("strategies", "--game", "ezelen", "--strategy-file", plugin)
    assert code == 0 and "cheat_ez\n    Passes a value nobody holds." in out


def _rows(out: str, n: int) -> list[str]:
    return [line for line in out.splitlines() if line.split()[:1] in ([str(s)] for s in range(n))]


def test_simulate_rounds(run):
    args = ("simulate", "--game", "ezelen", "-n", "4", "-H", "20000", "-s", "3", "--strategies",
            "greedy,random,sticky,watcher", "--model", "attention=1,1,0.6,1")
    code, out, _ = run(*args)
    assert code == 0
    assert out.startswith("Ezelen - 4 players, 20,000 rounds, seed 3, beat=3.0, max_turns=1000, attention=1,1,0.6,1 "
                          "(± = 95% interval, n = 20,000 rounds)")
    res = batch.play(seats_for(["greedy", "random", "sticky", "watcher"], 4), 20000, 3,
                     model={"attention": [1, 1, 0.6, 1]})
    rows = _rows(out, 4)
    assert len(rows) == 4 and rows[1].split()[1] == "random"
    assert rows[1].split()[2] == f"{100 * (res.loser == 1).mean():.2f}%" and rows[1].split()[3] == "±"
    for reason, code_ in (("last", 0), ("tie", 2), ("stalled", 3)):
        line = next(x for x in out.splitlines() if x.startswith(reason + " "))
        assert line.split()[1] == f"{(res.reason == code_).sum():,}"
    assert f"mean turns per round: {res.turns.mean():.3f} ± " in out
    signalled = res.first_signal[res.first_signal >= 0]
    assert f"mean turn of the first signal: {signalled.mean():.3f} ± " in out
    assert f"(n = {len(signalled):,} rounds with a signal)" in out and "rounds/s" in out

    def table(*extra):
        return [line for line in run(*args, *extra)[1].splitlines() if "rounds/s" not in line]
    assert table("--threads", "1") == out.splitlines()[:-1] == table("--chunks", "7")


def test_simulate_matches(run):
    args = ("simulate", "--game", "ezelen", "-n", "3", "-H", "400", "-s", "5", "--strategies", "greedy,random,memory",
            "--matches")
    code, out, _ = run(*args)
    assert code == 0 and out.startswith("Ezelen - 3 players, 400 matches, seed 5")
    res = batch.matches(seats_for(["greedy", "random", "memory"], 3), 400, 5)
    rows = _rows(out, 3)
    assert [r.split()[1] for r in rows] == ["greedy", "random", "memory"]
    assert rows[1].split()[2] == f"{100 * (res.donkey == 1).mean():.2f}%"
    assert rows[2].split()[5] == f"{res.letters[:, 2].mean():.3f}"
    assert f"mean rounds per match: {res.rounds.mean():.3f} ± " in out
    assert f"all {res.rounds.sum():,} rounds of the matches by outcome" in out and "matches/s" in out
    assert [line for line in run(*args, "--chunks", "3")[1].splitlines() if "/s" not in line] == out.splitlines()[:-1]
    assert np.all(res.donkey >= 0)


def test_bench_measures_ezelen(run):
    code, out, _ = run("bench", "--game", "ezelen", "--hands", "2000", "--reference-hands", "3",
                       "--players", "4,8")
    assert code == 0
    assert out.startswith("Ezelen engine ready in") and "hands/s" not in out
    assert "median of 3 runs of 2,000 rounds, reference engine 3 rounds" in out
    for word in ("turns/round", "1 thread", "µs 1 thread", "threads", "speed-up", "fast/reference", "all greedy"):
        assert word in out
    rows = _rows(out, 9)
    assert [r.split()[0] for r in rows] == ["4", "8"]
    code, out, _ = run("bench", "--game", "whos-the-ass", "--hands", "2000", "--reference-hands", "2", "--players", "4",
                       "--strategy-hands", "0", "--runner-hands", "0")
    assert code == 0 and "hands/s" in out and "Ezelen" not in out


def test_strategies_lists_the_ezelen_builtins(run):
    code, out, _ = run("strategies", "--game", "ezelen")
    assert code == 0
    assert all(f"\n{name}" in "\n" + out for name in ("greedy", "random", "sticky", "watcher", "dreamer"))
    assert "memory(weight=" in out and "model: attention=1.5, reaction_median=0.5" in out


EZ = ("--game", "ezelen")


@pytest.mark.parametrize("args, message", [
    (["simulate", *EZ, "-n", "1"], "Ezelen needs 2 to 13 players, got 1"),
    (["simulate", *EZ, "-n", "14"], "Ezelen needs 2 to 13 players, got 14"),
    (["trace", *EZ, "-n", "14", "-o", "t.jsonl"], "Ezelen needs 2 to 13 players"),
    (["bench", *EZ, "--players", "4,1"], "Ezelen needs 2 to 13 players, got 1"),
    (["bench", "--players", "4,1"], "Who's the Ass? needs 3 to 12 players, got 1"),
    (["bench", *EZ, "--players", "four"], "--players must be a comma-separated list"),
    (["simulate", *EZ, "-n", "4", "--strategies", "lowest"], "unknown strategy 'lowest' for ezelen"),
    (["simulate", "-n", "4", "--strategies", "greedy,sticky,sticky,sticky"], "unknown strategy 'sticky' for whos"),
    (["simulate", *EZ, "-n", "4", "--strategies", "greedy,random"], "2 strategies given for 4 players"),
    (["simulate", *EZ, "-n", "4", "--strategies", "memory(x=1)"], "has no parameter 'x'"),
    (["simulate", *EZ, "-n", "4", "--strategies", "memory(weight=99)"], "outside 0..10"),
    (["simulate", *EZ, "-n", "4", "--rule", "jokers=1"], "unknown rule option 'jokers' for ezelen"),
    (["simulate", *EZ, "-n", "4", "--rule", "ass_joker=any"], "unknown rule option 'ass_joker' for ezelen"),
    (["simulate", *EZ, "-n", "4", "--rule", "beat=0"], "rule option beat must be a positive number"),
    (["simulate", *EZ, "-n", "4", "--rule", "beat=fast"], "rule option beat must be a positive number"),
    (["simulate", *EZ, "-n", "4", "--rule", "max_turns=1.5"], "rule option max_turns must be a whole number"),
    (["simulate", *EZ, "-n", "4", "--rule", "max_turns=-1"], "rule option max_turns must be a whole number"),
    (["simulate", *EZ, "-n", "4", "--rule", "beat"], "--rule needs name=value"),
    (["simulate", *EZ, "-n", "4", "--ass-joker", "1"], "--ass-joker is a rule option of Who's the Ass?; Ezelen has"),
    (["simulate", "-n", "4", "--rule", "beat=3"], "unknown rule option 'beat'"),
    (["simulate", "-n", "4", "--model", "attention=1"], "--model sets a game's model of the players; Who's the Ass"),
    (["trace", "-n", "4", "--model", "attention=1", "-o", "t.jsonl"], "--model sets a game's model"),
    (["simulate", "-n", "4", "--matches"], "--matches plays whole matches in simulate; Who's the Ass? has none"),
    (["simulate", *EZ, "-n", "4", "--model", "focus=1"], "--model: unknown model parameter 'focus'"),
    (["simulate", *EZ, "-n", "4", "--model", "attention=1,1"], "attention has 2 values for 4 players"),
    (["simulate", *EZ, "-n", "4", "--model", "attention=1,1,x,1"], "--model attention needs a number"),
    (["simulate", *EZ, "-n", "4", "--model", "attention=-1"], "attention=-1 is outside 0..100"),
    (["simulate", *EZ, "-n", "4", "--model", "tempo_fault=2"], "tempo_fault=2 is outside 0..1"),
    (["simulate", *EZ, "-n", "4", "--model", "reaction_sigma=nan"], "outside"),
    (["simulate", *EZ, "-n", "4", "--model", "attention"], "--model needs name=value"),
    (["simulate", *EZ, "-n", "4", "-H", "0"], "--hands must be positive"),
    (["simulate", *EZ, "-n", "4", "--matches", "-H", "-3"], "--hands must be positive"),
    (["simulate", *EZ, "-n", "4", "--seed", "x"], "seed must be an integer"),
    (["simulate", *EZ, "-n", "4", "--threads", "0"], "--threads"),
    (["trace", *EZ, "-n", "4", "-H", "0", "-o", "t.jsonl"], "--hands must be positive"),
    (["strategies", "--game", "ezel"], "unknown game 'ezel'"),
    (["bench", "--game", "chess"], "unknown game 'chess'"),
    (["bench", *EZ, "--hands", "0"], "--hands must be positive"),
    (["bench", *EZ, "--reference-hands", "-1"], "--reference-hands must be at least 0"),
    (["strength", *EZ, "-n", "14"], "Ezelen needs 2 to 13 players"),
    (["show", "/nonexistent.jsonl", "--match", "0"], "no trace file"),
    (["show", "x.jsonl", "--round", "2"], "--round needs --match"),
])
def test_bad_input_is_one_line_and_exit_2(run, tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("simkit: error: ")
    assert message in err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_show_says_what_is_missing(run, tmp_path):
    target = tmp_path / "t.jsonl"
    run("trace", "--game", "ezelen", "-n", "4", "-H", "3", "-o", target)
    for args, message in ((["--hand", "3"], "round 3 is not in"), (["--match", "1"], "match 1, round 0 is not in"),
                          (["--match", "0", "--round", "0", "--hand", "1"], "round 1 with match 0, round 0 is not in")):
        code, out, err = run("show", target, *args)
        assert code == 2 and out == "" and message in err and err.count("\n") == 1
    target.write_text('{"game": "ezelen", "match": 0}\n')
    code, _, err = run("show", target)
    assert code == 2 and "is not a valid trace file" in err


def test_run_summarises_an_ezelen_experiment(run, tmp_path):
    spec = tmp_path / "ez.toml"
    spec.write_text('name = "ez-cli"\ngame = "ezelen"\nplayers = 3\nhands = 40\nseed = 1\nseating = "rotate"\n'
                    'lineup = ["greedy", "random", "memory"]\nbaseline = "random"\n')
    code, out, _ = run("run", spec, "--out", tmp_path / "run")
    assert code == 0 and out.startswith("ez-cli: 120 rounds played, statistics in ")  # 40 rounds x 3 rotations
    assert "share of rounds lost" in out and "memory" in out and "report: " in out
