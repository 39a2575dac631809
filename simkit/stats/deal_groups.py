"""A run's results grouped by what each seat was dealt (a spec's `by`), as exact mergeable
moments: per table (cell), groups g = (strategy, feature values) and per deal d the group's
sum of the seat measure S_dg and its rows C_dg over the deal's seats and replays; kept are
Σ_d v_d and Σ_d v_d v_dᵀ of v_d = (S_d0, C_d0, S_d1, C_d1, ...), whole numbers, so chunks, threads
and workers add up to the same totals. Any linear combination of the groups' ratio means (a
group's mean, the value of one more joker, one strategy's value against another's) gets its
interval over deals from them (the delta method, as simkit.stats.intervals does for a group)."""

import math
from dataclasses import dataclass

import numba as nb
import numpy as np

from simkit.core.blocks import most_blocks
from simkit.stats.intervals import Z95
from simkit.stats.moments import exact_add


@nb.njit(cache=True, parallel=True)
def fold(values, strategy, dealt, columns, radix, groups, first, second, blocks):
    """Add deals d of values[r, d, s] (the seat measure of seat s in replay r) to the moments:
    seat s of replay r is in group strategy[r, s] * groups + its key, the values dealt[d, s,
    columns[k]] in mixed radix (radix[k] values each, the first slowest). A deal's vector v_d is
    the sum of its seats' entries e_i = (x_i, 1) at their group, so v_d v_dᵀ = Σ_i e_i e_iᵀ + P + Pᵀ
    with P = Σ_{i<j} e_i e_jᵀ: each pair of entries is added once, as it is (merging them by group
    first measured slower), and the own terms e_i e_iᵀ come from each group's Σx², Σx and count.
    The deals are split into `blocks`, each adding into its own part, summed after: whole
    numbers, the same totals for any split."""
    replays, deals, n = values.shape
    size = first.shape[0]
    firsts = np.zeros((blocks, size), np.int64)
    squares = np.zeros((blocks, size), np.int64)
    pairs = np.zeros((blocks, size, size), np.int64)
    for b in nb.prange(blocks):
        lo, hi = b * deals // blocks, (b + 1) * deals // blocks
        at = np.empty(replays * n, np.int64)
        x = np.empty(replays * n, np.int64)
        key = np.empty(n, np.int64)
        f, sq, p = firsts[b], squares[b], pairs[b]
        for d in range(lo, hi):
            for s in range(n):
                k = 0
                for col in range(columns.shape[0]):
                    k = k * radix[col] + dealt[d, s, columns[col]]
                key[s] = k
            m = 0
            for r in range(replays):
                for s in range(n):
                    at[m] = 2 * (strategy[r, s] * groups + key[s])
                    x[m] = values[r, d, s]
                    m += 1
            for i in range(m):
                gi, xi = at[i], x[i]
                f[gi] += xi
                f[gi + 1] += 1
                sq[gi] += xi * xi
                for j in range(i + 1, m):
                    gj, xj = at[j], x[j]
                    p[gi, gj] += xi * xj
                    p[gi, gj + 1] += xi
                    p[gi + 1, gj] += xj
                    p[gi + 1, gj + 1] += 1
    for b in range(blocks):
        for a in range(size):
            first[a] += firsts[b, a]
            for c in range(size):
                second[a, c] += pairs[b, a, c] + pairs[b, c, a]
        for g in range(0, size, 2):  # the own terms: (x², x; x, 1) of every entry
            second[g, g] += squares[b, g]
            second[g, g + 1] += firsts[b, g]
            second[g + 1, g] += firsts[b, g]
            second[g + 1, g + 1] += firsts[b, g + 1]


@dataclass
class DealGroups:
    """One table's grouped moments: deals, Σ v_d (2G) and Σ v_d v_dᵀ (2G x 2G); int64 in a chunk,
    Python integers once added past int64 (exact_add)."""

    deals: int
    first: np.ndarray
    second: np.ndarray

    @classmethod
    def zeros(cls, groups: int) -> "DealGroups":
        return cls(0, np.zeros(2 * groups, np.int64), np.zeros((2 * groups, 2 * groups), np.int64))

    def __add__(self, other: "DealGroups") -> "DealGroups":
        return DealGroups(self.deals + other.deals, exact_add(self.first, other.first),
                          exact_add(self.second, other.second))

    def __eq__(self, other) -> bool:
        return (self.deals == other.deals and np.array_equal(self.first, other.first)
                and np.array_equal(self.second, other.second))

    def add(self, values: np.ndarray, strategy: np.ndarray, dealt: np.ndarray, by) -> None:
        """Deals of values[replay, deal, seat] (whole numbers), each seat's strategy strategy[replay,
        seat], and what each seat was dealt, dealt[deal, seat, feature], grouped as `by` says
        (simkit.stats.by_deal.By)."""
        fold(values, np.ascontiguousarray(strategy, np.int64), dealt, np.array(by.columns, np.int64),
             np.array([t + 1 for t in by.tops], np.int64), by.groups, self.first, self.second,
             max(1, min(values.shape[1], most_blocks())))
        self.deals += values.shape[1]

    def rows(self, g: int) -> int:
        return int(self.first[2 * g + 1])

    def mean(self, g: int) -> float:
        c = self.rows(g)
        return int(self.first[2 * g]) / c if c else math.nan

    def combination(self, weights: dict[int, float], z: float = Z95) -> tuple[float, float]:
        """Σ w_g R_g over groups with rows (R_g = ΣS_g / ΣC_g) and the half-width of its 95% interval
        over deals: sqrt(D/(D−1) Σ_d e_d²), e_d = Σ w_g (S_dg − R_g C_dg) / ΣC_g."""
        if any(self.rows(g) == 0 for g in weights) or self.deals < 2:
            return math.nan, math.nan
        u = np.zeros(len(self.first))
        value = 0.0
        for g, w in weights.items():
            c, r = self.rows(g), self.mean(g)
            value += w * r
            u[2 * g], u[2 * g + 1] = w / c, -w * r / c
        idx = np.flatnonzero(u)
        block = np.array(self.second[np.ix_(idx, idx)], float)
        variance = float(u[idx] @ block @ u[idx]) * self.deals / (self.deals - 1)
        return value, z * math.sqrt(max(variance, 0.0))

    def function(self, f, groups: list[int], z: float = Z95) -> tuple[float, float]:
        """f(t) of the sums t = (ΣS_g, ΣC_g for g in groups), and the half-width of its 95% interval
        over deals by the delta method: sqrt(D/(D−1) ∇fᵀ (Σ v vᵀ − t tᵀ/D) ∇f), the gradient taken
        by central differences (f smooth where it is taken: every group with rows)."""
        idx = np.array([i for g in groups for i in (2 * g, 2 * g + 1)], np.int64)
        t = np.array(self.first[idx], float)
        value = float(f(t))
        if self.deals < 2 or not math.isfinite(value):
            return value, math.nan
        grad = np.zeros(len(t))
        for i in range(len(t)):
            h = 1e-6 * max(abs(t[i]), 1.0)
            up, down = t.copy(), t.copy()
            up[i] += h
            down[i] -= h
            grad[i] = (f(up) - f(down)) / (2 * h)
        spread = np.array(self.second[np.ix_(idx, idx)], float) - np.outer(t, t) / self.deals
        variance = float(grad @ spread @ grad) * self.deals / (self.deals - 1)
        return value, z * math.sqrt(max(variance, 0.0))
