"""What an engine's parallel driver adds the deals it plays into, as it plays them: a run's
statistics (simkit.stats.moments), so a run never writes a row per hand to reduce later.

A driver plays each deal in every rotation of its lineups (its tables) before the next deal. The
tally keeps the deal's sums for each group (a strategy, a seat) and for each table while its
replays are played, folds them into the moments as soon as its last replay ends (simkit.stats.moments.fold_deals),
and counts the histograms: all in small arrays that stay in the cache, with one partial sum per
block of the driver (integers: any split of the deals into blocks gives the same totals).

A game's measures (its `measures` module) add what a deal's replays count as they are played:
`seat_add` (a seat measure of one seat; `seat_adds`, several in a row), `table_add`,
`seat_count` and `table_count` (the histograms), `rows_counted` (a replay's rows, where a
deal's rows are not known beforehand), `replay_end` (a replay is over: its head to head, the
main measure's mean of the two sides of a table of two strategies) and `deal_end` (its last
replay is over); a block folds the sums of up to DEALS ended deals at a time, and the rest with
`flush` when it is done. A game may instead add up to DEALS deals it has played at once,
measure by measure or rotation by rotation (`seat_column`, `seat_adds_at`, `seat_row`, `main_of`,
`side_of`, `table_add_at`, `table_adds_at`, `table_adds`, `table_row`, `head_to_head`,
`head_to_head_at`, `winner`, `seat_counts`, `table_counts`, then `deal_end` for each): each
seat's columns and histogram row are looked up once for all of them, not once per hand (Who's
the Ass? hands: 35 ns of statistics per hand, from 65 ns; the per-deal sums lie deal by deal in
a measure's column, so these loops run along memory, and `seat_row`'s loops are vectorised).
Where every deal is one hand, round or match per rotation, the rows are known and not added at
all: the caller fills them in (`Tally.rows`, `Tally.replays`). Nothing is written row by row.
The helpers are inlined into the drivers' loops, which run without numba's reference counting
(`_nrt=False`, their arrays made before): with it, each array a helper takes out of the tally's
tuple is counted in and out, two atomic operations on a count the threads share, which cost a
cheap Ezelen round a third of its time; and a call instead of inlining passes the tally's some
250 words. A tally is one tuple of flat arrays (numba-typed TALLY, or TALLY_WIDE where sums
pooled over cells need int64); an empty one (`Tally.off`) takes nothing: the engine alone.
"""

import functools

import numba as nb
import numpy as np
from numba import types

from simkit.stats.moments import Folding, fold_deals

DEALS = 32  # deals a block keeps the sums of before folding them: few enough for the first-level cache

_I64_1D = types.Array(types.int64, 1, "C")
_I64_2D = types.Array(types.int64, 2, "C")
_I64_3D = types.Array(types.int64, 3, "C")


def _folding_types(pooled: types.Array) -> tuple:
    """simkit.stats.moments.Folding's arrays (a parallel loop takes no tuple within a tuple: laid flat)."""
    return (_I64_1D, _I64_1D, _I64_1D, _I64_2D, _I64_2D, _I64_2D, _I64_1D, _I64_1D, pooled)


def _tally_type(pooled: types.Array) -> types.Tuple:
    return types.Tuple((
        _I64_3D,   # 0 group[rotation, k, seat]: the seat's group in grouping k (-1: none)
        _I64_2D,   # 1 side[rotation, seat]: 0, 1 in a head to head, else -1
        _I64_1D,   # 2 plan (the names below)
        _I64_2D,   # 3 the seat histogram's group of each seat [rotation, seat]
        _I64_3D,   # 4 seat histogram[block, group, value]
        _I64_3D,   # 5 table histogram[block, table, value]
        _I64_2D,   # 6 over[block, 2]: the largest seat, table value that did not fit, + 1
        _I64_2D,   # 7 tables[rotation]: its table, the seats of side 0 and of side 1 in a head to head
    ) + _folding_types(pooled)  # 8..16 how the groups' sums fold (a part per block)
      + _folding_types(pooled))  # 17..25 how the tables' sums fold


