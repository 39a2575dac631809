"""The `simkit` command as a user meets it: outputs, and one clear line with exit code 2 for
every kind of bad input, leaving no partial file behind."""

import json
import subprocess
import sys

import pytest

from simkit.games.whos_the_ass.versus_c import compiler


@pytest.mark.parametrize("args, message", [
    (["simulate", "-n", "2"], "3 to 12 players"),
    (["simulate", "-n", "13"], "3 to 12 players"),
    (["simulate", "-n", "4", "--strategies", "nosuch"], "unknown strategy 'nosuch'"),
    (["simulate", "-n", "4", "--strategies", "lowest,random"], "2 strategies given for 4 players"),
    (["simulate", "-n", "4", "--strategies", "lowest(x=1)"], "has no parameter 'x'"),
    (["simulate", "-n", "4", "-H", "0"], "--hands must be positive"),
    (["simulate", "-n", "4", "-H", "-5"], "--hands must be positive"),
    (["simulate", "-n", "4", "--seed", "-1"], "seed must be an integer"),
    (["simulate", "-n", "4", "--seed", "1.5"], "seed must be an integer"),
    (["strength", "-n", "4", "-H", "3"], "at least the number of players"),
    (["bench", "--strategy-hands", "-1"], "--strategy-hands must be at least 0"),
    (["simulate", "-n", "4", "--seed", str(2**64)], "seed must be an integer"),
    (["simulate", "-n", "4", "--ass-joker", "7"], "ass_joker"),
    (["simulate", "-n", "4", "--rule", "jokers=wild"], "unknown rule option 'jokers'"),
    (["simulate", "-n", "4", "--rule", "nonsense"], "--rule"),
    (["simulate", "-n", "4", "--game", "chess"], "unknown game 'chess'"),
    (["simulate", "-n", "four"], "not a valid integer"),
    (["simulate", "-n", "4", "--threads", "0"], "--threads"),
    (["simulate"], "Missing option"),
    (["frobnicate"], "No such command"),
    (["show", "/nonexistent.jsonl"], "no trace file"),
    (["check", "/nonexistent.jsonl"], "no trace file"),
])
def test_bad_input_is_one_line_and_exit_2(run, args, message):
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("simkit: error: ")
    assert message in err


@pytest.mark.parametrize("args, message", [
    (["simulate", "-n", "4", "--strategies", "gredy"], "unknown strategy 'gredy' for whos-the-ass; did you mean "
                                                       "'greedy'? (known: "),
    (["simulate", "-n", "4", "--strategies", "memroy"], "did you mean 'memory' (an Ezelen strategy: add --game "
                                                        "ezelen)?"),
    (["simulate", "--game", "ezelen", "-n", "4", "--strategies", "lowest"], "unknown strategy 'lowest' for ezelen; "
                                                                            "it is a Who's the Ass? strategy: add "
                                                                            "--game whos-the-ass (known: "),
    (["simulate", "-n", "4", "--strategies", "hoard(relase_at=3)"], "has no parameter 'relase_at'; did you mean "
                                                                    "'release_at'? (parameters: release_at)"),
    (["simulate", "-n", "4", "--game", "ezlen"], "unknown game 'ezlen'; did you mean 'ezelen'?"),
    (["simulate", "-n", "4", "--rule", "ass_jocker=any"], "unknown rule option 'ass_jocker' for whos-the-ass; did "
                                                          "you mean 'ass_joker'?"),
    (["simulate", "--game", "ezelen", "-n", "4", "--model", "atention=1"], "did you mean 'attention'?"),
    (["simulate", "-n", "4", "--strategies", "zzzz"], "unknown strategy 'zzzz' for whos-the-ass (known: "),
])
def test_a_name_nobody_has_suggests_the_nearest_known_one(run, args, message):
    code, out, err = run(*args, "-H", "10")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert message in err, err


def test_trace_to_an_unwritable_place_leaves_nothing(run, tmp_path):
    code, _, err = run("trace", "-n", "4", "-o", tmp_path / "missing" / "t.jsonl")
    assert code == 2 and "does not exist" in err
    code, _, err = run("trace", "-n", "4", "-o", tmp_path)
    assert code == 2 and "directory" in err
    code, _, err = run("trace", "-n", "4", "-o", "/proc/simkit-test.jsonl")  # unwritable even for root
    assert code == 2 and "cannot write /proc/simkit-test.jsonl" in err


def test_a_failed_trace_keeps_the_earlier_file(run, tmp_path):
    target = tmp_path / "t.jsonl"
    target.write_text("earlier result\n")
    code, _, _ = run("trace", "-n", "4", "--strategies", "nosuch", "-o", target)
    assert code == 2
    assert target.read_text() == "earlier result\n"
    assert [p.name for p in tmp_path.iterdir()] == ["t.jsonl"]


def test_trace_show_check_round_trip(run, tmp_path):
    target = tmp_path / "t.jsonl"
    code, out, _ = run("trace", "-n", "5", "-H", "4", "-s", "9", "--strategies", "random,lowest,lowest,random,lowest",
                       "--ass-joker", "1", "-o", target)
    assert code == 0 and "wrote 4 hands" in out
    lines = target.read_text().splitlines()
    assert [json.loads(x)["hand"] for x in lines] == [0, 1, 2, 3]
    assert json.loads(lines[0])["rules"] == {"ass_joker": "1"}
    code, out, _ = run("show", target, "--hand", "2")
    assert code == 0 and out.startswith("hand 2 (seed 9), 5 players")
    assert "trick 0, led by seat" in out and "trick 1, led by seat" in out and "penalty" in out and " A" in out
    code, out, _ = run("check", target)
    assert code == 0 and "4 hands follow the rules" in out
    code, _, err = run("show", target, "--hand", "99")
    assert code == 2 and "hand 99 is not in" in err


