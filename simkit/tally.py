"""What an engine's parallel driver adds the deals it plays into, block by block as it plays: the
run's per-deal sums (simkit.moments) and histograms, so a run never writes a row per hand to
reduce later.

A tally is one tuple of flat arrays (numba-typed as TALLY, or TALLY_WIDE where a deal's sums need
int64): the seats' groups, the per-deal sums of the seat groups and of the table, the head-to-head
sides, which measures the histograms count, and the histograms themselves, one partial count per
block of the driver (integers: any split of the deals into blocks gives the same totals).

A block gathers up to ROWS rows (a hand, a round, the end of a match: a seat row per seat and a
table row, filled by its game's measures) in small buffers and hands them to `add_rows`, which
adds them while they are in the cache. The table's last two measures are the replay's: a row
with `replays` 1 ends this replay of its deal, and the replay's head to head is then taken from
the seat rows it had. An empty tally (`Tally.off`) adds nothing: the engine alone.
"""

import functools

import numba as nb
import numpy as np
from numba import types

from simkit.blocks import most_blocks
from simkit.moments import Folding, fold_slots

ROWS = 64  # rows a block gathers before adding them: small enough for the first-level cache

_I64_1D = types.Array(types.int64, 1, "C")
_I64_2D = types.Array(types.int64, 2, "C")
_I64_3D = types.Array(types.int64, 3, "C")


def _folding_types(sums: types.Array) -> tuple:
    """simkit.moments.Folding's arrays (a parallel loop takes no tuple within a tuple: laid flat)."""
    return (_I64_1D, _I64_1D, _I64_2D, _I64_2D, _I64_2D, _I64_1D, _I64_1D, sums)


def _tally_type(sums: types.Array) -> types.Tuple:
    return types.Tuple((
        _I64_2D,   # 0 group[k, seat]: the seat's group in grouping k (-1: none)
        sums,      # 1 seat sums[deal slot, group, measure]
        sums,      # 2 table sums[deal slot, 0, measure]
        _I64_1D,   # 3 side[seat]: 0, 1 in a head to head, else -1
        _I64_1D,   # 4 plan: main, seat histogram measure, table histogram measure, the table measure that
        #              keeps a row in it (-1: none), add the sums (1) or count only (0), fold each deal slot
        #              as its replay ends (1: the last replay of its cell)
        _I64_1D,   # 5 the seat histogram's group of each seat
        _I64_3D,   # 6 seat histogram[block, group, value]
        _I64_2D,   # 7 table histogram[block, value]
        _I64_2D,   # 8 over[block, 2]: the largest seat, table value that did not fit, + 1
    ) + _folding_types(sums)  # 9..16 how the seat sums fold (simkit.moments.Folding, a part per block)
      + _folding_types(sums))  # 17..24 how the table sums fold


TALLY = _tally_type(types.Array(types.int32, 3, "C"))
TALLY_WIDE = _tally_type(types.Array(types.int64, 3, "C"))
MAIN, SEAT_HISTOGRAM, TABLE_HISTOGRAM, TABLE_KEEP, SUMS, FOLD = range(6)


@nb.njit(inline="always", cache=True)
def counting(tally):
    """Whether this tally takes anything (an empty one: the engine alone)."""
    return tally[4].shape[0] > 0


@nb.njit(cache=True)
def buffers(tally, seats):
    """A block's row buffers: deal slots [ROWS], seat rows [ROWS, seat, measure], table rows
    [ROWS, measure]; and what it keeps from one call of `add_rows` to the next: the head-to-head
    sums of its replay so far [seat, 2] (rows, main), room for the deal slots to fold [ROWS]."""
    return (np.zeros(ROWS, dtype=np.int64), np.zeros((ROWS, seats, max(tally[1].shape[2], 1)), dtype=np.int64),
            np.zeros((ROWS, max(tally[2].shape[2], 2)), dtype=np.int64),
            (np.zeros((seats + 1, 2), dtype=np.int64), np.zeros(ROWS, dtype=np.int64)))


@nb.njit(cache=True)
def add_rows(tally, b, deal, seat, table, count, kept):
    """Rows 0..count-1 of block b's buffers into the tally: row i of deal slot deal[i] into the
    sums of every group of every seat and of the table, and into the histograms; a row whose
    `replays` is 1 ends its deal's replay, whose head to head (with `kept`'s sums of the
    replay's earlier rows, if any) goes into the table's last measure, and which is folded if
    this is the last replay of its cell."""
    group, seat_sums, table_sums, side, plan, into, seat_hist, table_hist, over = tally[:9]
    mine, ended = kept  # mine[s, 0..1]: earlier rows' rows, main of seat s; mine[n, 0]: 1 if there are any
    n, measures, width = seat.shape[1], seat.shape[2], table.shape[1]
    main, seat_hm, table_hm, keep, sums = plan[MAIN], plan[SEAT_HISTOGRAM], plan[TABLE_HISTOGRAM], plan[TABLE_KEEP], \
        plan[SUMS] != 0
    folding = sums and plan[FOLD] != 0
    done = 0
    pairs = False
    for s in range(n):
        pairs |= side[s] == 1
    for i in range(count):
        d = deal[i]
        if sums:
            for k in range(group.shape[0]):
                for s in range(n):
                    g = group[k, s]
                    if g >= 0:
                        if measures == 4:  # the common width, written out: a third faster than the loop
                            seat_sums[d, g, 0] += seat[i, s, 0]
                            seat_sums[d, g, 1] += seat[i, s, 1]
                            seat_sums[d, g, 2] += seat[i, s, 2]
                            seat_sums[d, g, 3] += seat[i, s, 3]
                        else:
                            for m in range(measures):
                                seat_sums[d, g, m] += seat[i, s, m]
            for m in range(width - 1):
                table_sums[d, 0, m] += table[i, m]
            if pairs:
                if table[i, width - 2] > 0:
                    table_sums[d, 0, width - 1] += beat(mine, seat, i, side, main, n)
                    if mine[n, 0]:
                        mine[:] = 0
                else:
                    for s in range(n):
                        mine[s, 0] += seat[i, s, 0]
                        mine[s, 1] += seat[i, s, main]
                    mine[n, 0] = 1
            if folding and table[i, width - 2] > 0:
                ended[done] = d
                done += 1
        if seat_hm >= 0:
            for s in range(n):
                v = seat[i, s, seat_hm]
                if seat[i, s, 0] > 0 and v >= 0:
                    if v < seat_hist.shape[2]:
                        seat_hist[b, into[s], v] += 1
                    elif v >= over[b, 0]:
                        over[b, 0] = v + 1
        if table_hm >= 0 and (keep < 0 or table[i, keep] > 0):
            v = table[i, table_hm]
            if v < table_hist.shape[1]:
                table_hist[b, v] += 1
            elif v >= over[b, 1]:
                over[b, 1] = v + 1
    if done:
        fold_slots(seat_sums, ended, done, tally[9:17], b)
        fold_slots(table_sums, ended, done, tally[17:25], b)