TALLY = _tally_type(types.Array(types.int32, 3, "C"))
TALLY_WIDE = _tally_type(types.Array(types.int64, 3, "C"))
# plan: the main measure; a seat and a table histogram (1) or none (0); add and fold the sums (1)
# or only count (0); the groups, seat measures, tables, table measures; every row of the seats and
# the tables counts one (1: their `rows` and the tables' `replays` are known, neither added nor
# folded: the caller fills them in, `Tally.rows` and `replays` per deal)
MAIN, SEAT_HISTOGRAM, TABLE_HISTOGRAM, SUMS, GROUPS, MEASURES, TABLES, TABLE_MEASURES, KNOWN = range(9)


@nb.njit(inline="always", cache=True)
def counting(tally):
    """Whether this tally takes anything (an empty one: the engine alone)."""
    return tally[2].shape[0] > 0


@nb.njit(cache=True)
def buffers(tally):
    """What a block keeps while it plays: the per-deal sums, a column per deal (its groups'
    [group * measures + measure, deal], its tables' [table * table measures + measure, deal]; in
    int32 where the pooled sums are: single hands and rounds) for up to DEALS deals, those ended
    and the one being played; the ended deals' slots; and `at`: the column of the deal being
    played, and the main measure of side 0 and side 1 over the replay so far."""
    plan = tally[2]
    groups, measures, width = (plan[GROUPS], plan[MEASURES], plan[TABLES] * plan[TABLE_MEASURES]) \
        if counting(tally) else (1, 1, 2)
    small = tally[16].dtype
    return (np.zeros((groups * measures, DEALS), dtype=small), np.zeros((width, DEALS), dtype=small),
            np.zeros(DEALS, dtype=np.int64), np.zeros(3, dtype=np.int64))


@nb.njit(inline="always", cache=True)
def seat_add(tally, kept, r, s, m, v):
    """v of seat measure m for the seat s in rotation r: into the deal's sums of each of its
    groups, and for the main measure into its side's sum for the head to head."""
    seat_adds(tally, kept, r, s, m, (np.int64(v),))


@nb.njit(inline="always", cache=True)
def seat_adds(tally, kept, r, s, m, values):
    """values[j] of seat measures m, m + 1, ... for the seat s in rotation r (a tuple of
    integers), as `seat_add` each, the seat's groups looked up once for all of them."""
    seat_adds_at(tally, kept, 0, r, s, m, values)
    a, z = main_of(tally, r, s, m, values)
    replay_sides(kept, a, z)


@nb.njit(inline="always", cache=True)
def seat_adds_at(tally, kept, i, r, s, m, values):
    """values[j] of seat measures m, m + 1, ... for the seat s in rotation r, into the deal i
    deals after the one being played, but not into the head to head's sums (`main_of`): a game
    adding many deals at once."""
    sums, d = kept[0], kept[3][0] + i
    for k in range(groupings(tally)):
        c = seat_column(tally, r, k, s, m)
        if c >= 0:
            for j in range(len(values)):
                sums[c + j, d] += values[j]


@nb.njit(inline="always", cache=True)
def main_of(tally, r, s, m, values):
    """What values[j] of seat measures m, m + 1, ... of the seat s in rotation r add to the sums
    of the main measure over side 0's and side 1's seats in a head to head: (a, z)."""
    main, side = tally[2][MAIN] - m, side_of(tally, r, s)
    if 0 <= main < len(values) and side >= 0 and summing(tally):
        v = np.int64(values[main])
        return v * (side == 0), v * (side == 1)
    return np.int64(0), np.int64(0)


@nb.njit(inline="always", cache=True)
def replay_sides(kept, a, z):
    """a and z more of the main measure over side 0's and side 1's seats in the replay being
    played (`replay_end` compares them)."""
    at = kept[3]
    at[1] += a
    at[2] += z


@nb.njit(inline="always", cache=True)
def table_column(tally, r, m):
    """The column of the kept table sums (kept[1], a column per deal) of table measure m of the
    table that rotation r is a replay of."""
    return tally[7][r, 0] * tally[2][TABLE_MEASURES] + m


@nb.njit(inline="always", cache=True)
def table_add(tally, kept, r, m, v):
    """v of table measure m in rotation r: into the deal's sums of its table."""
    table_add_at(tally, kept, 0, r, m, v)


