"""The interval arithmetic behind every ± in simkit's tables, against known values."""

import math

import numpy as np
import pytest

from simkit.stats.intervals import mean_ci, wilson


def test_wilson_known_values():
    p, lo, hi = wilson(5, 10)
    assert p == 0.5 and lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
    p, lo, hi = wilson(0, 10)
    assert p == 0 and lo == 0 and hi == pytest.approx(0.2775, abs=1e-4)
    p, lo, hi = wilson(10, 10)
    assert hi == pytest.approx(1.0) and lo == pytest.approx(0.7225, abs=1e-4)


def test_mean_ci_known_values():
    mean, half = mean_ci(np.array([1.0, 2.0, 3.0, 4.0]))
    assert mean == 2.5 and half == pytest.approx(1.959964 * math.sqrt(5 / 3) / 2)


def test_mean_ci_covers_the_truth_at_the_stated_rate():
    rng = np.random.default_rng(1)
    hits = 0
    for _ in range(2000):
        mean, half = mean_ci(rng.normal(3.0, 2.0, 100))
        hits += abs(mean - 3.0) <= half
    assert 0.93 <= hits / 2000 <= 0.97  # 95% nominal; the normal approximation at n = 100


def test_a_paired_difference_of_strategies_equal_in_law_covers_zero_at_the_stated_rate(tmp_path):
    """`random_twin` plays like `random` from other draws, so its true paired difference to
    `random` is exactly 0 (lineup random, twin, random, twin: each sits between two of the other).
    Split one run into 400 blocks of disjoint deals; the 95% interval of each block must cover 0
    in about 95% of them (a binomial 99.9% range around 0.95 for 400 blocks: 0.91..0.98)."""
    from simkit.experiments import statistics
    from simkit.experiments.report.tables import paired_differences
    from simkit.experiments.spec import parse_spec_dict
    from simkit.strategies.plugins import load_strategy_file

    load_strategy_file("tests/data/twin_random.py")
    spec = parse_spec_dict({"name": "twins", "players": 4, "hands": 400 * 60, "seed": 77,
                            "lineup": ["random", "random_twin", "random", "random_twin"], "baseline": "random"})
    covered, blocks = 0, []
    for lo in range(0, 400 * 60, 60):  # each block's statistics are a chunk's
        blocks.append(statistics.reduce_chunk(spec, lo, lo + 60))
        d = paired_differences(blocks[-1], "random").iloc[0]
        assert d["strategy"] == "random_twin" and d["n"] == 60  # deals
        covered += abs(d["difference"]) <= d["ci95"]
    assert 0.91 <= covered / 400 <= 0.98
    total = blocks[0]
    for block in blocks[1:]:
        total = total + block
    whole = paired_differences(total, "random").iloc[0]
    assert whole["n"] == 400 * 60 and abs(whole["difference"]) <= 3.3 * whole["ci95"] / 1.96  # the whole run agrees


def test_head_to_head_and_win_rates_on_a_known_table():
    """Two deals, two rotations: a beats b on 3 of the 4 (deal, rotation) and ties the fourth, so
    it wins deal 0 outright and three quarters of deal 1; the interval is over the 2 deals."""
    import pandas as pd

    from simkit.experiments.report.rows import pairwise, win_rates

    rows = []
    for hand, rot, pa, pb in [(0, 0, 1, 5), (0, 1, 2, 9), (1, 0, 4, 4), (1, 1, 0, 3)]:
        for seat, (strategy, p) in enumerate([("a", pa), ("b", pb)]):
            rows.append({"cell": 0, "players": 2, "rotation": rot, "hand": hand, "seat": seat, "strategy": strategy,
                         "penalty": p})
    h2h = pairwise(pd.DataFrame(rows), "penalty").set_index("strategy")
    assert h2h.loc["a", "beats"] == 1.75 / 2 and h2h.loc["b", "beats"] == 0.25 / 2 and h2h.loc["a", "n"] == 2
    # per deal a beats b on 1 and 0.75 of the replays: variance of the mean 0.015625, so the deals
    # are worth 0.875 * 0.125 / 0.015625 = 7 independent trials
    assert (h2h.loc["a", "low"], h2h.loc["a", "high"]) == pytest.approx(wilson(0.875 * 7, 7)[1:])
    matches = pd.DataFrame({"cell": 0, "players": 2, "match": [0, 0, 1, 1, 2, 2], "strategy": ["a", "b"] * 3,
                            "win": [1, 0, 0.5, 0.5, 1, 0]})
    rates = win_rates(matches).set_index("strategy")
    assert rates.loc["a", "win"] == 2.5 / 3 and rates.loc["b", "win"] == 0.5 / 3 and rates.loc["a", "n"] == 3


def test_head_to_head_in_matches_counts_per_seat_not_seats(tmp_path):
    """Two names for one strategy in an odd table: the one with two seats wins about 2/3 of the
    matches' wins, but per seat they are equal, so neither beats the other decisively."""
    from simkit import experiments
    from simkit.experiments.report.tables import pairwise

    done = experiments.run({"name": "odd", "players": 3, "hands": 300, "seed": 4,
                            "pool": ["hoard", "hoard(release_at=3)"],
                            "match": {"mode": "threshold", "threshold": 100}})
    h2h = pairwise(done.stats).set_index("strategy")
    assert h2h["low"].max() < 0.5 < h2h["high"].min()
    assert h2h["beats"].sum() == pytest.approx(1)
