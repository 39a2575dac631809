"""The race's statistics: per candidate the sum of its per-deal values, and between candidates the
sums of products, all whole numbers (exact, and the same for any split of the deals); from them
each candidate's mean and each one's paired difference to the leader, with intervals over
deals, and which candidates are decisively worse.

The test: in round k, each candidate against the leader (the best mean), one-sided z-tests of the
paired differences over deals, with Holm's step-down correction across the candidates at level
alpha / 2^(k+1): the rounds spend at most alpha in all, so with probability 1 - alpha no candidate
truly as good as the leader is dropped in the whole race (for the leader of each round)."""

import math
from dataclasses import dataclass, field

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


def holm(p: dict[int, float], alpha: float) -> list[int]:
    """The candidates whose null (as good as the leader) Holm's step-down rejects at `alpha`:
    sorted by p (ties by index), the i-th smallest rejected while p <= alpha / (m - i)."""
    order = sorted(p, key=lambda c: (p[c], c))
    out = []
    for i, c in enumerate(order):
        if p[c] > alpha / (len(order) - i):
            break
        out.append(c)
    return out


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


def judge(s: Sums, alive: list[int], index: int, alpha: float, sign: int) -> Round:
    """Round `index` over: the leader (the best mean; the first of equal ones), the estimates, and
    the candidates Holm's test drops at alpha / 2^(index+1). A candidate whose every deal came out
    as the leader's is dropped too: it plays the same (so far), and the leader stands for it."""
    leader = min(alive, key=lambda c: (sign * int(s.sums[c]), c))
    level = alpha / 2 ** (index + 1)
    r = Round(index, int(s.deals[leader]), leader, level)
    p = {}
    for c in alive:
        r.estimates[c] = estimate(s, c, leader, sign)
        if c != leader:
            p[c] = r.estimates[c].p
    same = [c for c in alive if c != leader and r.estimates[c].diff == 0 and r.estimates[c].diff_half == 0]
    r.dropped = sorted(set(holm(p, level)) | set(same))
    return r