@nb.njit(inline="always", cache=True)
def table_add_at(tally, kept, i, r, m, v):
    """v of table measure m in rotation r of the deal i deals after the one being played (a game
    adding many deals at once, as simkit.games.whos_the_ass.measures.add_hands)."""
    if summing(tally):
        kept[1][table_column(tally, r, m), kept[3][0] + i] += v


@nb.njit(inline="always", cache=True)
def table_adds(tally, kept, r, m, values):
    """values[i] of table measure m in rotation r of the deal i deals after the one being played
    (a 1D array: many deals at once), the column looked up once for all of them."""
    if summing(tally):
        d, c = kept[3][0], table_column(tally, r, m)
        for i in range(len(values)):
            kept[1][c, d + i] += values[i]


@nb.njit(inline="always", cache=True)
def table_adds_at(tally, kept, i, r, m, values):
    """values[j] of table measures m, m + 1, ... (a tuple of integers), as `table_add_at` each."""
    if summing(tally):
        d, c = kept[3][0] + i, table_column(tally, r, m)
        for j in range(len(values)):
            kept[1][c + j, d] += values[j]


@nb.njit(inline="always", cache=True)
def groupings(tally):
    """How many groups each seat adds to (`seat_column`'s k)."""
    return tally[0].shape[1]


@nb.njit(inline="always", cache=True)
def seat_column(tally, r, k, s, m):
    """The column of the kept sums (kept[0], a column per deal) where seat measure m of the seat
    s in rotation r adds for its k-th group, -1 if none (or no sums are kept): for a game that
    adds many deals at once, each seat's columns looked up once for all of them; and `seat_adds`."""
    g = tally[0][r, k, s]
    return g * tally[2][MEASURES] + m if g >= 0 and summing(tally) else -1


@nb.njit(inline="always", cache=True)
def side_of(tally, r, s):
    """The side of the seat s in rotation r in a head to head (0 or 1), -1 if none."""
    return tally[1][r, s]


@nb.njit(inline="always", cache=True)
def head_to_head(tally, r):
    """Whether the replays in rotation r have a head to head (`head_to_head_at` counts one)."""
    sides = tally[7]
    return summing(tally) and sides[r, 1] > 0 and sides[r, 2] > 0


@nb.njit(inline="always", cache=True)
def summing(tally):
    """Whether this tally adds sums (not only the histograms)."""
    return tally[2][SUMS] != 0


@nb.njit(inline="always", cache=True)
def seats(tally):
    """How many seats a rotation has."""
    return tally[0].shape[2]


@nb.njit(inline="always", cache=True)
def seat_row(kept, c, n):
    """The kept sums of seat column c (`seat_column`) of the deal being played and the n-1 after
    it: for a game adding many deals at once, in loops along the deals that the compiler
    vectorises (a row, contiguous: a two-dimensional slice would not be)."""
    d = kept[3][0]
    return kept[0][c, d:d + n]


@nb.njit(inline="always", cache=True)
def table_row(kept, c, n):
    """`seat_row` of table column c (`table_column`)."""
    d = kept[3][0]
    return kept[1][c, d:d + n]


@nb.njit(inline="always", cache=True)
def head_to_head_measure(tally):
    """The table measure that counts the head to head: the last."""
    return tally[2][TABLE_MEASURES] - 1


@nb.njit(inline="always", cache=True)
def winner(tally, r, a, z):
    """What a replay in rotation r adds to the head to head, from the sums a and z of the main
    measure over side 0's and side 1's seats: 2 if side 0's mean is the lower, 1 if equal, 0 if
    higher (every seat of a replay has as many rows, so the sides' means compare as their sums
    over their seats, each times the other side's seat count)."""
    sides = tally[7]
    x, y = a * sides[r, 2], z * sides[r, 1]  # compared without branches: who wins is a coin toss to the processor
    return 2 * (x < y) + (x == y)


@nb.njit(inline="always", cache=True)
def head_to_head_at(tally, kept, i, r, a, z):
    """The head to head (`winner`) of a replay in rotation r of the deal i deals after the one
    being played, from the sums a and z of the main measure over side 0's and side 1's seats."""
    if head_to_head(tally, r):
        kept[1][table_column(tally, r, head_to_head_measure(tally)), kept[3][0] + i] += winner(tally, r, a, z)


