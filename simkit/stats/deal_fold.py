"""How deals are added to the grouped moments of a spec's `by` (simkit.stats.deal_groups): a
fold, one per engine call, that a game's engine adds each deal to as it plays it (while the
deal's results are in the cache, on the engine's threads), or that `fold` adds deals to
afterwards, from their results and what each seat was dealt; one piece of code, `add_deal`,
for both.

Seat s of replay r is in group g = kind[r, s] * groups + its key k, the seat's feature values
in mixed radix (radix[j] values each, the first slowest); v_d holds per group the sum S_dg of
the seat measure over the deal's seats and replays and their rows C_dg. The rows depend on the
deal only through the seats' keys, C_dg = Σ_s A[s, κ_g] [key_ds = k_g], A[s, κ] the replays in
which seat s plays kind κ (fixed for the call), so their products come from counts per class of
seats with equal A: H[c, k] = Σ_d #{s in c: key_ds = k}, T[c, g, k] = Σ_d S_dg #{s in c: key_ds
= k} and U[c, c', k, k'] = Σ_d #{s in c, s' in c': key_ds = k, key_ds' = k'}; the products of
sums add each pair of entries with a measure once (a measure of zero, a quarter of the seats in
Who's the Ass?, adds nothing; merging entries by group first measured slower). At 4 players
rotated about 170 additions a deal, against 544 adding every product of entries (x, 1). Each
block of the caller adds into its own part, summed at the end (`finish`): whole numbers, the
same totals for any split.
"""

import numba as nb
import numpy as np
from numba import types

from simkit.core.blocks import most_blocks

_I64 = [types.Array(types.int64, d, "C") for d in range(1, 6)]
# the fold's arrays, laid flat (a parallel loop takes no tuple within a tuple): 0 columns, 1 radix,
# 2 kind[replay, seat], 3 class of each seat; a part per block: 4 sums[b, g], 5 squares[b, g],
# 6 pairs[b, g, g'], 7 H[b, c, k], 8 T[b, c, g, k], 9 U[b, c, c', k, k']; a block's scratch: 10 at[b, i],
# 11 x[b, i], 12 key[b, s], 13 the deal's marks[b, 3, s] (class, key, seats), 14 features[b, s, f]
FOLD = types.Tuple((_I64[0], _I64[0], _I64[1], _I64[0], _I64[1], _I64[1], _I64[2], _I64[2], _I64[3], _I64[4],
                    _I64[1], _I64[1], _I64[1], _I64[2], types.Array(types.int16, 3, "C")))


@nb.njit(inline="always", cache=True)
def folding(fold):
    """Whether the engine is given a fold (an empty one: no `by`)."""
    return fold[2].shape[0] > 0


@nb.njit(inline="always", cache=True)
def features_of(fold, b):
    """Block b's row of what each seat of the deal being played was dealt ([seat, feature]): the
    engine counts a deal's features into it as it deals, `add_deal` reads them."""
    return fold[14][b]


@nb.njit(inline="always", cache=True)
def add_deal(fold, b, values, d, dealt):
    """Deal d of values[r, d, s] (the seat measure of seat s in replay r), each seat dealt
    dealt[s, :], into block b's part of the fold."""
    columns, radix, kind, cls = fold[0], fold[1], fold[2], fold[3]
    f, sq, p, h, t, u = fold[4][b], fold[5][b], fold[6][b], fold[7][b], fold[8][b], fold[9][b]
    at, x, key, marks = fold[10][b], fold[11][b], fold[12][b], fold[13][b]
    groups = h.shape[1]
    replays, n = kind.shape
    count = 0  # the deal's distinct (class, key) of seats, and how many seats each
    for s in range(n):
        k = 0
        for j in range(columns.shape[0]):
            k = k * radix[j] + dealt[s, columns[j]]
        key[s] = k
        c = cls[s]
        found = False
        for a in range(count):
            if marks[1, a] == k and marks[0, a] == c:
                marks[2, a] += 1
                found = True
                break
        if not found:
            marks[0, count], marks[1, count], marks[2, count] = c, k, 1
            count += 1
    for a in range(count):
        h[marks[0, a], marks[1, a]] += marks[2, a]
        for a2 in range(count):
            u[marks[0, a], marks[0, a2], marks[1, a], marks[1, a2]] += marks[2, a] * marks[2, a2]
    m = 0  # the entries with a measure
    for r in range(replays):
        for s in range(n):
            xi = np.int64(values[r, d, s])
            if xi != 0 and kind[r, s] >= 0:
                g = kind[r, s] * groups + key[s]
                at[m], x[m] = g, xi
                f[g] += xi
                sq[g] += xi * xi
                for a in range(count):
                    t[marks[0, a], g, marks[1, a]] += xi * marks[2, a]
                m += 1
    for i in range(m):
        gi, xi = at[i], x[i]
        for j in range(i + 1, m):
            p[gi, at[j]] += xi * x[j]


