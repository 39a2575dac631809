"""Exact, mergeable statistics of played deals: per group, the moments of its per-deal sums.

The rows of one deal (its seats, its rotated replays, an Ezelen match's rounds) share the cards,
so intervals are taken over deals: each deal is one cluster. A group (a strategy in a cell, a
seat, a table) has measures x_0, x_1, … per row (small integers: 1 for every row, penalty points,
a lost round, tricks); deal d gives it S_m = the sum of x_m over its rows in d. Everything the
report needs of any ratio mean ΣS_m / ΣS_k and its interval over deals is in

    n_m (the deals where S_m is not 0), Σ_d S_m, and Σ_d S_m S_k for every pair (m, k),

and, for a paired difference between groups g and b on the same deals (a strategy and a
baseline at the same table), the cross moments Σ_d S^g_m S^b_k of the pair. They are integers,
so merging chunks, threads, resumed runs or workers is integer addition: bit-identical whatever
the split. A chunk keeps them in int64 (a chunk is small); `+` adds chunks as Python integers,
which never overflow.

Measure 0 of every group counts its rows (a group is present in a deal when it is positive).
`accumulate` adds one engine call's rows to the per-deal sums, `fold` turns them into moments;
both are compiled.
"""

from dataclasses import dataclass

import numba as nb
import numpy as np


@nb.njit(cache=True)
def accumulate(x, deal, group, sums):
    """Add rows to the per-deal sums: x[r, seat, m] is measure m of `seat` in row r (a hand, a
    round), deal[r] the row's deal slot, group[k, seat] the seat's group in grouping k (-1: none);
    sums[g, d, m] is group g's sum of measure m in deal slot d."""
    rows, seats, measures = x.shape
    for r in range(rows):
        _add_row(x, r, deal[r], group, sums, seats, measures)


@nb.njit(parallel=True, cache=True)
def accumulate_deals(x, group, sums):
    """`accumulate` where row r is deal slot r (one row per deal): the rows are independent, so
    they are added on all threads."""
    rows, seats, measures = x.shape
    for r in nb.prange(rows):
        _add_row(x, r, r, group, sums, seats, measures)


@nb.njit(inline="always", cache=True)
def _add_row(x, r, d, group, sums, seats, measures):
    for k in range(group.shape[0]):
        for s in range(seats):
            g = group[k, s]
            if g >= 0:
                for m in range(measures):
                    sums[g, d, m] += x[r, s, m]


@nb.njit(parallel=True, cache=True)
def fold(sums, pairs, want, present, total, gram, cross):
    """Add every group's moments over the deal slots: present[g, m] = the deals with S_m ≠ 0,
    total[g, m] = Σ S_m, and for each (m, k) of `want`, gram[g, m, k] = Σ S_m S_k; for each pair
    p = (g, b) of groups, cross[p, m, k] = Σ S^g_m S^b_k over the deals where g has rows."""
    groups, deals, measures = sums.shape
    for g in nb.prange(groups):
        for d in range(deals):
            if sums[g, d, 0] == 0:
                continue
            for m in range(measures):
                s = sums[g, d, m]
                if s != 0:
                    present[g, m] += 1
                total[g, m] += s
            for w in range(want.shape[0]):
                m, k = want[w, 0], want[w, 1]
                gram[g, m, k] += sums[g, d, m] * sums[g, d, k]
    for p in nb.prange(pairs.shape[0]):
        g, b = pairs[p, 0], pairs[p, 1]
        for d in range(deals):
            if sums[g, d, 0] == 0:
                continue
            for w in range(want.shape[0]):
                m, k = want[w, 0], want[w, 1]
                cross[p, m, k] += sums[g, d, m] * sums[b, d, k]


@nb.njit(parallel=True, cache=True)
def beats(x, side, main, out):
    """For one row per deal: out[r, 0, 0] = 1 and, between the seats of side 0 and side 1
    (side[s], -1: neither), out[r, 0, 1] = 2 if side 0's mean of measure `main` (per row, measure
    0) is the lower, 1 if equal, 0 if higher. Head to head over a whole table of two strategies."""
    for r in nb.prange(x.shape[0]):
        sa = ca = sb = cb = 0
        for s in range(x.shape[1]):
            if side[s] == 0:
                sa += x[r, s, main]
                ca += x[r, s, 0]
            elif side[s] == 1:
                sb += x[r, s, main]
                cb += x[r, s, 0]
        out[r, 0, 0] = 1
        if ca > 0 and cb > 0:
            out[r, 0, 1] = 2 if sa * cb < sb * ca else (1 if sa * cb == sb * ca else 0)