@nb.njit(inline="always", cache=True)
def rows_counted(tally, kept, r, rows):
    """`rows` more rows of every seat and the table in rotation r, where a deal's rows are not
    known beforehand (where they are, the caller fills them in): added once a replay is over,
    not row by row."""
    if tally[2][KNOWN] == 0:
        for s in range(seats(tally)):
            seat_add(tally, kept, r, s, 0, rows)
        table_add(tally, kept, r, 0, rows)


@nb.njit(inline="always", cache=True)
def seat_count(tally, b, r, s, v):
    """Value v (>= 0) of the seat histogram's measure for the seat s in rotation r, counted by
    block b (a value beyond the histogram notes the width it needs)."""
    if tally[2][SEAT_HISTOGRAM] != 0:
        counts, over = tally[4], tally[6]
        if v < counts.shape[2]:
            counts[b, tally[3][r, s], v] += 1
        elif v >= over[b, 0]:
            over[b, 0] = v + 1


@nb.njit(inline="always", cache=True)
def seat_counts(tally, b, r, s, values):
    """`seat_count` of each of `values` (the seat's values in many deals, a 1D array), its
    histogram row looked up once for all of them."""
    if tally[2][SEAT_HISTOGRAM] != 0:
        row, over = tally[4][b, tally[3][r, s]], tally[6]
        for v in values:
            if v < row.shape[0]:
                row[v] += 1
            elif v >= over[b, 0]:
                over[b, 0] = v + 1


@nb.njit(inline="always", cache=True)
def table_count(tally, b, r, v):
    """Value v of the table histogram's measure in rotation r, counted by block b for its table
    (v < 0: not counted)."""
    if tally[2][TABLE_HISTOGRAM] != 0 and v >= 0:
        counts, over = tally[5], tally[6]
        if v < counts.shape[2]:
            counts[b, tally[7][r, 0], v] += 1
        elif v >= over[b, 1]:
            over[b, 1] = v + 1


@nb.njit(inline="always", cache=True)
def table_counts(tally, b, r, values):
    """`table_count` of each of `values` (the table's values in many deals, a 1D array), its
    histogram row looked up once for all of them."""
    if tally[2][TABLE_HISTOGRAM] != 0:
        row, over = tally[5][b, tally[7][r, 0]], tally[6]
        for v in values:
            if 0 <= v < row.shape[0]:
                row[v] += 1
            elif v >= over[b, 1]:
                over[b, 1] = v + 1


@nb.njit(inline="always", cache=True)
def replay_end(tally, kept, r):
    """The deal's replay in rotation r is over: its head to head (`head_to_head_at`, from the
    sides' sums kept by `seat_add`) and, where the replays are not known beforehand, one more
    replay."""
    at = kept[3]
    head_to_head_at(tally, kept, 0, r, at[1], at[2])
    at[1] = at[2] = 0
    if tally[2][KNOWN] == 0:
        table_add(tally, kept, r, tally[2][TABLE_MEASURES] - 2, 1)


@nb.njit(inline="always", cache=True)
def deal_end(tally, kept, b, deal):
    """The deal in slot `deal` has had its last replay; once DEALS deals have ended, block b
    folds their sums."""
    slot, at = kept[2], kept[3]
    if summing(tally):
        d = at[0]
        slot[d] = deal
        at[0] = d + 1
        if at[0] == DEALS:
            flush(tally, kept, b)


@nb.njit(cache=True, _nrt=False)
def flush(tally, kept, b):
    """Fold the sums of the deals ended so far (block b's part), and start again from none."""
    sums, table, slot, at = kept
    done = at[0]
    if done:
        fold_deals(sums, slot, done, tally[8:17], b)
        fold_deals(table, slot, done, tally[17:26], b)
        sums[:, :done] = 0
        table[:, :done] = 0
        at[0] = 0


