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
The engine's drivers add each played row to the per-deal sums as they play (simkit.tally);
`fold` turns the sums into moments, compiled. A chunk's memory is reused from chunk to chunk
and its per-deal sums are int32 where they fit: what the reduction costs is mostly the memory
it passes through.
"""

from dataclasses import dataclass

import numba as nb
import numpy as np

BLOCKS = 64  # fold's partial sums: a fixed split of the deal slots (integers: any split gives the same sums)


@nb.njit(parallel=True, cache=True)
def fold(sums, first, second, present, total, products, pool_from, pooled, pool_to):
    """The moments of per-deal sums kept as an array, sums[d, g, m] (S_m of group g in deal slot
    d), seen flat as columns j = g * M + m: present[j] = the deals with S_j ≠ 0, total[j] = Σ S_j,
    and products[q] = Σ S_first[q] S_second[q] (the Gram and cross moments asked for). Groups
    pool_from[i] are also added to pooled's groups pool_to[i] (sums pooled over cells). One
    pass over the sums, which it leaves zero (ready for the next chunk). Sums over every deal:
    a group without rows in a deal (S_0 = 0) has all its sums 0 there."""
    deals, groups, measures = sums.shape
    flat = sums.reshape(deals, groups * measures)
    columns, asked = flat.shape[1], first.shape[0]
    parts = min(BLOCKS, deals)
    b_present = np.zeros((parts, columns), np.int64)
    b_total = np.zeros((parts, columns), np.int64)
    b_products = np.zeros((parts, asked), np.int64)
    for part in nb.prange(parts):
        p_present, p_total, p_products = b_present[part], b_total[part], b_products[part]
        for d in range(part * deals // parts, (part + 1) * deals // parts):
            row = flat[d]
            for j in range(columns):
                v = np.int64(row[j])
                p_present[j] += v != 0
                p_total[j] += v
            for q in range(asked):
                p_products[q] += np.int64(row[first[q]]) * np.int64(row[second[q]])
            for i in range(pool_from.shape[0]):
                for m in range(measures):
                    pooled[d, pool_to[i], m] += sums[d, pool_from[i], m]
            for j in range(columns):
                row[j] = 0
    for part in range(parts):
        for j in range(columns):
            present[j] += b_present[part, j]
            total[j] += b_total[part, j]
        for q in range(asked):
            products[q] += b_products[part, q]


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



def buffer(shape: tuple[int, ...], pool: dict | None = None, name: str = "", zero: bool = True,
           dtype=np.int64) -> np.ndarray:
    """An array of `shape` (zeroed unless `zero` is False), reusing the pool's memory kept under
    (name, shape, dtype) when it has some: fresh memory of this size is mapped page by page on
    first touch, which costs as much as the additions themselves."""
    if pool is None:
        return np.zeros(shape, dtype)
    key = (name, shape, np.dtype(dtype).str)
    out = pool.get(key)
    if out is None:
        out = pool[key] = np.zeros(shape, dtype)
    elif zero:
        out.fill(0)
    return out


ROW = np.int32  # a deal's sums are small integers: half the bytes of int64 to write and read


def _all_pairs(measures: int) -> np.ndarray:
    return np.array([(m, k) for m in range(measures) for k in range(measures)], np.int64).reshape(-1, 2)


class Counts:
    """Histograms of one measure by group, over a chunk: counts[g, v], widened as values need."""

    def __init__(self, groups: int, width: int = 256):
        self.counts = np.zeros((groups, width), np.int64)

    @property
    def width(self) -> int:
        return self.counts.shape[1]

    def widen(self, width: int) -> None:
        """Room for values below `width` (at least double the width: few widenings)."""
        if width > self.width:
            wider = np.zeros((len(self.counts), max(width, 2 * self.width)), np.int64)
            wider[:, :self.width] = self.counts
            self.counts = wider

    def add(self, counts: np.ndarray, groups: list[int]) -> None:
        """counts[i, v] into group groups[i]."""
        self.widen(counts.shape[1])
        self.counts[groups, :counts.shape[1]] += counts

    def by_group(self) -> dict[int, np.ndarray]:
        """The groups that counted anything: their counts by value."""
        return {g: np.trim_zeros(row, "b") for g, row in enumerate(self.counts) if row.any()}


class Scratch:
    """Per-deal sums of some groups, sums[d, g, m], over a chunk's deal slots 0..deals-1, then
    their moments. Taken from the pool, the sums are
    zero: `moments` leaves them so, and any other way out of a scratch (an error, an interrupt)
    leaves them marked for zeroing."""

    def __init__(self, groups: int, deals: int, measures: int, pool: dict | None = None, name: str = "sums",
                 dtype=np.int64):
        shape = (deals, groups, measures)
        name = f"sums {name}"  # two scratches alive at once: two names; and none of other buffers
        self._pool, self._clean = pool, ("clean", name, shape, np.dtype(dtype).str)
        clean = pool.pop(self._clean, False) if pool is not None else True
        self.sums = buffer(shape, pool, name, zero=not clean, dtype=dtype)

    def moments(self, pairs: np.ndarray | None = None, want: np.ndarray | None = None,
                pooled: "Scratch | None" = None, into: dict[int, int] | None = None) -> Moments:
        """The groups' moments, with the cross moments of each pair (g, b) of `pairs` [P, 2];
        `want` [W, 2] lists the (m, k) whose products are summed (default: all). Group g's sums
        are also added to pooled's group into[g]. Once per scratch."""
        _, groups, measures = self.sums.shape
        pairs = np.zeros((0, 2), np.int64) if pairs is None else np.asarray(pairs, np.int64).reshape(-1, 2)
        want = _all_pairs(measures) if want is None else np.asarray(want, np.int64).reshape(-1, 2)
        asked = [(g, m, g, k) for g in range(groups) for m, k in want]
        asked += [(g, m, b, k) for g, b in pairs for m, k in want]
        first = np.array([g * measures + m for g, m, _, _ in asked], np.int64)
        second = np.array([b * measures + k for _, _, b, k in asked], np.int64)
        present, total = np.zeros(groups * measures, np.int64), np.zeros(groups * measures, np.int64)
        products = np.zeros(len(asked), np.int64)
        into = into or {}
        fold(self.sums, first, second, present, total, products, np.array(list(into), np.int64),
             pooled.sums if pooled is not None else np.zeros((1, 1, 1), self.sums.dtype),
             np.array(list(into.values()), np.int64))
        if self._pool is not None:
            self._pool[self._clean] = True
        out = Moments.zeros(groups, measures, len(pairs))
        out.present[:], out.total[:] = present.reshape(groups, measures), total.reshape(groups, measures)
        w = len(want)
        out.gram[:, want[:, 0], want[:, 1]] = products[:groups * w].reshape(groups, w)
        out.cross[:, want[:, 0], want[:, 1]] = products[groups * w:].reshape(len(pairs), w)
        return out
