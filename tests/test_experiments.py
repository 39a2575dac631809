"""The built-in experiments, the Python API, and the report's sections for sweeps, tournaments and
matches."""

import tomllib

import pytest
from conftest import built_in_experiments, chunks_of

from simkit import experiments
from simkit.analyses.reports import make_report
from simkit.experiments import runner
from simkit.experiments.report import figures_for, summary
from simkit.experiments.report.tables import rows_played
from simkit.experiments.spec import load_spec, parse_spec_dict, spec_toml

BUILT_IN = built_in_experiments()


def test_there_are_the_five_built_in_experiments():
    assert {p.stem for p in BUILT_IN} >= {"quick", "joker-timing", "ass-handling", "tournament", "player-count"}


@pytest.mark.parametrize("path", BUILT_IN, ids=lambda p: p.stem)
def test_each_built_in_experiment_runs_and_reports(path, tmp_path, monkeypatch):
    chunks_of(monkeypatch, 40)
    monkeypatch.setattr(runner, "CHUNK_MATCHES", 15)
    spec = load_spec(str(path))
    assert parse_spec_dict(tomllib.loads(spec_toml(spec))) == spec  # a spec survives being written out
    table = experiments.run(path, tmp_path / "o", hands=40, rows=True).rows
    rotations = sum(c.rotations(spec.seating) for c in spec.cells())
    ids = [c for c in ("hand", "match", "round", "game") if c in table.columns]
    assert table.groupby(["cell", "rotation", ids[0]]).ngroups == 40 * rotations  # every deal of every cell
    per_deal = table.groupby(["cell", "rotation"] + ids)
    assert (per_deal.size() == per_deal.players.first()).all()  # one row per seat of every deal
    page = (tmp_path / "o" / "report.html").read_text()
    pngs = sorted(p.name for p in (tmp_path / "o").glob("*.png"))
    assert page.count("data:image/png;base64,") == len(pngs) >= 3
    if any(c.sweep for c in spec.cells()):
        assert "sweep.png" in pngs and "Parameter sweep" in page
    if spec.swept_rules:
        assert "variants.png" in pngs and "Rule variants against the reference rules" in page
    if spec.pool:
        assert "head-to-head.png" in pngs and "Head to head" in page
    assert (tmp_path / "o" / "spec.toml").read_text() == path.read_text()


def test_run_from_a_dict_in_memory_leaves_nothing_behind(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    done = experiments.run({"name": "nb", "players": 3, "hands": 200, "lineup": ["greedy", "lowest", "lowest"]})
    assert isinstance(done, experiments.Results) and done.rows is None and done.folder is None
    assert rows_played(done.stats) == 200 * 3 * 3
    assert list(tmp_path.iterdir()) == []
    tables = summary(done)
    assert "Mean penalty per strategy" in tables and "Seat position effect" in tables
    figs = figures_for(done)
    assert {"comparison.png", "distribution.png", "hand-length.png"} <= set(figs)
    assert all(hasattr(f, "savefig") for f in figs.values())


def test_run_from_a_dict_into_a_folder_writes_the_spec_as_toml(tmp_path):
    spec = {"name": "d", "players": 4, "hands": 100, "lineup": ["spend"], "sweep": {"spend.x": [1]}}
    with pytest.raises(Exception, match="no parameter 'x'"):
        experiments.run(spec, tmp_path / "bad")
    assert not (tmp_path / "bad").exists()
    spec = {"name": "d", "players": 4, "hands": 100, "lineup": ["hoard", "lowest", "lowest", "lowest"],
            "sweep": {"hoard.release_at": [1, 5]}}
    experiments.run(spec, tmp_path / "d")
    assert load_spec(str(tmp_path / "d" / "spec.toml")) == parse_spec_dict(spec)
    curves = summary(runner.read_stats(str(tmp_path / "d")))["Parameter sweep"]
    hoard = curves[curves.strategy == "hoard"]
    assert list(hoard.value) == [1.0, 5.0] and (hoard.n == 100).all()  # deals
    assert (hoard.measure == "difference to lowest").all()
    short = (tmp_path / "d" / "report.md").read_text().split("## In short", 1)[1].split("##", 1)[0]
    assert "hoard's best point is release_at = " in short and "lowest (paired on the same deals)" in short


def test_matches_report_win_rates_with_wilson_intervals(tmp_path):
    spec = {"name": "m", "players": 4, "hands": 300, "seed": 3, "lineup": ["greedy", "lowest", "lowest", "lowest"],
            "match": {"mode": "threshold", "threshold": 100}}
    done = experiments.run(spec, tmp_path / "m")
    wins = summary(done)["Match wins"].set_index("strategy")
    assert (wins["n"] == 300).all()  # matches
    # every match's win is shared out once: greedy's seat and lowest's three seats
    assert wins.loc["greedy", "win"] + 3 * wins.loc["lowest", "win"] == pytest.approx(1)
    assert (wins["low"] < wins["win"]).all() and (wins["win"] < wins["high"]).all()
    assert wins.loc["greedy", "win"] > wins.loc["lowest", "win"]
    assert (tmp_path / "m" / "match-wins.png").exists()
    assert "Match wins" in make_report(str(tmp_path / "m")).read_text()
