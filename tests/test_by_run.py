"""A run grouped by what each seat was dealt (a spec's `by`): the grouped moments equal those of
the run's own rows grouped by the deal dealt again, add up the same over any split into chunks
and any thread count, survive the statistics file and a chunk's file, and a spec that cannot be
grouped is one error line."""

import dataclasses

import numba
import numpy as np
import pandas as pd
import pytest

from simkit import experiments
from simkit.core.errors import SimkitError
from simkit.experiments import statistics as st
from simkit.experiments import stats_file
from simkit.experiments.spec import load_spec, parse_spec_dict
from simkit.games.whos_the_ass.features import dealt

SPEC = {"name": "by", "players": [4, 5], "hands": 90, "seed": 8, "lineup": ["greedy", "highest", "spend", "lowest"],
        "by": ["jokers", "ass"]}


def _spec(**changes):
    data = SPEC | changes
    if data["players"] != [4, 5]:
        return parse_spec_dict(data)
    return parse_spec_dict(data | {"players": [4], "lineup": SPEC["lineup"]})


@pytest.mark.parametrize("changes", [
    {},
    # two tables at 4 players: one engine call plays both, its fold holds both tables' groups
    {"lineups": [SPEC["lineup"], ["greedy", "greedy", "lowest", "lowest"]], "lineup": None},
])
def test_the_groups_are_those_of_the_rows_grouped_by_the_deal(tmp_path, changes):
    data = {k: v for k, v in (SPEC | {"players": 4} | changes).items() if v is not None}
    spec = parse_spec_dict(data)
    done = experiments.run(spec, tmp_path / "r", rows=True, report=False)
    rows = pd.read_parquet(tmp_path / "r" / "results.parquet")
    f = dealt(spec.seed, 0, spec.hands, 4)
    rows["jokers"] = f[rows["hand"], rows["seat"], 0]
    rows["ass"] = f[rows["hand"], rows["seat"], 1]
    lay = done.stats.layout
    for ci, cell in enumerate(lay.cells):
        grouped, strategies, seen = done.stats.by[ci], cell["strategies"], 0
        for (name, jokers, ass), part in rows[rows["cell"] == ci].groupby(["strategy", "jokers", "ass"]):
            g = strategies.index(name) * lay.by.groups + jokers * 2 + ass
            assert grouped.rows(g) == len(part) and grouped.mean(g) == pytest.approx(part["penalty"].mean(), abs=1e-12)
            per_deal = part.groupby("hand")["penalty"].agg(["sum", "count"]).reindex(range(spec.hands), fill_value=0)
            e = (per_deal["sum"] - grouped.mean(g) * per_deal["count"]) / len(part)
            half = 1.959963984540054 * np.sqrt(spec.hands / (spec.hands - 1) * (e ** 2).sum())
            assert grouped.combination({g: 1.0})[1] == pytest.approx(half, rel=1e-9)
            seen += 1
        assert seen == sum(grouped.rows(g) > 0 for g in range(len(strategies) * lay.by.groups)) > 0


def test_the_moments_add_up_the_same_over_chunks_and_threads():
    spec = load_spec("experiments/quick.toml")
    spec = dataclasses.replace(spec, by=("low", "jokers"), hands=100)
    st._POOL.clear()
    whole = st.reduce_chunk(spec, 0, 100)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        st._POOL.clear()
        parts = st.reduce_chunk(spec, 0, 37) + st.reduce_chunk(spec, 37, 100)
    finally:
        numba.set_num_threads(before)
        st._POOL.clear()
    assert whole == parts and whole.by[0].deals == 100
    assert whole.by[0].first[1::2].sum() == 100 * 4 * 4  # every seat of every replay of every deal, once


def test_the_moments_survive_the_statistics_file_and_a_chunks_file(tmp_path):
    spec = _spec(players=[4, 5])
    spec = parse_spec_dict({**SPEC, "players": [4, 5], "lineup": ["greedy"]})
    st._POOL.clear()
    stats = st.reduce_chunk(spec, 5, 60)
    assert len(stats.by) == 2 and all(g.deals == 55 for g in stats.by)
    stats_file.write(stats, tmp_path / "s.parquet")
    again = stats_file.read(tmp_path / "s.parquet")
    assert again == stats and again.layout.by == stats.layout.by
    stats_file.write_chunk(stats, tmp_path / "c.npy")
    assert stats_file.read_chunk(tmp_path / "c.npy", stats.layout) == stats


@pytest.mark.parametrize("changes, message", [
    ({"by": ["aces"]}, "key 'by' feature 'aces'"),
    ({"by": "jokers"}, "key 'by' must be a list of features"),
    ({"match": {"mode": "hands", "hands": 3}}, "key 'by' groups single hands"),
    ({"game": "eigenwijs", "lineup": ["right"]}, r"key 'by' feature 'jokers' \(known: first, turn\)"),
    ({"game": "ezelen", "lineup": ["greedy"]}, r"key 'by' feature 'jokers' \(known: pairs, most\)"),
])
def test_a_spec_that_cannot_be_grouped_is_one_error(changes, message):
    with pytest.raises(SimkitError, match=message) as e:
        parse_spec_dict({**SPEC, "players": [4]} | changes)
    assert "\n" not in str(e.value)


