"""Kill and resume (issue 47): `tune`, `field` and `grade SPEC` stopped by Ctrl-C (SIGINT) or
killed (SIGKILL) at a random moment of a real process, then finished with `--resume` as the
interrupted command printed it (after SIGKILL, the same command with --resume), give what an
uninterrupted run gives; and each, stopped while it writes its report, writes it on resume.
SIMKIT_KILL_SEED draws other moments (by default every run tries the same)."""

import json
import os
import random
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import TINY_FIELD, TINY_TUNING

pytestmark = pytest.mark.long  # left out of the development subset (pyproject.toml)

SEED = int(os.environ.get("SIMKIT_KILL_SEED", "47"))

SPECS = {  # a few seconds each: long enough to be stopped in the middle
    "tune": TINY_TUNING.replace("budget = 200000", "budget = 300000").replace("deals = 300", "deals = 2000"),
    "field": TINY_FIELD.replace("hands = 96", "hands = 4000"),
    "grade": """
name = "k"
players = 4
hands = 150
seed = 15
graded = ["greedy", "highest"]
field = "lowest"
samples = 8
""",
}
RECORD = {"tune": "tune.json", "field": "field.json", "grade": ".partial/spec.json"}


@pytest.fixture(autouse=True)
def _ctrl_c_reaches_python():
    """The commands started here get Python's own Ctrl-C handler, whatever this worker was given
    (an ignored SIGINT is inherited, and a process that ignores it would not stop)."""
    before = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before if before is not None else signal.default_int_handler)


def _simkit(words: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simkit.cli", *words], cwd=cwd, capture_output=True, text=True,
                          timeout=300)


def _results(command: str, folder: Path) -> tuple:
    """What a finished folder holds, less the times it took and where it ran."""
    assert (folder / "report.html").is_file()
    if command == "grade":
        meta = json.loads((folder / "grading.json").read_text())
        meta.pop("duration_s")
        traces = tuple((folder / f"traces-{k}.jsonl").read_bytes() for k in (1, 2))
        return meta, pd.read_parquet(folder / "moves.parquet"), pd.read_parquet(folder / "hands.parquet"), traces
    meta = json.loads((folder / RECORD[command]).read_text())
    for key in ("race_s", "play_s", "executor"):
        meta.pop(key, None)
    if command == "tune":
        return meta, pd.read_parquet(folder / "race.parquet")
    with np.load(folder / "bootstrap.npz") as z:
        boot = {k: z[k].tolist() for k in z.files}
    return meta, pd.read_parquet(folder / "payoffs.parquet"), boot, json.loads((folder / "analysis.json").read_text())


def _same(a: tuple, b: tuple) -> None:
    for x, y in zip(a, b, strict=True):
        if isinstance(x, pd.DataFrame):
            pd.testing.assert_frame_equal(x, y)
        else:
            assert x == y


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    """Each command's uninterrupted run, once for both signals: (its results, seconds it took)."""
    found = {}

    def whole(command: str) -> tuple:
        if command not in found:
            folder = tmp_path_factory.mktemp(command)
            (folder / "k.toml").write_text(SPECS[command])
            start = time.perf_counter()
            done = _simkit([command, "k.toml", "--out", "whole"], folder)
            assert done.returncode == 0, done.stderr
            found[command] = _results(command, folder / "whole"), time.perf_counter() - start
        return found[command]
    return whole


@pytest.mark.parametrize("command", ["tune", "field", "grade"])
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["SIGINT", "SIGKILL"])
def test_stopped_at_a_random_moment_and_resumed_as_printed(tmp_path, command, sig, uninterrupted):
    (tmp_path / "k.toml").write_text(SPECS[command])
    whole, took = uninterrupted(command)
    words = [command, "k.toml", "--out", "cut"]
    child = subprocess.Popen([sys.executable, "-m", "simkit.cli", *words], cwd=tmp_path, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    record = tmp_path / "cut" / RECORD[command]
    start = time.perf_counter()
    while child.poll() is None and not record.exists():  # its work begun: something is kept from here on
        time.sleep(0.02)
    work = max(took - (time.perf_counter() - start), 0.1)  # about how long its work goes on, report included
    moment = random.Random(f"{SEED}-{command}-{sig}").uniform(0, work)
    time.sleep(moment)
    child.send_signal(sig)
    out, err = child.communicate(timeout=120)
    again = [sys.executable, "-m", "simkit.cli", *words, "--resume"]
    if sig == signal.SIGINT and "report: " not in out:  # not ended first (nor as it exited: then nothing is said)
        assert child.returncode == 130, err
        said = err.strip().splitlines()[-1]
        assert said.startswith("simkit: interrupted"), err
        again = shlex.split(said.split(" with: ", 1)[1])  # as printed: python -m simkit.cli, as it was called
        assert again[:3] == [sys.executable, "-m", "simkit.cli"]
    resumed = subprocess.run(again, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, (moment, again, resumed.stderr)
    _same(_results(command, tmp_path / "cut"), whole)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cut", "k.toml"]  # nothing left beside it


@pytest.mark.parametrize("command", ["tune", "field", "grade"])
def test_stopped_while_writing_its_report_it_writes_it_on_resume(tmp_path, command, run, monkeypatch):
    """Ctrl-C in the last moment, once all is played, while the report is written: --resume
    plays nothing and writes the report."""
    import simkit.analyses.field.report as field_report
    import simkit.analyses.grading.report as grading_report
    import simkit.analyses.tune.report as tune_report

    module, name = {"tune": (tune_report, "make_tuning_report"), "field": (field_report, "make_field_report"),
                    "grade": (grading_report, "make_grading_report")}[command]
    spec = tmp_path / "k.toml"
    spec.write_text({"tune": TINY_TUNING, "field": TINY_FIELD}.get(command, SPECS[command].replace("hands = 150",
                                                                                                "hands = 6")))
    code, _, err = run(command, spec, "--out", tmp_path / "whole")
    assert code == 0, err
    real = getattr(module, name)

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt  # everything played and kept; the report not yet written

    monkeypatch.setattr(module, name, stopped)
    code, _, err = run(command, spec, "--out", tmp_path / "cut")
    assert code == 130 and err.strip().endswith("--resume"), err
    assert not (tmp_path / "cut" / "report.html").exists()
    monkeypatch.setattr(module, name, real)
    code, _, err = run(command, spec, "--out", tmp_path / "cut", "--resume")
    assert code == 0, err
    _same(_results(command, tmp_path / "cut"), _results(command, tmp_path / "whole"))
