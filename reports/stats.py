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


def _residual_c2(n: int, s: int, c: int, ss: int, cc: int, sc: int) -> int:
    """c² × Σ_d (S_d − (s/c) C_d)², exactly, from a group's moments (integers)."""
    return ss * c * c - 2 * s * sc * c + s * s * cc


def ratio_ci(moments, z: float = Z95) -> tuple[float, float, int]:
    """A ratio mean ΣS/ΣC over clusters (deals) with the half-width of its interval: the standard
    error sqrt(n/(n−1) Σ_d (S_d − R C_d)²) / ΣC of the ratio estimator, computed exactly from the
    moments (simkit.moments order) and rounded once. Returns (mean, half-width, n deals)."""
    n, s, c, ss, cc, sc = (int(v) for v in moments[:6])
    if n == 0 or c == 0:
        return math.nan, math.nan, n
    if n == 1:
        return s / c, math.inf, n
    resid = _residual_c2(n, s, c, ss, cc, sc)  # / c² is Σ(S − RC)², and se = sqrt(n/(n-1) that) / c
    return s / c, z * math.sqrt(n * resid / (n - 1)) / (c * c), n


def paired_ratio_ci(a, b, z: float = Z95) -> tuple[float, float, int]:
    """The difference of two ratio means on the same deals, R_a − R_b, with the half-width of its
    interval over deals (delta method: each deal's linearised difference
    (S_a − R_a C_a)/ΣC_a − (S_b − R_b C_b)/ΣC_b), exactly from a's moments with their cross
    moments to b, and b's moments. Both must be over the same deals. With equal rows per deal this
    is the mean of the deals' differences and its usual standard error."""
    n, sa, ca, ssa, cca, sca, s_sb, s_cb, c_sb, c_cb = (int(v) for v in a[:10])
    nb_, sb, cb, ssb, ccb, scb = (int(v) for v in b[:6])
    if n != nb_:
        raise ValueError(f"a paired difference needs both groups on the same deals ({n} and {nb_})")
    if n == 0 or ca == 0 or cb == 0:
        return math.nan, math.nan, n
    diff = sa / ca - sb / cb
    if n == 1:
        return diff, math.inf, n
    ra, rb = _residual_c2(n, sa, ca, ssa, cca, sca), _residual_c2(n, sb, cb, ssb, ccb, scb)
    cross = s_sb * ca * cb - sb * ca * s_cb - sa * cb * c_sb + sa * sb * c_cb  # ca cb Σ(S_a − R_a C_a)(S_b − R_b C_b)
    numerator = ra * cb ** 4 + rb * ca ** 4 - 2 * cross * ca * ca * cb * cb  # over ca⁴ cb⁴: Σ e_d²
    return diff, z * math.sqrt(n * max(numerator, 0) / (n - 1)) / (ca * ca * cb * cb), n


def wilson_of(moments, z: float = Z95) -> tuple[float, float, float, int]:
    """A share ΣS/ΣC with its Wilson interval for n = deals (the deals are the independent
    trials): (share, low, high, n)."""
    n, s, c = (int(v) for v in moments[:3])
    if n == 0 or c == 0:
        return math.nan, math.nan, math.nan, n
    return (*wilson(n * s / c, n, z), n)