def test_check_reports_a_broken_file(run, tmp_path):
    target = tmp_path / "t.jsonl"
    run("trace", "-n", "4", "-H", "2", "-o", target)
    rec = json.loads(target.read_text().splitlines()[1])
    rec["penalties"][0] += 1
    target.write_text(json.dumps(rec) + "\n")
    code, _, err = run("check", target)
    assert code == 2 and f"{target}:1: penalties differ" in err


def test_simulate_prints_the_table(run):
    code, out, _ = run("simulate", "-n", "4", "-H", "20000", "-s", "3", "--strategies", "random,lowest,lowest,lowest")
    assert code == 0
    assert "4 players, 20,000 hands, seed 3" in out
    for word in ("mean penalty", "out %", "ass at end %", "mean tricks per hand", "hands/s", "random", "lowest"):
        assert word in out
    rows = [line for line in out.splitlines() if line.split()[:1] in (["0"], ["1"], ["2"], ["3"])]
    assert len(rows) == 4 and "±" in rows[0]


def test_simulate_is_reproducible_and_threads_do_not_matter(run):
    def table(*extra):
        code, out, _ = run("simulate", "-n", "3", "-H", "5000", "-s", "8", "--strategies", "random", *extra)
        assert code == 0
        return [line for line in out.splitlines() if "hands/s" not in line]
    assert table("--threads", "1") == table() == table("--chunks", "7")


def test_strategies_lists_the_builtins(run):
    code, out, _ = run("strategies")
    assert code == 0 and "lowest" in out and "random" in out


def test_bench_reports_both_engines(run):
    code, out, _ = run("bench", "--hands", "2000", "--reference-hands", "5", "--players", "4",
                       "--strategy-hands", "2000", "--runner-hands", "12000")
    assert code == 0
    assert "engine ready in" in out and "fast/reference" in out and "1 thread" in out
    assert "% tricks/s" in out and "hoard" in out and "compose" in out
    assert "quick, 12,000 hands (3,000 deals x 4 replays, 1 chunk)" in out and "runner overhead" in out
    assert "paired calls" in out and "runner's own" in out  # the two parts of the overhead, each measured
    assert out.index("Ezelen rounds/s") < out.index("runner overhead")  # both games by default, then the runner


def test_bench_measures_the_runner_alone_for_any_game(run):
    code, out, _ = run("bench", "--runner-only", "--runner-spec", "experiments/ezelen-attention.toml",
                       "--runner-hands", "6000")
    assert code == 0 and "fast/reference" not in out and "Ezelen rounds/s" not in out
    assert "ezelen-attention, 6,000 rounds (100 deals x 60 replays, 1 chunk)" in out and "runner overhead" in out


def test_the_console_script_is_installed():
    out = subprocess.run([sys.executable, "-m", "simkit.cli", "simulate", "-n", "1"], capture_output=True, text=True)
    assert out.returncode == 2 and out.stderr.strip() == "simkit: error: Who's the Ass? needs 3 to 12 players, got 1"


# A stand-in for the C engine with its output format: the comparison's build, runs and parsing,
# without the C reference (which a clone of this repository does not hold).
_FAKE_C = r"""
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    if (argc < 5) return 2;
    printf("players %s hands %s seconds 0.500 hands/s 2000000\n", argv[2], argv[3]);
    printf("mean penalty per seat: 1.0\nmean tricks per hand: %d.5000\n", atoi(argv[2]) + 10);
    return 0;
}
"""


@pytest.mark.skipif(compiler() is None, reason="no C compiler")
def test_bench_vs_c_builds_the_c_file_and_prints_the_ratio(run, tmp_path):
    source = tmp_path / "engine.c"
    source.write_text(_FAKE_C)
    code, out, _ = run("bench", "--vs-c", source, "--hands", "3000", "--players", "3,4")
    assert code == 0, out
    assert f"built {source} with -O3 -march=native" in out
    rows = {int(line.split()[0]): line.split() for line in out.splitlines() if line[:1].isdigit()}
    assert sorted(rows) == [3, 4]
    for n, (_, ours, theirs, ratio, our_tricks, their_tricks) in rows.items():
        assert theirs == "2000000" and float(their_tricks) == n + 10.5  # parsed from the C engine's lines
        assert abs(float(ratio) - int(ours) / 2e6) < 0.006
        assert 10 < float(our_tricks) < 15


@pytest.mark.parametrize("content, message", [
    (None, "--vs-c: no C file at "),
    ("int main( {", "could not build"),
])
def test_bench_vs_c_refuses_what_it_cannot_build_in_one_line(run, tmp_path, content, message):
    source = tmp_path / "engine.c"
    if content is not None:
        if compiler() is None:
            pytest.skip("no C compiler")
        source.write_text(content)
    code, out, err = run("bench", "--vs-c", source, "--hands", "1000")
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1 and out == ""
