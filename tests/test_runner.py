"""The runner: statistics by default, tidy rows on request, rotation of seats over the same deals,
resume, determinism."""

import json

import pandas as pd
import pytest
from conftest import chunks_of

from simkit.core.errors import SimkitError
from simkit.experiments import runner
from simkit.experiments.spec import parse_spec_dict

SPEC = {"name": "t", "players": 4, "hands": 2500, "seed": 9, "lineup": ["greedy", "lowest", "lowest", "lowest"]}


@pytest.fixture(autouse=True)
def small_chunks(monkeypatch):
    chunks_of(monkeypatch, 1000)


def test_results_are_tidy_and_rotated(tmp_path):
    done = runner.run_spec(parse_spec_dict(SPEC), str(tmp_path / "run"), keep_rows=True)
    table = done.rows
    assert len(table) == 2500 * 4 * 4  # hands x seats x rotations
    assert (table["hand"].diff().fillna(0) >= 0).all()  # deal by deal: every replay of a hand together
    assert set(table.columns) >= {"experiment", "cell", "players", "rotation", "hand", "seat", "strategy",
                                  "penalty", "ass_end", "tricks", "ass_joker"}
    greedy = table[table.strategy == "greedy"]
    assert sorted(greedy.seat.unique()) == [0, 1, 2, 3] and len(greedy) == 2500 * 4
    assert (table.groupby(["rotation", "hand"]).ass_end.sum() == 1).all()  # one ass holder per hand
    for r in range(4):  # rotation r moves the lineup r seats on: greedy sits in seat r
        assert set(table[(table.rotation == r) & (table.strategy == "greedy")].seat) == {r}
    assert (tmp_path / "run" / "results.parquet").exists()
    meta = json.loads((tmp_path / "run" / "meta.json").read_text())
    assert 0 < meta["writer_cpu_s"] < 60 and meta["rows"]  # the writing's own CPU time, measured


def test_a_strategy_in_several_seats_is_one_dictionary_entry(tmp_path):
    """A label repeated in the strategy dictionary made Parquet write every row's label as text."""
    import pyarrow.parquet as pq

    runner.run_spec(parse_spec_dict({**SPEC, "hands": 300}), str(tmp_path / "run"), keep_rows=True)
    file = pq.ParquetFile(tmp_path / "run" / "results.parquet")
    strategy = file.schema_arrow.names.index("strategy")
    assert file.read(columns=["strategy"]).column(0).chunk(0).dictionary.to_pylist() == ["greedy", "lowest"]
    assert "RLE_DICTIONARY" in file.metadata.row_group(0).column(strategy).encodings


def test_resume_after_an_interruption_gives_the_identical_results(tmp_path, monkeypatch):
    whole = runner.run_spec(parse_spec_dict(SPEC), str(tmp_path / "a"), keep_rows=True)
    stop = []

    def interrupt(n):
        stop.append(n)
        if len(stop) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        runner.run_spec(parse_spec_dict(SPEC), str(tmp_path / "b"), keep_rows=True, progress=interrupt)
    kept, chunks = runner.kept_chunks(parse_spec_dict(SPEC), str(tmp_path / "b"))
    assert kept == 2 and chunks == len(runner.plan(parse_spec_dict(SPEC)))  # what Ctrl-C says is kept
    told, played = [], []
    resumed = runner.run_spec(parse_spec_dict(SPEC), str(tmp_path / "b"), resume=True, keep_rows=True,
                              progress=played.append, resumed=lambda *done: told.append(done))
    pd.testing.assert_frame_equal(whole.rows, resumed.rows)
    assert whole.stats == resumed.stats
    per_deal = runner.replays(parse_spec_dict(SPEC))
    assert told == [(2, chunks, sum(stop))] and sum(played) == SPEC["hands"] * per_deal - sum(stop)


def test_chunking_does_not_change_results(tmp_path, monkeypatch):
    a = runner.run_spec(parse_spec_dict(SPEC), str(tmp_path / "a"), keep_rows=True)
    chunks_of(monkeypatch, 777)
    b = runner.run_spec(parse_spec_dict(SPEC), str(tmp_path / "b"), keep_rows=True)
    pd.testing.assert_frame_equal(a.rows, b.rows)
    assert a.stats == b.stats


