"""Exact, mergeable statistics of played deals: per group, the moments of its per-deal sums.

The rows of one deal (its seats, its rotated replays, an Ezelen match's rounds) share the cards,
so intervals are taken over deals: each deal is one cluster. For a group g (a strategy in a cell,
a seat, a table) and a measure x (a small integer: penalty points, a lost round, tricks), deal d
gives S = the sum of x over g's rows in d and C = the number of those rows. Everything the
report needs of a ratio mean ΣS/ΣC and its interval over deals is in

    n (deals where g has rows), ΣS, ΣC, ΣS², ΣC², ΣSC,

and, for a paired difference to a baseline group b on the same deals, the cross moments
ΣS·S_b, ΣS·C_b, ΣC·S_b, ΣC·C_b. They are integers, so merging chunks, threads, resumed runs or
workers is integer addition: bit-identical whatever the split. A chunk keeps them in int64 (a
chunk is small); `merge` adds chunks as Python integers, which never overflow.

`accumulate` adds one engine call's rows to per-deal scratch sums, `fold` turns the scratch into
moments; both are compiled and allocate nothing.
"""

import numba as nb
import numpy as np

# the moments of one (group, measure), in this order
MOMENTS = ("n", "s", "c", "ss", "cc", "sc", "s_sb", "s_cb", "c_sb", "c_cb")
N, S, C, SS, CC, SC, S_SB, S_CB, C_SB, C_CB = range(len(MOMENTS))


@nb.njit(cache=True, _nrt=False)
def accumulate(x, deal, group, sums, counts):
    """Add rows to the per-deal scratch: x[r, seat, m] is measure m of seat `seat` in row r (a
    hand, a round), deal[r] the row's deal slot, group[k, seat] the seat's group in grouping k
    (-1: none). sums[g, d, m] and counts[g, d] are the group's sum and row count in deal slot d."""
    rows, seats, measures = x.shape
    for r in range(rows):
        d = deal[r]
        for k in range(group.shape[0]):
            for s in range(seats):
                g = group[k, s]
                if g < 0:
                    continue
                counts[g, d] += 1
                for m in range(measures):
                    sums[g, d, m] += x[r, s, m]


@nb.njit(cache=True, _nrt=False)
def fold(sums, counts, base, out):
    """Add the moments of every group over the deal slots to out[g, m, :] (MOMENTS order);
    base[g] is the group a paired difference compares g with (-1: none)."""
    groups, deals, measures = sums.shape
    for g in range(groups):
        b = base[g]
        for d in range(deals):
            c = counts[g, d]
            if c == 0:
                continue
            cb = counts[b, d] if b >= 0 else 0
            for m in range(measures):
                s = sums[g, d, m]
                sb = sums[b, d, m] if b >= 0 else 0
                out[g, m, N] += 1
                out[g, m, S] += s
                out[g, m, C] += c
                out[g, m, SS] += s * s
                out[g, m, CC] += c * c
                out[g, m, SC] += s * c
                out[g, m, S_SB] += s * sb
                out[g, m, S_CB] += s * cb
                out[g, m, C_SB] += c * sb
                out[g, m, C_CB] += c * cb

class Scratch:
    """Per-deal sums of a chunk's groups, then their moments (one chunk: its deal slots 0..deals-1)."""

    def __init__(self, groups: int, deals: int, measures: int):
        self.sums = np.zeros((groups, deals, measures), np.int64)
        self.counts = np.zeros((groups, deals), np.int64)

    def add(self, x: np.ndarray, deal: np.ndarray, group: np.ndarray) -> None:
        """Rows x[row, seat, measure] of deal slots deal[row]; group[grouping, seat] as in `accumulate`."""
        accumulate(np.ascontiguousarray(x, np.int64), np.ascontiguousarray(deal, np.int64),
                   np.ascontiguousarray(group, np.int64), self.sums, self.counts)

    def moments(self, base: np.ndarray) -> np.ndarray:
        """[group, measure, MOMENTS] as int64; base[g] is g's baseline group (-1: none)."""
        out = np.zeros(self.sums.shape[:1] + self.sums.shape[2:] + (len(MOMENTS),), np.int64)
        fold(self.sums, self.counts, np.ascontiguousarray(base, np.int64), out)
        return out


def merge(parts: list[np.ndarray]) -> np.ndarray:
    """The moments of several chunks together, exactly: as Python integers (an object array)."""
    total = np.zeros(parts[0].shape, dtype=object)
    for part in parts:
        total += part.astype(object)
    return total