def test_the_report_says_what_the_deal_is_worth(tmp_path):
    spec = _spec(hands=400)
    experiments.run(spec, tmp_path / "r")
    text = (tmp_path / "r" / "report.md").read_text()
    assert "## What the deal is worth" in text and "## Each group's mean by the deal" in text
    assert "![deal-values.png](deal-values.png)" in text and (tmp_path / "r" / "deal-values.png").stat().st_size
    said = next(line for line in text.splitlines() if line.startswith("- One more joker is worth most to "))
    best = said.split("worth most to ")[1].split(":")[0]
    assert best in SPEC["lineup"] and ("decisively ahead of" in said or "not decisively ahead of" in said)
    assert "It is observational" in text


def test_an_ezelen_run_is_grouped_by_the_pairs_dealt(tmp_path):
    spec = parse_spec_dict({"name": "e", "game": "ezelen", "players": [4], "hands": 300, "seed": 3,
                            "lineup": ["greedy", "random", "greedy", "random"], "by": ["pairs"]})
    done = experiments.run(spec, tmp_path / "e", rows=True)
    rows = pd.read_parquet(tmp_path / "e" / "results.parquet")
    grouped, lay = done.stats.by[0], done.stats.layout
    assert sum(grouped.rows(g) for g in range(2 * lay.by.groups)) == len(rows)
    assert sum(int(grouped.first[2 * g]) for g in range(2 * lay.by.groups)) == int(rows["lost"].sum())
    assert "## What the deal is worth" in (tmp_path / "e" / "report.md").read_text()


@pytest.mark.parametrize("strategy", [
    [[0, 1, 2, 3], [3, 0, 1, 2], [2, 3, 0, 1], [1, 2, 3, 0]],  # rotated: one class of seats
    [[0, 1, 1, 2]],  # fixed seats, a strategy twice: three classes
    [[0, 1, 0], [1, 0, 1]],  # replays that do not rotate evenly
])
def test_the_moments_are_those_of_every_deals_vector(strategy):
    """fold's counts per class of seats give Σ v_d and Σ v_d v_dᵀ exactly as the vectors of each deal."""
    from simkit.stats.by_deal import By
    from simkit.stats.deal_groups import DealGroups

    rng = np.random.default_rng(5)
    strategy = np.array(strategy, np.int64)
    replays, n = strategy.shape
    kinds, deals = strategy.max() + 1, 301
    by = By("whos-the-ass", ("low", "ass"), (3, 1), (4, 1))
    dealt_ = rng.integers(0, 2, (deals, n, 4)).astype(np.int16)
    dealt_[:, :, 3] = rng.integers(0, 5, (deals, n))
    values = rng.integers(-20, 40, (replays, deals, n)).astype(np.int64)
    got = DealGroups.zeros(kinds * by.groups)
    got.add(values[:, :150], strategy, dealt_[:150], by)
    got.add(values[:, 150:], strategy, dealt_[150:], by)
    v = np.zeros((deals, 2 * kinds * by.groups), np.int64)
    key = dealt_[:, :, 3].astype(np.int64) * 2 + dealt_[:, :, 1]
    for d in range(deals):
        for r in range(replays):
            for s in range(n):
                g = strategy[r, s] * by.groups + key[d, s]
                v[d, 2 * g] += values[r, d, s]
                v[d, 2 * g + 1] += 1
    assert got.deals == deals
    assert np.array_equal(got.first, v.sum(axis=0)) and np.array_equal(got.second, v.T @ v)


def test_an_eigenwijs_run_is_grouped_by_the_seat_that_flipped_first(tmp_path):
    """A spec's by = ["first"] reads the start seat from the engine's games (E4): its groups
    are the run's own rows grouped by the traced start seat of the same games."""
    spec = parse_spec_dict({"name": "e", "game": "eigenwijs", "players": 3, "hands": 120, "seed": 6,
                            "lineup": ["right", "quick", "right"], "by": ["first"]})
    done = experiments.run(spec, tmp_path / "r", rows=True, report=False)
    rows = pd.read_parquet(tmp_path / "r" / "results.parquet")
    from simkit import games
    from simkit.games.eigenwijs.strategy import seats_for

    records = list(games.get("eigenwijs").traces(seats_for(["right"], 3), 120, 6, spec.rules, {}))
    start = np.array([r["start"] for r in records])  # the deal, and so the start seat, is the same for any seating
    rows["first"] = (rows["seat"] == start[rows["game"]]).astype(int)
    grouped, strategies = done.stats.by[0], done.stats.layout.cells[0]["strategies"]
    for (name, first), part in rows.groupby(["strategy", "first"]):
        g = strategies.index(name) * 2 + first
        assert grouped.rows(g) == len(part) and grouped.mean(g) == pytest.approx(part["games_lost"].mean(), abs=1e-12)
