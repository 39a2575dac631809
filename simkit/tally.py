"""What an engine's parallel driver adds the deals it plays into, as it plays them: a run's
statistics (simkit.moments), so a run never writes a row per hand to reduce later.

A driver plays each deal in every rotation of the lineup before the next deal. The tally keeps
the deal's sums for each group (a strategy, a seat) and for the table while its replays are
played, folds them into the moments as soon as its last replay ends (simkit.moments.fold_rows),
and counts the histograms: all in small arrays that stay in the cache, with one partial sum per
block of the driver (integers: any split of the deals into blocks gives the same totals).

A block gathers up to ROWS rows (a hand, a round, the end of a match, in the order played: a
seat row per seat and a table row, filled by its game's measures) with their deal slot and
rotation, and hands them to `add_rows`. The table's last two measures are the replay's: a row
whose `replays` is 1 ends its deal's replay in that rotation, and the replay's head to head is
then taken from the seat rows it had. A tally is one tuple of flat arrays (numba-typed TALLY, or
TALLY_WIDE where sums pooled over cells need int64); an empty one (`Tally.off`) takes nothing:
the engine alone.
"""

import functools

import numba as nb
import numpy as np
from numba import types

from simkit.blocks import most_blocks
from simkit.moments import Folding, fold_rows

ROWS = 64  # rows a block gathers before adding them: small enough for the first-level cache

_I64_1D = types.Array(types.int64, 1, "C")
_I64_2D = types.Array(types.int64, 2, "C")
_I64_3D = types.Array(types.int64, 3, "C")


def _folding_types(pooled: types.Array) -> tuple:
    """simkit.moments.Folding's arrays (a parallel loop takes no tuple within a tuple: laid flat)."""
    return (_I64_1D, _I64_1D, _I64_1D, _I64_2D, _I64_2D, _I64_2D, _I64_1D, _I64_1D, pooled)


def _tally_type(pooled: types.Array) -> types.Tuple:
    return types.Tuple((
        _I64_3D,   # 0 group[rotation, k, seat]: the seat's group in grouping k (-1: none)
        _I64_2D,   # 1 side[rotation, seat]: 0, 1 in a head to head, else -1
        _I64_1D,   # 2 plan (the names below)
        _I64_2D,   # 3 the seat histogram's group of each seat [rotation, seat]
        _I64_3D,   # 4 seat histogram[block, group, value]
        _I64_2D,   # 5 table histogram[block, value]
        _I64_2D,   # 6 over[block, 2]: the largest seat, table value that did not fit, + 1
        _I64_1D,   # 7 each group's rows in every deal, when they are known (one per seat and replay)
    ) + _folding_types(pooled)  # 8..16 how the groups' sums fold (a part per block)
      + _folding_types(pooled))  # 17..25 how the table's sums fold


TALLY = _tally_type(types.Array(types.int32, 3, "C"))
TALLY_WIDE = _tally_type(types.Array(types.int64, 3, "C"))
# plan: the main measure; the seat and table histograms' measures, the table measure that keeps a
# row in its histogram (-1: none); add and fold the sums (1) or only count (0); a head to head (1);
# the groups, seat measures, table measures; every row of the seats and the table counts one
# (1: their `rows` and the table's `replays` are known, not added)
MAIN, SEAT_HISTOGRAM, TABLE_HISTOGRAM, TABLE_KEEP, SUMS, PAIRS, GROUPS, MEASURES, TABLE_MEASURES, KNOWN = range(10)


@nb.njit(inline="always", cache=True)
def counting(tally):
    """Whether this tally takes anything (an empty one: the engine alone)."""
    return tally[2].shape[0] > 0


