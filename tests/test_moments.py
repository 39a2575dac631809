"""Exact statistics (simkit.stats.moments, stats.intervals): the moments of per-deal sums, reduced in
compiled code from the engine's arrays, give the report's numbers — means, paired differences,
shares and their intervals over deals — equal to those computed from the rows (to 1e-9), and
merging chunks is exact integer addition, whatever the split."""

import math

import numpy as np
import pytest

from simkit import experiments, games
from simkit.experiments.chunks import rotated, seat_labels
from simkit.experiments.report import rows as tables
from simkit.experiments.spec import parse_spec_dict
from simkit.stats import moments as M
from simkit.stats.intervals import half_width, paired_ratio_ci, ratio_ci, share_ci

SPECS = {
    "rotate-4": {"name": "m4", "players": 4, "hands": 300, "seed": 3,
                 "lineup": ["greedy", "hoard(release_at=3)", "lowest", "lowest"]},
    "pool-5": {"name": "m5", "players": 5, "hands": 200, "seed": 4, "pool": ["spend", "lowest", "greedy"]},
    "ezelen": {"name": "mz", "game": "ezelen", "players": 4, "hands": 400, "seed": 5,
               "lineup": ["greedy", "sticky", "memory", "random"], "baseline": "greedy"},
}


def _measures(spec, played: dict, n: int) -> np.ndarray:
    """A row per deal: x[deal, seat, measure] (measure 0 counts rows; Who's the Ass?: penalty,
    went out, held the ass; Ezelen: lost the round)."""
    ones = np.ones(played["turns" if spec.game == "ezelen" else "penalties"].shape[:1] + (n,), np.int64)
    if spec.game == "ezelen":
        return np.stack([ones, played["loser"][:, None] == np.arange(n)], axis=2)
    p = played["penalties"]
    return np.stack([ones, p, p == 0, played["ass_end"][:, None] == np.arange(n)], axis=2)


def _reduce(spec, chunk: int):
    """Every cell's deals in chunks of `chunk` deals (all rotations of a deal in its chunk):
    groups (cell, strategy) then (cell, seat); the merged moments and the group names."""
    cells = spec.cells()
    names = [(ci, label) for ci, cell in enumerate(cells) for label in dict.fromkeys(seat_labels(spec, cell))]
    names += [(ci, f"seat {s}") for ci, cell in enumerate(cells) for s in range(cell.players)]
    index = {name: g for g, name in enumerate(names)}
    pairs = [(g, index[(ci, str(spec.baseline))]) for g, (ci, label) in enumerate(names)
             if not label.startswith("seat ") and (ci, str(spec.baseline)) in index]
    parts = []
    for lo in range(0, spec.hands, chunk):
        hi = min(spec.hands, lo + chunk)
        scratch = None
        for ci, cell in enumerate(cells):
            for r in range(cell.rotations(spec.seating)):
                game = games.get(spec.game)
                seats = game.seats_for(rotated(cell.lineup, r), cell.players)
                played = game.seating(game.play([seats], hi - lo, lo, spec, [cell]), 0)
                x = _measures(spec, played, cell.players)
                if scratch is None:
                    scratch = M.Scratch(len(names), hi - lo, x.shape[2])
                labels = rotated(tuple(seat_labels(spec, cell)), r)
                group = np.array([[index[(ci, lab)] for lab in labels],
                                  [index[(ci, f"seat {s}")] for s in range(cell.players)]])
                _add(scratch, x, np.arange(hi - lo), group)
        parts.append(scratch.moments(np.array(pairs)))
    return sum(parts[1:], parts[0]), names, {**index, **{("pair", g): p for p, (g, _) in enumerate(pairs)}}


def _add(scratch, x: np.ndarray, deal: np.ndarray, group: np.ndarray) -> None:
    """Rows x[r, seat, m] of deal slots deal[r] into the sums of groups group[k, seat] (-1: none),
    in plain numpy: the reduction of a reading independent of the engine's tally."""
    for k in range(group.shape[0]):
        for s in range(x.shape[1]):
            if group[k, s] >= 0:
                np.add.at(scratch.sums[:, group[k, s]], deal, x[:, s].astype(scratch.sums.dtype))


def _close(a: float, b: float) -> bool:
    return a == b or math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


@pytest.fixture(scope="module", params=sorted(SPECS))
def case(request, tmp_path_factory):
    spec = parse_spec_dict(SPECS[request.param])
    table = experiments.run(SPECS[request.param], tmp_path_factory.mktemp("m") / "run", rows=True, report=False).rows
    return spec, table, _reduce(spec, 70)