@nb.njit(cache=True, parallel=True)
def _fold_deals(fold, values, dealt, blocks):
    deals = values.shape[1]
    for b in nb.prange(blocks):
        for d in range(b * deals // blocks, (b + 1) * deals // blocks):
            add_deal(fold, b, values, d, dealt[d])


@nb.njit(cache=True)
def _finish(fold, first, second):
    """The blocks' parts summed into Σ v_d (first) and Σ v_d v_dᵀ (second), as the module says."""
    kind, cls = fold[2], fold[3]
    f, sq, p = fold[4].sum(axis=0), fold[5].sum(axis=0), fold[6].sum(axis=0)
    h, t, u = fold[7].sum(axis=0), fold[8].sum(axis=0), fold[9].sum(axis=0)
    groups, size = h.shape[1], f.shape[0]
    replays, n = kind.shape
    classes = h.shape[0]
    per = np.zeros((classes, size // groups), np.int64)  # A of each class
    for s in range(n):
        if per[cls[s]].sum() == 0:
            for r in range(replays):
                if kind[r, s] >= 0:
                    per[cls[s], kind[r, s]] += 1
    for g in range(size):
        kg, k = g // groups, g % groups
        first[2 * g] += f[g]
        second[2 * g, 2 * g] += sq[g]
        for c in range(classes):
            first[2 * g + 1] += per[c, kg] * h[c, k]
        for g2 in range(size):
            kg2, k2 = g2 // groups, g2 % groups
            second[2 * g, 2 * g2] += p[g, g2] + p[g2, g]
            with_row = 0
            for c in range(classes):
                with_row += per[c, kg2] * t[c, g, k2]
            second[2 * g, 2 * g2 + 1] += with_row
            second[2 * g2 + 1, 2 * g] += with_row
            both = 0
            for c in range(classes):
                for c2 in range(classes):
                    both += per[c, kg] * per[c2, kg2] * u[c, c2, k, k2]
            second[2 * g + 1, 2 * g2 + 1] += both


class DealFold:
    """The fold of one engine call: seat s of replay r counts as kind[r, s] (-1: not grouped), the
    features `columns` of what it was dealt with tops `tops`, over `features` columns; `arrays`
    is what the engine (or `add`) takes, `finish` adds it all to the moments."""

    def __init__(self, kind: np.ndarray, kinds: int, columns: tuple[int, ...], tops: tuple[int, ...],
                 features: int, blocks: int | None = None):
        kind = np.ascontiguousarray(kind, np.int64)
        replays, n = kind.shape
        groups = int(np.prod([t + 1 for t in tops]))
        seen = {}  # seats with equal counts of replays per kind: one class
        counts = [tuple(np.bincount(kind[:, s][kind[:, s] >= 0], minlength=kinds)) for s in range(n)]
        cls = np.array([seen.setdefault(c, len(seen)) for c in counts], np.int64)
        classes, size, blocks = len(seen), kinds * groups, blocks or most_blocks()
        zeros = lambda *shape: np.zeros((blocks,) + shape, np.int64)  # noqa: E731
        self.size = size
        self.arrays = (np.array(columns, np.int64), np.array([t + 1 for t in tops], np.int64), kind, cls,
                       zeros(size), zeros(size), zeros(size, size), zeros(classes, groups),
                       zeros(classes, size, groups), zeros(classes, classes, groups, groups),
                       zeros(replays * n), zeros(replays * n), zeros(n), zeros(3, n),
                       np.zeros((blocks, n, features), np.int16))

    @staticmethod
    def off() -> tuple:
        """The empty fold: the engine adds nothing."""
        return (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, 0), np.int64), np.zeros(0, np.int64),
                *(np.zeros((0,) * d, np.int64) for d in (2, 2, 3, 3, 4, 5, 2, 2, 2, 3)),
                np.zeros((0, 0, 0), np.int16))

    def add(self, values: np.ndarray, dealt: np.ndarray) -> None:
        """Deals of values[replay, deal, seat] (whole numbers), each seat dealt dealt[deal, seat, :]."""
        blocks = max(1, min(values.shape[1], self.arrays[4].shape[0]))
        _fold_deals(self.arrays, values, dealt, blocks)

    def finish(self) -> tuple[np.ndarray, np.ndarray]:
        """Σ v_d and Σ v_d v_dᵀ of the deals added (2 * size, and its square)."""
        first, second = np.zeros(2 * self.size, np.int64), np.zeros((2 * self.size, 2 * self.size), np.int64)
        _finish(self.arrays, first, second)
        return first, second


def fold_blocks(fold: tuple, blocks: int) -> int:
    """An engine call's blocks, checked against the fold's parts (a part per block, or none)."""
    if fold[4].shape[0] and fold[4].shape[0] < blocks:
        raise ValueError(f"a fold of {fold[4].shape[0]} blocks given to an engine call of {blocks}")
    return blocks