@nb.njit(cache=True)
def buffers(tally, seats):
    """A block's row buffers: deal slots [ROWS], rotations [ROWS], seat rows [ROWS, seat,
    measure], table rows [ROWS, measure]; and what it keeps from one call of `add_rows` to the
    next: the sums of the deal being played (its groups' [group * measures + measure], its
    table's), those of its replay's seat rows so far for the head to head [seat, 2] (rows,
    main; [seats, 0]: 1 if there are any), and room for the sums of the deals that end, to be
    folded [ROWS, ...] with their slots."""
    plan = tally[2]
    groups, measures, width = (plan[GROUPS], plan[MEASURES], plan[TABLE_MEASURES]) if counting(tally) else (1, 1, 2)
    return (np.zeros(ROWS, dtype=np.int64), np.zeros(ROWS, dtype=np.int64),
            np.zeros((ROWS, seats, measures), dtype=np.int64), np.zeros((ROWS, width), dtype=np.int64),
            (np.zeros(groups * measures, dtype=np.int64), np.zeros(width, dtype=np.int64),
             np.zeros((seats + 1, 2), dtype=np.int64), np.zeros((ROWS, groups * measures), dtype=np.int64),
             np.zeros((ROWS, width), dtype=np.int64), np.zeros(ROWS, dtype=np.int64)))