def test_means_and_their_intervals_equal_the_rows(case):
    spec, table, (moments, names, index) = case
    value = "lost" if spec.game == "ezelen" else "penalty"
    rows = tables.strategy_means(table, value)
    assert len(rows)
    for r in rows.itertuples():
        mean, half, n = _main(spec, moments, index[(r.cell, r.strategy)])
        assert n == r.n and _close(mean, r.mean) and _close(half, r.ci95), (r, mean, half)
    for r in tables.seat_effect(table, value).itertuples():
        mean, half, n = _main(spec, moments, index[(r.cell, f"seat {r.seat}")])
        assert n == r.n and _close(mean, r.mean) and _close(half, r.ci95)


def _main(spec, moments, g):
    """A group's mean of the main measure and its ±: Ezelen's rounds lost is a share."""
    if spec.game != "ezelen":
        return ratio_ci(moments, g, 1)
    p, low, high, n = share_ci(moments, g, 1)
    return p, half_width(p, low, high), n


def test_paired_differences_and_their_intervals_equal_the_rows(case):
    spec, table, (moments, names, index) = case
    value = "lost" if spec.game == "ezelen" else "penalty"
    rows = tables.paired_differences(table, value, str(spec.baseline))
    assert len(rows)
    for r in rows.itertuples():
        g = index[(r.cell, r.strategy)]
        diff, half, n = paired_ratio_ci(moments, g, index[(r.cell, str(spec.baseline))], index[("pair", g)], 1)
        assert n == r.n and _close(diff, r.difference) and _close(half, r.ci95), (r, diff, half)


def test_shares_and_their_intervals_equal_the_rows(case):
    spec, table, (moments, names, index) = case
    if spec.game == "ezelen":
        rows, measures = tables.share_by_strategy(table, "lost", "lost"), (("lost", 1),)
    else:
        rows, measures = tables.shares(table), (("out", 2), ("ass", 3))
    for r in rows.itertuples():
        for name, m in measures:
            p, low, high, n = share_ci(moments, index[(r.cell, r.strategy)], m)
            assert n == r.n
            assert all(_close(u, v) for u, v in zip((p, low, high), (getattr(r, name), getattr(r, f"{name}_low"),
                                                                     getattr(r, f"{name}_high"))))


@pytest.mark.parametrize("name", ["rotate-4", "ezelen"])
def test_any_chunking_gives_the_same_moments_bit_for_bit(name):
    spec = parse_spec_dict({**SPECS[name], "hands": 90})
    whole, _, _ = _reduce(spec, 90)
    for chunk in (1, 7, 45):
        again, _, _ = _reduce(spec, chunk)
        assert again == whole


def test_merge_is_exact_beyond_int64():
    big = M.Moments.zeros(1, 1)
    big.present[:] = np.iinfo(np.int64).max
    assert int((big + big + big).present[0, 0]) == 3 * (2 ** 63 - 1)


def test_the_paired_interval_is_the_one_of_the_deals_differences():
    """Equal rows per deal: the paired interval is the mean of the deals' differences ± its usual
    standard error (a check of the delta-method algebra against plain numpy)."""
    rng = np.random.default_rng(1)
    a, b = rng.integers(0, 40, 500), rng.integers(0, 40, 500) + (rng.random(500) < 0.3)
    scratch = M.Scratch(2, 500, 2)
    _add(scratch, np.stack([np.ones((500, 2)), np.stack([a, b], axis=1)], axis=2), np.arange(500), np.array([[0, 1]]))
    moments = scratch.moments(np.array([[0, 1]]))
    diff, half, n = paired_ratio_ci(moments, 0, 1, 0, 1)
    d = (a - b).astype(float)
    assert n == 500 and _close(diff, d.mean()) and _close(half, 1.959963984540054 * d.std(ddof=1) / math.sqrt(500))
    assert not _close(half, 1.959963984540054 * math.sqrt((a.var(ddof=1) + b.var(ddof=1)) / 500))  # pairing counts


def _plain_moments(sums: np.ndarray, pairs: list[tuple[int, int]]) -> M.Moments:
    """The moments of per-deal sums[d, g, m] in plain numpy (every (m, k) product)."""
    present_in = sums[:, :, 0] != 0  # [d, g]
    s = np.where(present_in[:, :, None], sums, 0)
    out = M.Moments((s != 0).sum(axis=0), s.sum(axis=0), np.einsum("dgm,dgk->gmk", s, s),
                    np.stack([np.einsum("dm,dk->mk", s[:, g], sums[:, b]) for g, b in pairs]))
    return out


