"""A new user's first hour (issue 48): the quick start run twice, the commands simkit prints
written as the user called it, every compose choice listed, and a grading spec that grades the
user's own strategy."""

import shutil
import sys

import pytest

from simkit.cli import options

EXAMPLE = "strategies/examples/my_strategies.py"


@pytest.mark.parametrize("argv0, on_path, expected", [
    ("simkit", True, "simkit"),
    (".venv/bin/simkit", False, ".venv/bin/simkit"),
    (".venv/bin/simkit", True, "simkit"),  # the same file the PATH finds: its short name
    ("-c", False, "simkit"),
])
def test_a_printed_command_begins_as_the_user_called_simkit(monkeypatch, tmp_path, argv0, on_path, expected):
    script = tmp_path / ".venv" / "bin" / "simkit"
    script.parent.mkdir(parents=True)
    script.write_text("#!/bin/sh\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", [argv0, "run"])
    monkeypatch.setattr(shutil, "which", lambda name: str(script) if on_path else None)
    assert options.invoked() == expected
    assert options.command_line("run", "my spec.toml", "--out", "x") == f"{expected} run 'my spec.toml' --out x"


def test_python_m_simkit_cli_is_printed_as_it_was_called(monkeypatch):
    monkeypatch.setattr(sys, "argv", ["/somewhere/simkit/cli/__main__.py"])
    assert options.invoked().endswith(" -m simkit.cli")


def test_strategies_lists_every_compose_choice(run):
    from simkit.strategies.whos_the_ass.heuristics import CHOICES

    code, out, _ = run("strategies")
    assert code == 0
    compose = out.split("\ncompose\n", 1)[1].split("\n", 1)[0]
    for name in CHOICES:  # as_needed and no_reserve too, which are no strategies of their own
        assert f" {name}" in compose, name
    assert "jokers as_needed, spend, hoard" in compose


def test_running_the_quick_start_again_reads_the_finished_run_back(run, tmp_path):
    out = tmp_path / "quick"
    code, first, err = run("run", "experiments/quick.toml", "--out", out, "-H", "300")
    assert code == 0, err
    stats = (out / "stats.parquet").read_bytes()
    code, again, err = run("run", "experiments/quick.toml", "--out", out, "-H", "300")
    assert code == 0, err
    assert f"{out} already holds this run, finished" in err and "another --out plays it anew" in err
    assert first.splitlines()[-2] == again.splitlines()[-2]  # the same answer
    assert again.splitlines()[-1] == "(1,200 hands read back)"
    assert (out / "stats.parquet").read_bytes() == stats
    code, _, err = run("run", "experiments/quick.toml", "--out", out, "-H", "400")  # another run: still refused
    assert code == 2 and "already holds a run (a finished one); choose another --out" in err


def test_a_grading_spec_grades_the_users_strategy(run, tmp_path):
    spec = tmp_path / "g.toml"
    spec.write_text('name = "mine"\nplayers = 3\nhands = 2\ngraded = ["pairs_first", "greedy"]\nfield = "lowest"\n'
                    "samples = 4\n")
    code, out, err = run("grade", spec, "--out", tmp_path / "g", "--strategy-file", EXAMPLE)
    assert code == 0, err
    assert "pairs_first loses" in out and (tmp_path / "g" / "report.html").is_file()
    code, _, err = run("grade", tmp_path / "g" / "traces-1.jsonl", "--seat", "0", "--strategy-file", EXAMPLE)
    assert code == 2 and "--strategy-file is for a grading spec" in err