class Tally:
    """A tally's arrays, made in Python for the engine calls of a batch of tables, each a lineup in
    its rotations (simkit.experiments.statistics plays a player count's cells together); the
    `arrays` tuple is what the driver takes, `reset` before each call; `off` is the empty one."""

    def __init__(self, group: np.ndarray, side, main: int, folds: "tuple[Folding, Folding]",
                 seat_histogram: bool = False, table_histogram: bool = False,
                 histogram_group: np.ndarray | None = None,
                 widths: tuple[int, int] = (1, 1), sums: bool = True, known: bool = False,
                 tables: np.ndarray | None = None):
        """Per rotation r of the call: group[r, k, seat], side[r, seat], histogram_group[r, seat],
        tables[r] (the table it replays, default 0: the call's rotations may replay several
        tables, each a lineup in its rotations); `folds`, the seat groups' and the tables'
        foldings (a part per block, pooled sums with a slot per deal of the call); `sums` false:
        count the histograms only; `known`: every seat and table row counts one (a deal is one
        hand, round or match in each rotation): the rows are then not added at all, every deal
        has `rows[g]` of group g's and `replays[t]` of table t's (the caller fills them in)."""
        self._groups = 1 + int(np.max(histogram_group, initial=0)) if histogram_group is not None else 1
        side = np.ascontiguousarray(side, np.int64)
        group = np.ascontiguousarray(group, np.int64)
        table = np.zeros(len(group), np.int64) if tables is None else np.asarray(tables, np.int64)
        self._tables = folds[1].groups
        self._plan = np.array([main, seat_histogram, table_histogram, int(sums), folds[0].groups, folds[0].measures,
                               self._tables, folds[1].measures, int(known)], np.int64)
        into = np.zeros(side.shape, np.int64) if histogram_group is None else histogram_group
        self.rows = np.bincount(group[group >= 0], minlength=folds[0].groups).astype(np.int64)
        self.replays = np.bincount(table, minlength=self._tables).astype(np.int64)
        # each rotation's table, and its seats of side 0 and of side 1 (a rotation moves them round)
        self._sides = np.ascontiguousarray(np.stack([table, (side == 0).sum(axis=1), (side == 1).sum(axis=1)], 1))
        self._fixed = (group, side, self._plan, np.ascontiguousarray(into, np.int64))
        self.seat_counts = self.table_counts = self.over = np.zeros((0, 0, 0), np.int64)
        self.reset(folds, widths, sums)

    def reset(self, folds: "tuple[Folding, Folding]", widths: tuple[int, int], sums: bool = True) -> None:
        """Count again from nothing (the next chunk, or the same deals counted wider), into
        `folds` (reset by the caller): a tally's lookups are made once per run, not per chunk."""
        blocks = len(folds[0].arrays[3])  # a part per block of the driver, as the foldings have
        self.seat_counts = _zeros(self.seat_counts, (blocks, self._groups, widths[0]))
        self.table_counts = _zeros(self.table_counts, (blocks, self._tables, widths[1]))
        self.over = _zeros(self.over, (blocks, 2))
        fixed = self._fixed
        if bool(self._plan[SUMS]) != sums:
            plan = self._plan.copy()
            plan[SUMS] = int(sums)
            fixed = fixed[:2] + (plan,) + fixed[3:]
        self.arrays = fixed + (self.seat_counts, self.table_counts, self.over, self._sides) + folds[0].arrays \
            + folds[1].arrays

    @staticmethod
    @functools.cache
    def off(wide: bool = False) -> tuple:
        """The empty tally: the driver adds nothing (empty arrays: one serves every call)."""
        return (np.zeros((0, 0, 0), np.int64), np.zeros((0, 0), np.int64), np.zeros(0, np.int64),
                np.zeros((0, 0), np.int64), np.zeros((0, 0, 0), np.int64), np.zeros((0, 0, 0), np.int64),
                np.zeros((0, 2), np.int64), np.zeros((0, 3), np.int64)) \
            + Folding.off(np.int64 if wide else np.int32) * 2

    def overflow(self) -> tuple[int, int]:
        """The widths the seat and table histograms would have needed (0: they fitted)."""
        seat, table = self.over.max(axis=0).tolist()
        return seat, table


def _zeros(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """`a` zeroed where it has this shape already, else a new array of zeros."""
    if a.shape != shape:
        return np.zeros(shape, np.int64)
    a.fill(0)
    return a


def slots(tally: tuple, lo: int, hi: int) -> tuple:
    """The tally whose deal slots are lo..hi-1 of `tally`'s: for one of several engine calls."""
    if not len(tally[2]) or not len(tally[14]):  # nothing pooled: nothing kept by deal slot
        return tally
    return tally[:16] + (tally[16][lo:hi],) + tally[17:]