def test_the_moments_are_those_of_the_plain_sums_of_every_deal():
    """Per-deal sums with groups absent from some deals (S_0 = 0) and pairs: folded, their
    moments are those made in plain numpy, and folding leaves the sums zero for the next chunk."""
    rng = np.random.default_rng(3)
    deals, groups = 37, 5
    scratch = M.Scratch(groups, deals, 3)
    sums = rng.integers(0, 9, (deals, groups, 3)) * (rng.random((deals, groups, 1)) < 0.8)
    sums[:, :, 0] = np.where(sums[:, :, 1:].any(axis=2), 1 + rng.integers(0, 4, (deals, groups)), 0)
    scratch.sums[:] = sums
    pairs = [(0, 1), (2, 4), (4, 0)]
    assert scratch.moments(np.array(pairs)) == _plain_moments(sums, pairs)
    assert not scratch.sums.any()


def test_a_scratch_left_unfolded_is_zeroed_before_its_memory_is_used_again():
    pool: dict = {}
    first = M.Scratch(2, 10, 2, pool, "x")
    first.sums += 5  # an interrupted chunk: never folded
    assert not M.Scratch(2, 10, 2, pool, "x").sums.any()


def test_counts_widen_for_values_beyond_their_width():
    counts = M.Counts(3, width=4)
    counts.add(np.array([[1, 0, 2, 0], [0, 0, 0, 5]]), [2, 0])
    counts.add(np.array([[0] * 9 + [7]]), [2])
    got = counts.by_group()
    assert list(got) == [0, 2] and counts.width >= 10
    assert got[0].tolist() == [0, 0, 0, 5] and got[2].tolist() == [1, 0, 2] + [0] * 6 + [7]


# --- a run's statistics (experiments/statistics.py): every cell and rotation of a chunk's deals ---

from simkit.experiments import statistics as st  # noqa: E402
from simkit.experiments import stats_file  # noqa: E402

RUNS = {**SPECS,
        "sweep": {"name": "sw", "players": 3, "hands": 150, "seed": 6, "lineup": ["hoard", "lowest", "spend"],
                  "sweep": {"hoard.release_at": [1, 5]}},
        "matches": {"name": "mm", "players": 4, "hands": 60, "seed": 7, "lineup": ["greedy", "lowest"] * 2,
                    "match": {"mode": "threshold", "threshold": 100}},
        "ezel": {"name": "ze", "game": "ezelen", "players": 3, "hands": 40, "seed": 8, "baseline": "greedy",
                 "lineup": ["greedy", "watcher", "dreamer"], "match": {"mode": "ezel"}}}


@pytest.mark.parametrize("name", sorted(RUNS))
def test_a_runs_statistics_do_not_depend_on_the_chunking_and_survive_their_file(name, tmp_path):
    spec = parse_spec_dict(RUNS[name])
    whole = st.reduce_chunk(spec, 0, spec.hands)
    parts = st.reduce_chunk(spec, 0, 7) + st.reduce_chunk(spec, 7, spec.hands // 2)
    parts = parts + st.reduce_chunk(spec, spec.hands // 2, spec.hands)
    assert parts == whole
    stats_file.write(parts, tmp_path / "stats.parquet")
    again = stats_file.read(tmp_path / "stats.parquet")
    assert again == whole and again.layout == whole.layout
    assert (tmp_path / "stats.parquet").stat().st_size < 200_000


@pytest.mark.parametrize("name", ["rotate-4", "matches", "ezelen"])
def test_values_beyond_the_histograms_widths_are_counted_all_the_same(name, monkeypatch):
    """The engine counts values into histograms of a set width; a value beyond it replays that
    engine call with wider ones, so the histograms (and nothing else) never depend on the width."""
    spec = parse_spec_dict(RUNS[name])
    wide = st.reduce_chunk(spec, 0, spec.hands)
    monkeypatch.setitem(st._POOL, ("width", "seat"), 2)
    monkeypatch.setitem(st._POOL, ("width", "table"), 2)
    narrow = st.reduce_chunk(spec, 0, spec.hands)
    assert narrow == wide
    assert max(len(h) for h in (narrow.seat_histograms | narrow.table_histograms).values()) > 2


@pytest.mark.parametrize("name", ["rotate-4", "ezelen"])
def test_moments_of_a_known_count_filled_in_equal_those_folded(name):
    """Every deal has the same rows per group: the products with the row count need not be folded
    (simkit.stats.moments.fill_known) and come out exactly as folded."""
    spec = parse_spec_dict({**SPECS[name], "hands": 60})
    whole, names, index = _reduce(spec, 60)
    partial = M.Moments(whole.present.copy(), whole.total.copy(), whole.gram.copy(), whole.cross.copy())
    partial.gram[:, :, 0] = partial.gram[:, 0, :] = 0
    partial.cross[:, :, 0] = partial.cross[:, 0, :] = 0
    assert not partial == whole
    by_pair = sorted((p, g) for key, p in index.items() if isinstance(key, tuple) and key[0] == "pair"
                     for g in [key[1]])
    pairs = tuple((g, index[(names[g][0], str(spec.baseline))]) for _, g in by_pair)
    M.fill_known(partial, (0,), pairs)
    assert partial == whole
