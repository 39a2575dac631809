"""The race's statistics: per candidate the sum of its per-deal values, and between candidates the
sums of products, all whole numbers (exact, and the same for any split of the deals); from them
each candidate's mean and each one's paired difference to the leader, with intervals over
deals, and which candidates are decisively worse.

The test is aware that the leader is picked as the best mean: in round k a candidate is dropped
where it is decisively worse than some other alive candidate, by the one-sided z-test of their
paired difference over deals (a t-test) at level alpha / 2^(k+1) / (m (m - 1)), m the race's
candidates.
A candidate of the best true mean is dropped only by some comparison with a candidate no better,
each such test errs with probability at most its level, and there are at most m (m - 1) of them a
round: so, as far as the t-test's approximation holds, with probability at least 1 - alpha the
race drops no candidate of the best true mean (however many share it), whichever leads. Testing
each candidate against the leader alone, with Holm's correction, does not hold this: the best mean
is biased (tests/test_tune.py simulates both)."""

import math
from dataclasses import dataclass, field
from statistics import NormalDist

import numpy as np

from simkit.stats.intervals import Z95

EXACT = 2 ** 52  # float64 adds whole numbers exactly below this


def gram(values: np.ndarray) -> np.ndarray:
    """values @ values.T exactly (int64): in float64 (BLAS) over spans of deals short enough that
    every sum is a whole number below EXACT, else in int64."""
    values = np.asarray(values, np.int64)
    k, d = values.shape
    out = np.zeros((k, k), np.int64)
    if not values.size:
        return out
    top = int(np.abs(values).max()) ** 2
    span = EXACT // max(top, 1)
    if span < 1:
        return values @ values.T
    x = values.astype(np.float64)
    for lo in range(0, d, span):
        part = x[:, lo:lo + span]
        out += (part @ part.T).astype(np.int64)
    return out


@dataclass
class Sums:
    """Whole-number sums over the deals each candidate played: sums[c] (its values), cross[c, b]
    (products, over the deals both played), deals[c]."""

    sums: np.ndarray
    cross: np.ndarray
    deals: np.ndarray

    @classmethod
    def zeros(cls, k: int) -> "Sums":
        return cls(np.zeros(k, np.int64), np.zeros((k, k), np.int64), np.zeros(k, np.int64))

    @classmethod
    def of(cls, values: np.ndarray, cross: bool = True) -> "Sums":
        """The sums of values[c, i] (candidate c, deal i); without `cross`, no products (zeros)."""
        k, d = values.shape
        return cls(values.sum(axis=1, dtype=np.int64), gram(values) if cross else np.zeros((k, k), np.int64),
                   np.full(k, d, np.int64))

    def merge(self, which: np.ndarray, other: "Sums") -> None:
        """Add `other` (candidate j of it is candidate which[j] here): integer addition, so the
        order sums are merged in does not matter."""
        which = np.asarray(which, np.int64)
        self.sums[which] += other.sums
        self.cross[np.ix_(which, which)] += other.cross
        self.deals[which] += other.deals


@dataclass(frozen=True)
class Estimate:
    """A candidate's mean per deal with its 95% half-width, and its paired difference to a
    reference (positive: worse), its half-width and the test's one-sided p-value."""

    mean: float
    half: float
    diff: float = 0.0
    diff_half: float = 0.0
    p: float = 1.0


