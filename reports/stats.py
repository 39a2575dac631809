"""Honest statistics: every estimate with its interval and its n."""

import math

import numpy as np

Z95 = 1.959963984540054


def mean_ci(x: np.ndarray, z: float = Z95) -> tuple[float, float]:
    """Mean and the half-width of its normal-approximation confidence interval."""
    x = np.asarray(x, dtype=np.float64)
    n = x.size
    if n == 0:
        return math.nan, math.nan
    if n == 1:
        return float(x[0]), math.inf
    return float(x.mean()), float(z * x.std(ddof=1) / math.sqrt(n))


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float, float]:
    """Share k/n with its Wilson score interval (low, high)."""
    if n == 0:
        return math.nan, math.nan, math.nan
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return p, max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))  # p inside, whatever the rounding