@nb.njit(inline="always", cache=True)
def beat(mine, seat, i, side, main, n):
    """Between the seats of side 0 and side 1 (side[s], -1: neither) over a replay whose rows
    were mine[s, 0..1] (rows, main measure of seat s) before seat rows i: 2 if side 0's mean of
    the main measure is the lower, 1 if equal, 0 if higher (or a side is empty). Head to head
    over a whole table of two strategies."""
    sa = ca = sb = cb = 0
    for s in range(n):
        if side[s] == 0:
            ca += mine[s, 0] + seat[i, s, 0]
            sa += mine[s, 1] + seat[i, s, main]
        elif side[s] == 1:
            cb += mine[s, 0] + seat[i, s, 0]
            sb += mine[s, 1] + seat[i, s, main]
    a, z = sa * cb, sb * ca  # compared without branches: which side wins is a coin toss to the processor
    return (ca > 0) * (cb > 0) * (2 * (a < z) + (a == z))


class Tally:
    """A tally's arrays, made in Python for one engine call (the `arrays` tuple is what the
    driver takes); `off` is the empty one."""

    def __init__(self, group: np.ndarray, seat_sums: np.ndarray, table_sums: np.ndarray, side: np.ndarray,
                 main: int, seat_histogram: int | None = None, table_histogram: int | None = None,
                 table_keep: int | None = None, histogram_group: np.ndarray | None = None,
                 widths: tuple[int, int] = (1, 1), sums: bool = True,
                 folds: "tuple[Folding, Folding] | None" = None):
        """`folds`, the seat and table sums' foldings (with a part per block), if every deal
        slot is to be folded as its replay ends: the last replay of the sums' cell."""
        blocks = most_blocks()
        groups = 1 + int(np.max(histogram_group, initial=0)) if histogram_group is not None else 1
        self.seat_counts = np.zeros((blocks, groups, widths[0]), np.int64)
        self.table_counts = np.zeros((blocks, widths[1]), np.int64)
        self.over = np.zeros((blocks, 2), np.int64)
        plan = np.array([main, _or_none(seat_histogram), _or_none(table_histogram), _or_none(table_keep), int(sums),
                         int(folds is not None)], np.int64)
        off = Folding.off(seat_sums.dtype)
        into = np.zeros(len(side), np.int64) if histogram_group is None else histogram_group
        self.arrays = (np.ascontiguousarray(group, np.int64), seat_sums, table_sums,
                       np.ascontiguousarray(side, np.int64), plan, np.ascontiguousarray(into, np.int64),
                       self.seat_counts, self.table_counts, self.over) + (
            folds[0].arrays + folds[1].arrays if folds else off + off)

    @staticmethod
    @functools.cache
    def off(wide: bool = False) -> tuple:
        """The empty tally: the driver adds nothing (empty arrays: one serves every call)."""
        sums = np.zeros((0, 0, 0), np.int64 if wide else np.int32)
        return (np.zeros((0, 0), np.int64), sums, sums, np.zeros(0, np.int64), np.zeros(0, np.int64),
                np.zeros(0, np.int64), np.zeros((0, 0, 0), np.int64), np.zeros((0, 0), np.int64),
                np.zeros((0, 2), np.int64)) + Folding.off(sums.dtype) * 2

    def overflow(self) -> tuple[int, int]:
        """The widths the seat and table histograms would have needed (0: they fitted)."""
        return int(self.over[:, 0].max()), int(self.over[:, 1].max())


def slots(tally: tuple, lo: int, hi: int) -> tuple:
    """The tally whose deal slots are lo..hi-1 of `tally`'s: for one of several engine calls."""
    if tally[1].shape[0] == 0:
        return tally
    pooled = tally[16][lo:hi] if len(tally[14]) else tally[16]  # the seat folding's pooled sums, if it pools
    return (tally[0], tally[1][lo:hi], tally[2][lo:hi]) + tally[3:16] + (pooled,) + tally[17:]


def _or_none(m: int | None) -> int:
    return -1 if m is None else m
