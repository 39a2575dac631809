"""A run's results grouped by what each seat was dealt (a spec's `by`), as exact mergeable
moments: per table (cell), groups g = (strategy, feature values) and per deal d the group's
sum of the seat measure S_dg and its rows C_dg over the deal's seats and replays; kept are
Σ_d v_d and Σ_d v_d v_dᵀ of v_d = (S_d0, C_d0, S_d1, C_d1, ...), whole numbers, so chunks, threads
and workers add up to the same totals. Any linear combination of the groups' ratio means (a
group's mean, the value of one more joker, one strategy's value against another's) gets its
interval over deals from them (the delta method, as simkit.stats.intervals does for a group)."""

import math
from dataclasses import dataclass

import numpy as np

from simkit.stats.deal_fold import DealFold
from simkit.stats.intervals import Z95
from simkit.stats.moments import exact_add


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
        fold = DealFold(strategy, len(self.first) // 2 // by.groups, by.columns, by.tops, dealt.shape[2])
        fold.add(values, dealt)
        self.add_moments(*fold.finish(), values.shape[1])

    def add_moments(self, first: np.ndarray, second: np.ndarray, deals: int, at: int = 0) -> None:
        """`deals` more deals' Σ v_d and Σ v_d v_dᵀ (a fold's, simkit.stats.deal_fold), whose groups
        at..at+len of them are ours."""
        span = slice(2 * at, 2 * at + len(self.first))
        self.first += first[span]
        self.second += second[span, span]
        self.deals += deals

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
