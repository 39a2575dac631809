"""The interval arithmetic behind every ± in simkit's tables, against known values."""

import math

import numpy as np
import pytest

from reports.stats import mean_ci, wilson


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
