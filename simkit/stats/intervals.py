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


def mean_half(sums: np.ndarray, squares: np.ndarray, deals: int, per: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each row's mean per deal divided by `per`, and the 95% half-width over deals, from its sum and
    sum of squares (in floating point: squares x deals may pass int64's range)."""
    total = sums.astype(np.float64)
    mean = total / deals / per
    if deals < 2:
        return mean, np.full(len(sums), np.inf)
    var = np.maximum(squares.astype(np.float64) - total * total / deals, 0) / (deals - 1)
    return mean, Z95 * np.sqrt(var / deals) / per


def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float, float]:
    """Share k/n with its Wilson score interval (low, high)."""
    if n == 0:
        return math.nan, math.nan, math.nan
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return p, max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))  # p inside, whatever the rounding



def _residual_c2(s: int, c: int, ss: int, cc: int, sc: int) -> int:
    """c² × Σ_d (S_d − (s/c) C_d)², exactly, from a group's moments (integers)."""
    return ss * c * c - 2 * s * sc * c + s * s * cc


def _own(m, g: int, num: int, den: int) -> tuple[int, ...]:
    """n, ΣS, ΣC, ΣS², ΣC², ΣSC of group g for the ratio of measures num / den."""
    return (int(m.present[g, den]), int(m.total[g, num]), int(m.total[g, den]), int(m.gram[g, num, num]),
            int(m.gram[g, den, den]), int(m.gram[g, num, den]))


def ratio_ci(m, g: int, num: int, den: int = 0, z: float = Z95) -> tuple[float, float, int]:
    """Group g's ratio mean ΣS_num / ΣS_den over clusters (deals; simkit.stats.moments) with the
    half-width of its interval: the standard error sqrt(n/(n−1) Σ_d (S_d − R C_d)²) / ΣC of the
    ratio estimator, exact from the moments, rounded once. Returns (mean, half-width, n deals)."""
    n, s, c, ss, cc, sc = _own(m, g, num, den)
    if n == 0 or c == 0:
        return math.nan, math.nan, n
    if n == 1:
        return s / c, math.inf, n
    return s / c, z * math.sqrt(n * _residual_c2(s, c, ss, cc, sc) / (n - 1)) / (c * c), n


def paired_ratio_ci(m, g: int, b: int, p: int, num: int, den: int = 0, z: float = Z95) -> tuple[float, float, int]:
    """The difference of group g's ratio mean to group b's (m.cross[p] holds the pair's cross
    moments) on the same deals, R_g − R_b, with the half-width of its interval over deals
    (delta method: each deal's linearised difference (S_g − R_g C_g)/ΣC_g − (S_b − R_b C_b)/ΣC_b),
    exact from the moments. With equal rows per deal this is the mean of the deals' differences
    and its usual standard error."""
    n, sa, ca, ssa, cca, sca = _own(m, g, num, den)
    nb_, sb, cb, ssb, ccb, scb = _own(m, b, num, den)
    if n != nb_:
        raise ValueError(f"a paired difference needs both groups on the same deals ({n} and {nb_})")
    if n == 0 or ca == 0 or cb == 0:
        return math.nan, math.nan, n
    diff = sa / ca - sb / cb
    if n == 1:
        return diff, math.inf, n
    s_sb, s_cb, c_sb, c_cb = (int(m.cross[p, i, j]) for i, j in ((num, num), (num, den), (den, num), (den, den)))
    ra, rb = _residual_c2(sa, ca, ssa, cca, sca), _residual_c2(sb, cb, ssb, ccb, scb)
    cross = s_sb * ca * cb - sb * ca * s_cb - sa * cb * c_sb + sa * sb * c_cb  # ca cb Σ(S_g − R_g C_g)(S_b − R_b C_b)
    numerator = ra * cb ** 4 + rb * ca ** 4 - 2 * cross * ca * ca * cb * cb  # over ca⁴ cb⁴: Σ e_d²
    return diff, z * math.sqrt(n * max(numerator, 0) / (n - 1)) / (ca * ca * cb * cb), n


def share_interval(p: float, variance: float, trials: float, z: float = Z95) -> tuple[float, float]:
    """The 95% interval of a share p whose variance over deals is `variance`: Wilson's, for the
    effective number of trials p(1 − p) / variance (the binomial sample as informative as the
    clustered one). Where no variance can be seen (p is 0 or 1), the `trials` themselves (the
    rows: each its own trial). Unlike p ± z·sd it stays inside [0, 1] and is not empty at 0."""
    if variance == math.inf:  # one deal: nothing to measure its spread by
        return 0.0, 1.0
    effective = p * (1 - p) / variance if variance > 0 and 0 < p < 1 else trials
    _, low, high = wilson(p * effective, effective, z)
    return low, high


def share_ci(m, g: int, num: int, den: int = 0, scale: int = 1, z: float = Z95) -> tuple[float, float, float, int]:
    """Group g's share ΣS_num / (scale ΣS_den) with its 95% interval over deals (`share_interval`
    of the ratio estimator's variance): (share, low, high, n deals). `scale` is what one counts
    in (match wins are counted in parts of a win)."""
    p, half, n = ratio_ci(m, g, num, den, z)
    if n == 0 or p != p:
        return math.nan, math.nan, math.nan, n
    p /= scale
    low, high = share_interval(p, (half / z / scale) ** 2 if n > 1 else math.inf, int(m.total[g, den]), z)
    return p, low, high, n


def half_width(p: float, low: float, high: float) -> float:
    """One ± for an interval [low, high] around p: its longer side (so p ± it covers the interval)."""
    return max(p - low, high - p)
