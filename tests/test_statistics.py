"""Same numbers: every built-in experiment, run small once with rows, gives from its statistics
every table of the report — means, shares, paired differences, head to head, sweeps, seat effect,
the Ezelen tables — equal to the same table computed from the rows (experiments/report/rows.py), every
interval included, to 1e-9 relative."""


import numpy as np
import pandas as pd
import pytest
from conftest import built_in_experiments, chunks_of

from simkit import experiments
from simkit.experiments.report import rows as from_rows
from simkit.experiments.report import tables as from_stats
from simkit.experiments.spec import load_spec

BUILT_IN = built_in_experiments()


def _same(a: pd.DataFrame, b: pd.DataFrame, what: str) -> None:
    assert len(a) == len(b) and len(a), (what, len(a), len(b))
    assert set(a.columns) == set(b.columns), (what, a.columns, b.columns)
    keys = [c for c in a.columns
            if not pd.api.types.is_numeric_dtype(a[c]) or c in ("cell", "players", "seat", "value")]
    a = a.astype({k: str for k in keys}).sort_values(keys, ignore_index=True)
    b = b.astype({k: str for k in keys}).sort_values(keys, ignore_index=True)[list(a.columns)]
    for column in a.columns:
        if column in keys:
            assert (a[column] == b[column]).all(), (what, column)
        else:
            x, y = a[column].to_numpy(dtype=float), b[column].to_numpy(dtype=float)
            ok = np.isclose(x, y, rtol=1e-9, atol=1e-12) | (np.isinf(x) & np.isinf(y)) | (np.isnan(x) & np.isnan(y))
            assert ok.all(), (what, column, x[~ok], y[~ok])


@pytest.fixture(scope="module", params=BUILT_IN, ids=lambda p: p.stem)
def run(request, tmp_path_factory):
    spec = load_spec(str(request.param))
    hands = 60 if spec.match["mode"] == "single" else 12
    folder = tmp_path_factory.mktemp(request.param.stem) / "run"
    results = experiments.run(request.param, folder, hands=hands, rows=True, report=False)
    return spec, results


def test_every_table_from_the_statistics_equals_the_one_from_the_rows(run):
    spec, results = run
    stats, table = results.stats, results.rows
    value = from_stats.measure(stats)
    checks = {
        "means": (from_stats.strategy_means(stats), from_rows.strategy_means(table, value)),
        "means pooled": (from_stats.strategy_means(stats, by_cell=False),
                         from_rows.strategy_means(table, value, by_cell=False)),
        "paired": (from_stats.paired_differences(stats, spec.baseline),
                   from_rows.paired_differences(table, value, spec.baseline)),
        "seat effect": (from_stats.seat_effect(stats), from_rows.seat_effect(table, value)),
    }
    if value == "penalty":
        checks["shares"] = (from_stats.shares(stats), from_rows.shares(table))
    if value == "total":
        checks["wins"] = (from_stats.win_rates(stats), from_rows.win_rates(table))
    if value == "lost":
        checks["causes"] = (from_stats.loss_causes(stats), from_rows.loss_causes(table))
        checks["endings"] = (from_stats.round_outcomes(stats), from_rows.round_outcomes(table))
        checks["first signal"] = (from_stats.first_signal(stats), from_rows.first_signal(table))
        if "donkey" in table.columns:
            checks["donkey"] = (from_stats.donkey_rates(stats), from_rows.donkey_rates(table))
    if spec.pool:
        checks["head to head"] = (from_stats.pairwise(stats), from_rows.pairwise(table, value))
    if any(c.sweep for c in spec.cells()):  # strategy parameters swept (rule variants: tests/test_rule_variants.py)
        checks["sweep"] = (from_stats.sweep_curves(stats, spec.baseline),
                           from_rows.sweep_curves(table, value, spec.baseline))
    for what, (mine, theirs) in checks.items():
        if what == "paired" and not len(theirs):
            assert not len(mine)
            continue
        _same(mine, theirs, f"{spec.name}: {what}")


def test_the_histograms_count_every_row(run):
    spec, results = run
    stats, table = results.stats, results.rows
    value = from_stats.measure(stats)
    if stats.layout.measures.seat_histogram:
        counted = sum(int(np.asarray(h, dtype=object).sum()) for h in stats.seat_histograms.values())
        assert counted == len(table)
        mean = sum(int((np.arange(len(h)) * np.asarray(h, dtype=object)).sum()) for h in stats.seat_histograms.values())
        assert mean == int(table[value].sum())


def test_a_run_without_rows_keeps_statistics_only_and_no_chunks(tmp_path, monkeypatch):
    chunks_of(monkeypatch, 7)
    done = experiments.run("experiments/quick.toml", tmp_path / "q", hands=30)
    assert done.rows is None
    assert sorted(p.name for p in (tmp_path / "q").iterdir() if not p.name.endswith(".png")) == \
        ["meta.json", "report.html", "report.md", "run.json", "spec.toml", "stats.parquet"]


@pytest.mark.parametrize("name", ["tournament", "ezelen-attention", "player-count"])
def test_cells_played_in_one_engine_call_or_each_in_its_own_give_the_same_statistics(name, monkeypatch):
    """A run plays several cells of one player count in one engine call (sharing each deal); the
    statistics are those of every cell played on its own."""
    from simkit.experiments import statistics as st

    spec = load_spec(f"experiments/{name}.toml")
    st._POOL.clear()
    together = st.reduce_chunk(spec, 3, 43)
    calls = st.engine_calls(spec)
    monkeypatch.setattr(st, "MOST_COLUMNS", 1)  # no two cells fit one call
    st._POOL.clear()
    apart = st.reduce_chunk(spec, 3, 43)
    assert calls < st.engine_calls(spec) == len(spec.cells())
    assert together.seat == apart.seat and together.table == apart.table
    for a, b in ((together.seat_histograms, apart.seat_histograms),
                 (together.table_histograms, apart.table_histograms)):
        assert a.keys() == b.keys() and all((a[k] == b[k]).all() for k in a)
    st._POOL.clear()
