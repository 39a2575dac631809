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
The engine's drivers add each played row to the per-deal sums as they play (simkit.stats.tally);
`fold` turns the sums into moments, compiled. A chunk's memory is reused from chunk to chunk
and its per-deal sums are int32 where they fit: what the reduction costs is mostly the memory
it passes through.
"""

import functools
from dataclasses import dataclass

import numba as nb
import numpy as np

from simkit.core.blocks import block_range

BLOCKS = 64  # fold's partial sums: a fixed split of the deal slots (integers: any split gives the same sums)


@nb.njit(cache=True, _nrt=False)
def fold_deals(sums, slots, count, folding, part):
    """Fold deals 0..count-1, whose sums are sums[j, i] = S_m of group g in deal i at column
    j = g * M + m, into part `part` of the folding's moments (its arrays, see `Folding`): total[j]
    = sum of S_j, products[q] = sum of S_first[q] S_second[q] (the Gram and cross moments asked
    for), and for the columns j = counted[c] (the measures that are denominators) present[c] the
    deals with S_j != 0; groups pool_from[k] are also added to the pooled sums' groups pool_to[k]
    in deal slot slots[i] (sums pooled over cells). Column by column (sums is usually a transposed
    view of a deal's rows). Every deal is folded, so the sums run over every deal: a group
    without rows in a deal (S_0 = 0) has all its sums 0 there."""
    first, second, counted, present, total, products, pool_from, pool_to, pooled = folding
    measures = pooled.shape[2]
    for k in range(pool_from.shape[0]):
        for m in range(measures):
            j, to = pool_from[k] * measures + m, pool_to[k]
            for i in range(count):
                pooled[slots[i], to, m] += sums[j, i]
    for j in range(sums.shape[0]):
        s = 0
        for i in range(count):
            s += sums[j, i]
        total[part, j] += s
    for c in range(counted.shape[0]):
        j, s = counted[c], 0
        for i in range(count):
            s += sums[j, i] != 0
        present[part, c] += s
    for q in range(first.shape[0]):
        a, b, s = first[q], second[q], 0
        for i in range(count):
            s += np.int64(sums[a, i]) * np.int64(sums[b, i])
        products[part, q] += s


@nb.njit(parallel=True, cache=True)
def fold(sums, folding):
    """`fold_deals` of every deal slot of per-deal sums[d, g, m], on all threads (part p of the
    folding folds the p-th of its parts of the slots), leaving them zero."""
    first, second, counted, present, total, products, pool_from, pool_to, pooled = folding  # a parallel loop
    parts, deals = present.shape[0], sums.shape[0]  # takes arrays, not a tuple of them
    flat = sums.reshape(deals, sums.shape[1] * sums.shape[2])
    for part in nb.prange(parts):
        lo, hi = block_range(part, parts, deals)
        fold_deals(flat[lo:hi].T, np.arange(lo, hi), hi - lo, (first, second, counted, present, total, products,
                                                                pool_from, pool_to, pooled), part)
        flat[lo:hi] = 0


_SMALL = 2 ** 62  # two int64 values below this in size add up without overflow


def exact_add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a + b exactly: in int64 while both are well inside its range, else as Python integers."""
    if a.dtype == b.dtype == np.int64 and all(x.size == 0 or -_SMALL < x.min() and x.max() < _SMALL for x in (a, b)):
        return a + b
    return a.astype(object) + b.astype(object)


def compact(a: np.ndarray) -> np.ndarray:
    """Integers as int64 where every one fits (Python integers, as an object array, otherwise)."""
    if a.dtype == object and (a.size == 0 or -_SMALL < min(a.flat) and max(a.flat) < _SMALL):
        return a.astype(np.int64)
    return a


@dataclass
class Moments:
    """The moments of groups 0..G-1 over measures 0..M-1, and of pairs 0..P-1 of them (int64, or
    Python integers as object arrays where merging grows them beyond int64's safe range)."""

    present: np.ndarray  # [G, M]
    total: np.ndarray    # [G, M]
    gram: np.ndarray     # [G, M, M]
    cross: np.ndarray    # [P, M, M]

    @classmethod
    def zeros(cls, groups: int, measures: int, pairs: int = 0, dtype=np.int64) -> "Moments":
        return cls(np.zeros((groups, measures), dtype), np.zeros((groups, measures), dtype),
                   np.zeros((groups, measures, measures), dtype), np.zeros((pairs, measures, measures), dtype))

    def __add__(self, other: "Moments") -> "Moments":
        return Moments(*(exact_add(a, b) for a, b in zip(self.parts(), other.parts())))

    def parts(self) -> tuple[np.ndarray, ...]:
        return self.present, self.total, self.gram, self.cross

    def place(self, groups: list[int], part: "Moments") -> None:
        """Set groups `groups` to part's groups 0.. (its pairs are left to the caller)."""
        for whole, piece in zip(self.parts()[:3], part.parts()[:3]):
            whole[groups] = piece

    def __eq__(self, other) -> bool:
        return all(a.shape == b.shape and (a == b).all() for a, b in zip(self.parts(), other.parts()))

    def head(self, groups: int) -> "Moments":
        """Groups 0..groups-1 alone (no pairs)."""
        return Moments(self.present[:groups], self.total[:groups], self.gram[:groups], self.cross[:0])



def fill_known(m: Moments, counts: tuple[int, ...], pairs: tuple[tuple[int, int], ...] = ()) -> None:
    """Complete the moments that involve a count measure known to be the same in every deal (a
    group's rows when every deal is one hand, round or match in each rotation): with C_d = c for
    all n deals, Σ S_a C = c ΣS_a and Σ S^g_a C^b = c_b ΣS^g_a, exactly. So the engine need not
    fold those products (folding skips them); filled here, the moments are what folding them
    would have given. Pairs (g, b) are m.cross's, in order."""
    n = m.present[:, 0]  # the deals a group is in (measure 0 counts its rows)
    for k in counts:
        c = np.where(n > 0, m.total[:, k] // np.maximum(n, 1), 0)
        if (c * n != m.total[:, k]).any():
            raise ValueError("a count measure differs between deals: its moments must be folded")
        m.gram[:, :, k] = m.gram[:, k, :] = c[:, None] * m.total
        for p, (g, b) in enumerate(pairs):
            m.cross[p, :, k] = c[b] * m.total[g]
            m.cross[p, k, :] = c[g] * m.total[b]


class Folding:
    """What folding some groups' per-deal sums[d, g, m] asks for, and its moments in `parts`
    partial sums (one per block or thread that folds): every group's Gram moments of the (m, k)
    in `want` (default: all), the cross moments of each pair (g, b) of `pairs` [P, 2] of the
    (m, k) in `pair_want` (default: `want`), the deals where a measure of `counted` (default: all)
    is not zero, and for each (g, t) of `into` group g's sums added to `pooled`'s group t (a group
    may go to several: a cell's sums pooled, a rule variant's copied). Groups from `narrow` on
    (default: none) ask for `pair_want`'s Gram moments only: the products a mean's interval
    needs, where nothing else of them is reported. `arrays` is what `fold_deals` takes."""

    def __init__(self, groups: int, measures: int, parts: int, pairs: np.ndarray | None = None,
                 want: np.ndarray | None = None, pooled: np.ndarray | None = None,
                 into: list[tuple[int, int]] | None = None, dtype=np.int64, counted: tuple[int, ...] | None = None,
                 pair_want: np.ndarray | None = None, narrow: int | None = None):
        self.groups, self.measures = groups, measures
        self.narrow = groups if narrow is None else min(narrow, groups)
        self.counted = tuple(range(measures)) if counted is None else tuple(counted)
        self.pairs = np.zeros((0, 2), np.int64) if pairs is None else np.asarray(pairs, np.int64).reshape(-1, 2)
        self.want = _all_pairs(measures) if want is None else np.asarray(want, np.int64).reshape(-1, 2)
        self.pair_want = self.want if pair_want is None else np.asarray(pair_want, np.int64).reshape(-1, 2)
        self.own, self.own_narrow, first, second, columns = _asked(
            groups, measures, self.counted, self.pairs.tobytes(), self.want.tobytes(), self.pair_want.tobytes(),
            self.narrow)
        into = np.array(into or [], np.int64).reshape(-1, 2)
        self._own_placement: tuple | None = None
        self.arrays = (first, second, columns,
                       np.zeros((parts, len(columns)), np.int64), np.zeros((parts, groups * measures), np.int64),
                       np.zeros((parts, len(first)), np.int64), into[:, 0].copy(), into[:, 1].copy(),
                       pooled if pooled is not None else np.zeros((1, 1, 1), dtype))

    def reset(self, pooled: np.ndarray | None = None) -> None:
        """Fold again from nothing (the next chunk), its pooled sums into `pooled` if given: what a
        folding asks for is made once per run, not once per chunk."""
        for a in self.arrays[3:6]:
            a.fill(0)
        if pooled is not None:
            self.arrays = self.arrays[:8] + (pooled,)

    @staticmethod
    @functools.cache
    def off(dtype=np.int64) -> tuple:
        """Folding nothing (empty arrays: nothing can change them, so one serves every call)."""
        empty = np.zeros(0, np.int64)
        return (empty, empty, empty, np.zeros((0, 0), np.int64), np.zeros((0, 0), np.int64),
                np.zeros((0, 0), np.int64), empty, empty, np.zeros((0, 0, 0), dtype))

    def moments(self) -> Moments:
        """The moments of everything folded so far (the parts added up)."""
        out = Moments.zeros(self.groups, self.measures, len(self.pairs))
        if self._own_placement is None:
            self._own_placement = self.placement(np.arange(self.groups),
                                                 [(k, k, False) for k in range(len(self.pairs))])
        self.into(out, self._own_placement)
        return out

    def placement(self, rows: np.ndarray, pairs: list[tuple[int, int, bool]]) -> tuple[np.ndarray, ...]:
        """Where `into` puts what is folded here in Moments of the same measures: group g in row
        rows[g]; for each (p, k, transposed) of `pairs`, pair k as pair p (its measures swapped if
        transposed). Flat positions, so that placing is a few numpy calls."""
        m = self.measures
        rows = np.asarray(rows, np.int64)
        (present_g, present_at), (total_g, total_at), (gram_g, first_at, second_at) = _placed(
            self.groups, m, self.counted, self.own.tobytes(), self.own_narrow.tobytes(), self.narrow)
        at = len(gram_g)
        w = len(self.pair_want)
        source, target = [np.arange(at)], []
        for p, k, transposed in pairs:
            a, b = (self.pair_want[:, 1], self.pair_want[:, 0]) if transposed else self.pair_want.T
            source.append(at + k * w + np.arange(w))
            target.append(p * m * m + a * m + b)
        gram = rows[gram_g] * m * m
        return (rows[present_g] * m + present_at, rows[total_g] * m + total_at, gram + first_at, gram + second_at,
                np.concatenate(source), np.concatenate(target or [np.zeros(0, np.int64)]), at)

    def into(self, out: Moments, placement: tuple[np.ndarray, ...]) -> None:
        """Set `out`'s rows and pairs that `placement` names to the moments folded so far."""
        present, total, first, second, source, target, at = placement
        sums = [a.sum(axis=0) for a in self.arrays[3:6]]
        products = sums[2][source]
        np.put(out.present, present, sums[0])
        np.put(out.total, total, sums[1])
        np.put(out.gram, first, products[:at])
        np.put(out.gram, second, products[:at])
        np.put(out.cross, target, products[at:])


@functools.lru_cache(maxsize=64)
def _asked(groups: int, measures: int, counted: tuple[int, ...], pairs: bytes, want: bytes,
           pair_want: bytes, narrow: int) -> tuple[np.ndarray, ...]:
    """`Folding`'s index arrays (the cells of a run mostly share them: made once): the (m, k) of
    a group's own products (groups 0..narrow-1, then the others'), each product's first and
    second column, the columns counted (shared: nothing writes them)."""
    pairs_, want_, pair_want_ = (np.frombuffer(b, np.int64).reshape(-1, 2) for b in (pairs, want, pair_want))
    owns = [_symmetric(want_), _symmetric(pair_want_)]
    spans = [np.arange(narrow)[:, None], np.arange(narrow, groups)[:, None]]  # a group's S_m S_k = S_k S_m: once
    first = np.concatenate([(g * measures + own[:, 0]).ravel() for g, own in zip(spans, owns)]
                           + [(pairs_[:, :1] * measures + pair_want_[:, 0]).ravel()])
    second = np.concatenate([(g * measures + own[:, 1]).ravel() for g, own in zip(spans, owns)]
                            + [(pairs_[:, 1:] * measures + pair_want_[:, 1]).ravel()])
    columns = (np.arange(groups)[:, None] * measures + np.array(counted, np.int64)).ravel()
    return owns[0], owns[1], first, second, columns


@functools.lru_cache(maxsize=64)
def _placed(groups: int, measures: int, counted: tuple[int, ...], own: bytes, own_narrow: bytes,
            narrow: int) -> tuple[tuple[np.ndarray, ...], ...]:
    """`Folding.placement`'s positions within a group (the cells of a run mostly share them: made
    once): for present, total and the Gram products, each entry's group, then its place in the
    group's row of present and total, or (as m * M + k, and k * M + m) of its Gram matrix."""
    m = measures
    counted_ = np.array(counted, np.int64)
    present = (np.repeat(np.arange(groups), len(counted_)), np.tile(counted_, groups))
    total = (np.repeat(np.arange(groups), m), np.tile(np.arange(m), groups))
    gram_g, first, second = [], [], []
    for lo, hi, asked in ((0, narrow, own), (narrow, groups, own_narrow)):
        asked_ = np.frombuffer(asked, np.int64).reshape(-1, 2)
        gram_g.append(np.repeat(np.arange(lo, hi), len(asked_)))
        first.append(np.tile(asked_[:, 0] * m + asked_[:, 1], hi - lo))
        second.append(np.tile(asked_[:, 1] * m + asked_[:, 0], hi - lo))
    return present, total, tuple(np.concatenate(x) for x in (gram_g, first, second))


def _symmetric(want: np.ndarray) -> np.ndarray:
    """The (m, k) of `want` with each unordered pair once."""
    wanted = set(map(tuple, want.tolist()))
    return np.array([(m, k) for m, k in sorted(wanted) if m <= k or (k, m) not in wanted], np.int64).reshape(-1, 2)


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
        ends = self.width - np.argmax(self.counts[:, ::-1] != 0, axis=1)  # past each group's last value
        return {int(g): self.counts[g, :ends[g]].copy() for g in np.flatnonzero(self.counts.any(axis=1))}


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
                pooled: "Scratch | None" = None, into: list[tuple[int, int]] | None = None,
                counted: tuple[int, ...] | None = None) -> Moments:
        """The groups' moments (`Folding`'s pairs, want, pooled sums, into and counted), folded
        on all threads. Once per scratch."""
        _, groups, measures = self.sums.shape
        folding = Folding(groups, measures, min(BLOCKS, len(self.sums)), pairs, want,
                          pooled.sums if pooled is not None else None, into, self.sums.dtype, counted)
        fold(self.sums, folding.arrays)
        self.folded()
        return folding.moments()

    def folded(self) -> None:
        """The sums are zero again (folded): the next scratch of this shape need not clear them."""
        if self._pool is not None:
            self._pool[self._clean] = True