@nb.njit(cache=True, _nrt=False)
def add_rows(tally, b, deal, rotation, seat, table, count, kept):
    """Rows 0..count-1 of block b's buffers, in the order played, into the tally: row i, of deal
    slot deal[i] in rotation rotation[i], into the sums of its seats' groups and of the table,
    and into the histograms. A row whose `replays` is 1 ends its deal's replay in that rotation,
    whose head to head (with the replay's earlier rows, if any) goes into the table's last
    measure; in the last rotation it ends the deal, whose sums are then folded."""
    group, side, plan, into, seat_hist, table_hist, over, rows_of = tally[:8]
    mine_seat, mine_table, mine, done_seat, done_table, done_slot = kept
    n, measures, width, last = seat.shape[1], seat.shape[2], table.shape[1], group.shape[0] - 1
    main, seat_hm, table_hm, keep = plan[MAIN], plan[SEAT_HISTOGRAM], plan[TABLE_HISTOGRAM], plan[TABLE_KEEP]
    sums, pairs, known = plan[SUMS] != 0, plan[PAIRS] != 0, plan[KNOWN] != 0
    done = 0
    for i in range(count):
        r = rotation[i]
        if sums:
            for s in range(n):
                if measures == 4 and known:  # the common case, written out: a third faster than the loop
                    a, c, e = seat[i, s, 1], seat[i, s, 2], seat[i, s, 3]
                    if a | c | e:  # (an Ezelen round's seats are all zero but the loser's)
                        for k in range(group.shape[1]):
                            at = group[r, k, s] * measures
                            if at >= 0:
                                mine_seat[at + 1] += a
                                mine_seat[at + 2] += c
                                mine_seat[at + 3] += e
                else:
                    for k in range(group.shape[1]):
                        g = group[r, k, s]
                        if g >= 0:
                            for m in range(known, measures):
                                mine_seat[g * measures + m] += seat[i, s, m]
            for m in range(known, width - 2):
                mine_table[m] += table[i, m]
            ends = table[i, width - 2] > 0
            if not known:
                mine_table[width - 2] += ends
            if pairs:
                if ends:
                    mine_table[width - 1] += beat(mine, seat, i, side[r], main, n)
                    if mine[n, 0]:
                        mine[:] = 0
                else:
                    for s in range(n):
                        mine[s, 0] += seat[i, s, 0]
                        mine[s, 1] += seat[i, s, main]
                    mine[n, 0] = 1
            if ends and r == last:  # the deal's sums are complete: folded below
                if known:
                    for g in range(rows_of.shape[0]):
                        mine_seat[g * measures] = rows_of[g]
                    mine_table[0] = mine_table[width - 2] = last + 1
                for j in range(mine_seat.shape[0]):
                    done_seat[done, j] = mine_seat[j]
                    mine_seat[j] = 0
                for j in range(width):
                    done_table[done, j] = mine_table[j]
                    mine_table[j] = 0
                done_slot[done] = deal[i]
                done += 1
        if seat_hm >= 0:
            for s in range(n):
                v = seat[i, s, seat_hm]
                if seat[i, s, 0] > 0 and v >= 0:
                    if v < seat_hist.shape[2]:
                        seat_hist[b, into[r, s], v] += 1
                    elif v >= over[b, 0]:
                        over[b, 0] = v + 1
        if table_hm >= 0 and (keep < 0 or table[i, keep] > 0):
            v = table[i, table_hm]
            if v < table_hist.shape[1]:
                table_hist[b, v] += 1
            elif v >= over[b, 1]:
                over[b, 1] = v + 1
    if done:
        fold_rows(done_seat, done_slot, done, tally[8:17], b)
        fold_rows(done_table, done_slot, done, tally[17:26], b)


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

    def __init__(self, group: np.ndarray, side, main: int, folds: "tuple[Folding, Folding]",
                 seat_histogram: int | None = None, table_histogram: int | None = None,
                 table_keep: int | None = None, histogram_group: np.ndarray | None = None,
                 widths: tuple[int, int] = (1, 1), sums: bool = True, known: bool = False):
        """Per rotation r of the call: group[r, k, seat], side[r, seat], histogram_group[r, seat];
        `folds`, the seat groups' and the table's foldings (a part per block, pooled sums with a
        slot per deal of the call); `sums` false: count the histograms only; `known`: every
        seat and table row counts one (a deal is one hand, round or match in each rotation)."""
        blocks = most_blocks()
        groups = 1 + int(np.max(histogram_group, initial=0)) if histogram_group is not None else 1
        self.seat_counts = np.zeros((blocks, groups, widths[0]), np.int64)
        self.table_counts = np.zeros((blocks, widths[1]), np.int64)
        self.over = np.zeros((blocks, 2), np.int64)
        side = np.ascontiguousarray(side, np.int64)
        plan = np.array([main, _or_none(seat_histogram), _or_none(table_histogram), _or_none(table_keep), int(sums),
                         int((side == 1).any()), folds[0].groups, folds[0].measures, folds[1].measures, int(known)],
                        np.int64)
        into = np.zeros(side.shape, np.int64) if histogram_group is None else histogram_group
        group = np.ascontiguousarray(group, np.int64)
        rows_of = np.bincount(group[group >= 0], minlength=folds[0].groups).astype(np.int64)
        self.arrays = (group, side, plan, np.ascontiguousarray(into, np.int64), self.seat_counts, self.table_counts,
                       self.over, rows_of) + folds[0].arrays + folds[1].arrays

    @staticmethod
    @functools.cache
    def off(wide: bool = False) -> tuple:
        """The empty tally: the driver adds nothing (empty arrays: one serves every call)."""
        return (np.zeros((0, 0, 0), np.int64), np.zeros((0, 0), np.int64), np.zeros(0, np.int64),
                np.zeros((0, 0), np.int64), np.zeros((0, 0, 0), np.int64), np.zeros((0, 0), np.int64),
                np.zeros((0, 2), np.int64), np.zeros(0, np.int64)) + Folding.off(np.int64 if wide else np.int32) * 2

    def overflow(self) -> tuple[int, int]:
        """The widths the seat and table histograms would have needed (0: they fitted)."""
        return int(self.over[:, 0].max()), int(self.over[:, 1].max())


def slots(tally: tuple, lo: int, hi: int) -> tuple:
    """The tally whose deal slots are lo..hi-1 of `tally`'s: for one of several engine calls."""
    if not len(tally[2]) or not len(tally[14]):  # nothing pooled: nothing kept by deal slot
        return tally
    return tally[:16] + (tally[16][lo:hi],) + tally[17:]


def _or_none(m: int | None) -> int:
    return -1 if m is None else m