def estimate(s: Sums, c: int, ref: int | None = None, sign: int = 1) -> Estimate:
    """Candidate c's mean per deal and (with `ref`, on the deals both played: the race's alive
    candidates all played the same) its paired difference to ref, oriented by `sign` (1: lower is
    better, -1: higher is)."""
    n = int(s.deals[c])
    total, square = int(s.sums[c]), int(s.cross[c, c])
    mean = total / n
    half = Z95 * math.sqrt(max(square * n - total * total, 0) / (n - 1)) / n if n > 1 else math.inf
    if ref is None or ref == c:
        return Estimate(mean, half)
    other = int(s.sums[ref])
    differences = sign * (total - other)
    squares = square - 2 * int(s.cross[c, ref]) + int(s.cross[ref, ref])  # sum over deals of (x_c - x_ref)^2
    variance = (squares * n - differences * differences) / (n * (n - 1)) if n > 1 else math.inf
    diff = differences / n
    if variance <= 0:
        p = 0.0 if diff > 0 else 1.0
        return Estimate(mean, half, diff, 0.0, p)
    se = math.sqrt(variance / n)
    return Estimate(mean, half, diff, Z95 * se, 0.5 * math.erfc(diff / se / math.sqrt(2)))


def t_quantile(q: float, df: int) -> float:
    """Student's t quantile with `df` degrees of freedom, from the normal one by Fisher's expansion
    (Abramowitz and Stegun 26.7.5, to 1/df^4): the race's tests reach far into the tail on few
    deals, where the normal quantile is too small."""
    z = NormalDist().inv_cdf(q)
    terms = ((z ** 3 + z) / 4, (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96,
             (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384,
             (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160)
    return z + sum(g / df ** (i + 1) for i, g in enumerate(terms))


def worse_than_some(s: Sums, alive: list[int], level: float, sign: int) -> list[int]:
    """The alive candidates decisively worse than some other alive one: c, where the one-sided
    test of its paired difference to some b (over the deals all alive candidates played) rejects
    'c is as good as b' at `level` (Student's t quantile: the variance is estimated). A difference
    the same on every deal is decisive."""
    a = np.asarray(alive, np.int64)
    n = int(s.deals[a[0]])
    if len(a) < 2 or n < 2:
        return []
    if (s.deals[a] != n).any():
        raise ValueError("the alive candidates must have played the same deals")
    sums = s.sums[a].astype(np.float64)
    cross = s.cross[np.ix_(a, a)].astype(np.float64)
    own = np.diag(cross)
    total = sign * (sums[:, None] - sums[None, :])  # [c, b]: the sum over deals of c's difference to b
    squares = own[:, None] - 2 * cross + own[None, :]  # of its square
    variance = np.maximum(squares * n - total * total, 0) / (n * (n - 1))
    se = np.sqrt(variance / n)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, total / n / se, np.where(total > 0, np.inf, -np.inf))
    np.fill_diagonal(z, -np.inf)
    critical = t_quantile(1 - level, n - 1)
    return [int(c) for c, row in zip(a, z) if row.max() > critical]


@dataclass
class Round:
    """A round of the race: the deals every alive candidate has played once it is over, the
    leader, every alive candidate's estimate against it, and those dropped."""

    index: int
    deals: int
    leader: int
    level: float
    estimates: dict[int, Estimate] = field(default_factory=dict)
    dropped: list[int] = field(default_factory=list)


def judge(s: Sums, alive: list[int], index: int, alpha: float, sign: int, candidates: int) -> Round:
    """Round `index` over: the leader (the best mean; the first of equal ones), every alive
    candidate's estimate against it, and the candidates dropped: those decisively worse than some
    other (`worse_than_some`) at alpha / 2^(index+1) / (m (m - 1)), m = `candidates` the race began
    with. A candidate whose every deal came out as the leader's is dropped too: it plays the same
    (so far), and the leader stands for it."""
    leader = min(alive, key=lambda c: (sign * int(s.sums[c]), c))
    level = alpha / 2 ** (index + 1)
    r = Round(index, int(s.deals[leader]), leader, level)
    for c in alive:
        r.estimates[c] = estimate(s, c, leader, sign)
    same = [c for c in alive if c != leader and r.estimates[c].diff == 0 and r.estimates[c].diff_half == 0]
    pairs = max(candidates * (candidates - 1), 1)
    r.dropped = sorted(set(worse_than_some(s, alive, level / pairs, sign)) | set(same))
    return r