def test_a_complete_run_resumes_to_itself_without_playing(tmp_path):
    runner.run_spec(parse_spec_dict(SPEC), str(tmp_path / "a"))
    played = []
    again = runner.run_spec(parse_spec_dict(SPEC), str(tmp_path / "a"), resume=True, progress=played.append)
    assert played == [] and again.stats == runner.read_stats(str(tmp_path / "a"))


def test_a_used_folder_needs_resume(tmp_path):
    runner.run_spec(parse_spec_dict(SPEC), str(tmp_path / "a"))
    with pytest.raises(SimkitError, match="already holds a run"):
        runner.run_spec(parse_spec_dict(SPEC), str(tmp_path / "a"))


def test_matches(tmp_path):
    spec = parse_spec_dict({**SPEC, "hands": 50, "match": {"mode": "threshold", "threshold": 100},
                            "seating": "none"})
    table = runner.run_spec(spec, str(tmp_path / "m"), keep_rows=True).rows
    assert len(table) == 50 * 4
    assert (table.groupby("match").win.sum().round(9) == 1).all()
    assert (table.groupby("match").total.max() >= 100).all()


def test_the_run_command(run, tmp_path):
    spec = tmp_path / "s.toml"
    spec.write_text('name = "s"\nplayers = 3\nhands = 300\nlineup = ["spend", "lowest", "lowest"]\n')
    code, out, err = run("run", spec, "--out", tmp_path / "o")
    assert code == 0, err
    assert "900 hands played" in out and "spend" in out and "±" in out  # 300 hands x 3 rotations
    assert sorted(p.name for p in (tmp_path / "o").iterdir()) == [
        "comparison.png", "difference.png", "distribution.png", "hand-length.png", "meta.json", "report.html",
        "report.md", "run.json", "spec.toml", "stats.parquet"]
    *_, said, took = out.rstrip().splitlines()
    assert said.endswith("paired on the same deals).")  # the answer, then the time the run took
    assert took.startswith("(900 hands in ") and took.endswith(" s)")
    assert "s: 300 deals per table, each in every seating, at 1 table: 900 hands to play" in err  # before it starts
    code, out, err = run("run", spec, "--out", tmp_path / "r", "--rows")
    assert code == 0 and "rows in" in out and (tmp_path / "r" / "results.parquet").is_file()
    code, _, err = run("run", spec, "--out", tmp_path / "o")  # the same run again: read back, not played
    assert code == 0 and "already holds this run, finished" in err, err
    code, _, err = run("run", spec, "--out", tmp_path / "o", "-H", "301")  # another: refused
    assert code == 2 and "already holds a run" in err
    code, _, err = run("run", spec, "--out", tmp_path / "o", "--resume")
    assert code == 0, err
    spec.write_text('name = "s"\nplayers = 3\nhands = 300\nlineup = ["spend"]\nhandz = 1\n')
    code, _, err = run("run", spec, "--out", tmp_path / "p")
    assert code == 2 and "s.toml: unknown key 'handz'" in err and err.count("\n") == 1
    assert not (tmp_path / "p").exists()


def test_resume_refuses_the_chunks_of_another_run(tmp_path):
    """A chunk file is named by cell, rotation and hands only: resuming with another spec, other
    hands or another chunk size would mix two runs, so it is refused."""
    runner.run_spec(parse_spec_dict(SPEC), str(tmp_path / "a"))
    for changed, what in [({**SPEC, "seed": 10}, "spec"), ({**SPEC, "lineup": ["lowest"]}, "spec")]:
        with pytest.raises(SimkitError, match=f"holds chunks of another run \\(its {what} differs\\)"):
            runner.run_spec(parse_spec_dict(changed), str(tmp_path / "a"), resume=True)
    with pytest.raises(SimkitError, match="its --hands differs"):
        runner.run_spec(parse_spec_dict(SPEC), str(tmp_path / "a"), resume=True, hands=2000)
    with pytest.raises(SimkitError, match="its chunk size differs"):
        runner.run_spec(parse_spec_dict(SPEC), str(tmp_path / "a"), resume=True, chunk=999)
    runner.run_spec(parse_spec_dict(SPEC), str(tmp_path / "a"), resume=True)  # the same run resumes