@nb.njit(cache=True)
def count_values(x, m, keep, group, hist):
    """hist[g, v] += 1 for every row r and seat s with x[r, s, 0] > 0 and keep[r], where
    g = group[s] and v = x[r, s, m] (0 <= v < hist.shape[1])."""
    for r in range(x.shape[0]):
        if keep[r]:
            for s in range(x.shape[1]):
                if x[r, s, 0] > 0:
                    hist[group[s], x[r, s, m]] += 1


@dataclass
class Moments:
    """The moments of groups 0..G-1 over measures 0..M-1, and of pairs 0..P-1 of them (int64 in a
    chunk; Python integers, as object arrays, once merged)."""

    present: np.ndarray  # [G, M]
    total: np.ndarray    # [G, M]
    gram: np.ndarray     # [G, M, M]
    cross: np.ndarray    # [P, M, M]

    @classmethod
    def zeros(cls, groups: int, measures: int, pairs: int = 0, dtype=np.int64) -> "Moments":
        return cls(np.zeros((groups, measures), dtype), np.zeros((groups, measures), dtype),
                   np.zeros((groups, measures, measures), dtype), np.zeros((pairs, measures, measures), dtype))

    def __add__(self, other: "Moments") -> "Moments":
        return Moments(*(a.astype(object) + b.astype(object) for a, b in zip(self.parts(), other.parts())))

    def parts(self) -> tuple[np.ndarray, ...]:
        return self.present, self.total, self.gram, self.cross

    def place(self, groups: list[int], part: "Moments") -> None:
        """Set groups `groups` to part's groups 0.. (its pairs are left to the caller)."""
        for whole, piece in zip(self.parts()[:3], part.parts()[:3]):
            whole[groups] = piece

    def __eq__(self, other) -> bool:
        return all(a.shape == b.shape and (a == b).all() for a, b in zip(self.parts(), other.parts()))



def buffer(shape: tuple[int, ...], pool: dict | None = None, name: str = "", zero: bool = True) -> np.ndarray:
    """An int64 array of `shape` (zeroed unless `zero` is False), reusing the pool's memory kept
    under (name, shape) when it has some: fresh memory of this size is mapped page by page on
    first touch, which costs as much as the additions themselves."""
    if pool is None:
        return np.zeros(shape, np.int64)
    out = pool.get((name, shape))
    if out is None:
        out = pool[(name, shape)] = np.zeros(shape, np.int64)
    elif zero:
        out.fill(0)
    return out


class Scratch:
    """Per-deal sums of some groups over a chunk's deal slots 0..deals-1, then their moments."""

    def __init__(self, groups: int, deals: int, measures: int, pool: dict | None = None, name: str = "sums"):
        self.sums = buffer((groups, deals, measures), pool, name)  # two scratches alive at once: two names

    def add(self, x: np.ndarray, deal: np.ndarray | None, group: np.ndarray) -> None:
        """Rows x[row, seat, measure] of deal slots deal[row] (None: row r is deal slot r);
        group[grouping, seat] as in `accumulate`."""
        x = np.ascontiguousarray(x, np.int64)
        group = np.ascontiguousarray(group, np.int64)
        if deal is None:
            accumulate_deals(x, group, self.sums)
        else:
            accumulate(x, np.ascontiguousarray(deal, np.int64), group, self.sums)

    def moments(self, pairs: np.ndarray | None = None, want: np.ndarray | None = None) -> Moments:
        """The groups' moments, with the cross moments of each pair (g, b) of `pairs` [P, 2];
        `want` [W, 2] lists the (m, k) whose products are summed (default: all)."""
        groups, _, measures = self.sums.shape
        pairs = np.zeros((0, 2), np.int64) if pairs is None else np.ascontiguousarray(pairs, np.int64).reshape(-1, 2)
        if want is None:
            want = np.array([(m, k) for m in range(measures) for k in range(measures)], np.int64)
        out = Moments.zeros(groups, measures, len(pairs))
        fold(self.sums, pairs, np.ascontiguousarray(want, np.int64).reshape(-1, 2), *out.parts())
        return out

