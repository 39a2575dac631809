"""What a run's statistics count of a round or a match (experiments/statistics.py), added to a
block's tally (simkit.stats.tally) from the engine's outcomes as the driver plays them: each deal in
every rotation before the next.

A round: per seat rows 1, lost the round, lost it as the last to copy (Z5), through tempo (Z6);
per table rows 1, how it ended (one of last, tempo, tie, stalled), whether and when somebody
signalled, its turns; the table histogram counts the first signals. A match (Z7) ends with a row
of its own: per seat matches 1, became the donkey, letters (the round measures 0), the table's
measures 0. A single round is its deal's whole replay, one row per seat (known: the runner fills them in);
a match's replay is its rounds and its end, its rows counted once it is over."""

import numba as nb
import numpy as np

from simkit.games.ezelen.rules import LAST, REASONS, TEMPO
from simkit.stats.tally import (
    deal_end,
    groupings,
    head_to_head,
    head_to_head_measure,
    main_of,
    replay_end,
    replay_sides,
    rows_counted,
    seat_add,
    seat_adds_at,
    seat_column,
    seat_row,
    seats,
    summing,
    table_adds_at,
    table_column,
    table_count,
    table_counts,
    table_row,
    winner,
)

SEAT = ("rows", "lost", "lost_last", "lost_tempo")
MATCH_SEAT = SEAT + ("matches", "donkey", "letters")
TABLE = ("rows",) + REASONS + ("signalled", "first_signal", "turns")  # the reasons in their codes' order
TABLE_HISTOGRAM = "first_signal"  # the table measure whose values the histogram counts (where there was one)
_ROUND = len(SEAT)


@nb.njit(inline="always", cache=True)
def _lost(seat, loser, why):
    """What the round adds to the seat's measures lost, lost as the last to copy (Z5), through
    tempo (Z6): one rule for a round at a time and for many at once."""
    x = seat == loser
    return np.int32(x), np.int32(x & (why == LAST)), np.int32(x & (why == TEMPO))


@nb.njit(inline="always", cache=True)
def _table(why, signal, turns):
    """What the round adds to its table's measures from 1 on: how it ended (one of the reasons,
    in their codes' order), whether and when somebody signalled, its turns."""
    return (np.int32(why == 0), np.int32(why == 1), np.int32(why == 2), np.int32(why == 3),
            np.int32(signal >= 0), np.int32(max(signal, 0)), np.int32(turns))


@nb.njit(inline="always", cache=True)
def add_round(tally, kept, b, r, loser, why, signal, turns):
    """A match's round in rotation r (loser -1: nobody lost), as it is played, but for its row
    (counted at the match's end, `add_match_end`); its replay's head to head is the match's, at
    its end. Inlined: a call would pass the tally's arrays, some 250 words."""
    if loser >= 0:
        lost = _lost(loser, loser, why)
        seat_adds_at(tally, kept, 0, r, loser, 1, lost)
        a, z = main_of(tally, r, loser, 1, lost)
        replay_sides(kept, a, z)
    table_adds_at(tally, kept, 0, r, 1, _table(why, signal, turns))
    table_count(tally, b, r, signal)  # -1 (nobody signalled): not counted


@nb.njit(inline="always", cache=True)
def add_rounds(loser, reason, first_signal, turns, lo, hi, tally, kept, b):
    """Single rounds lo..hi-1 of every rotation r (loser[r, i], ...), at most DEALS of them
    since the block last folded, into block b's tally, each its deal's whole replay (its rows
    known): rotation by rotation, each seat's and the table's columns along the deals, then each
    deal ended. A loop writes at most two rows: the compiler vectorises a loop only where it can
    check cheaply that its rows do not overlap its inputs (ezelen-attention: 20 ns a round with
    the fold, from 39 with three to seven rows a loop)."""
    n = hi - lo
    for r in range(turns.shape[0]):
        lost, why, signal, took = loser[r, lo:hi], reason[r, lo:hi], first_signal[r, lo:hi], turns[r, lo:hi]
        for s in range(seats(tally)):
            for k in range(groupings(tally)):
                c = seat_column(tally, r, k, s, 1)
                if c >= 0:
                    x0, x1, x2 = seat_row(kept, c, n), seat_row(kept, c + 1, n), seat_row(kept, c + 2, n)
                    for i in range(n):
                        x0[i] += _lost(s, lost[i], why[i])[0]
                    for i in range(n):
                        x = _lost(s, lost[i], why[i])
                        x1[i] += x[1]
                        x2[i] += x[2]
        if summing(tally):
            c = table_column(tally, r, 1)
            t0, t1, t2, t3 = (table_row(kept, c, n), table_row(kept, c + 1, n), table_row(kept, c + 2, n),
                              table_row(kept, c + 3, n))
            t4, t5, t6 = table_row(kept, c + 4, n), table_row(kept, c + 5, n), table_row(kept, c + 6, n)
            for i in range(n):
                t = _table(why[i], signal[i], took[i])
                t0[i] += t[0]
                t1[i] += t[1]
            for i in range(n):
                t = _table(why[i], signal[i], took[i])
                t2[i] += t[2]
                t3[i] += t[3]
            for i in range(n):
                t = _table(why[i], signal[i], took[i])
                t4[i] += t[4]
                t5[i] += t[5]
            for i in range(n):
                t6[i] += _table(why[i], signal[i], took[i])[6]
        if head_to_head(tally, r):
            row = table_row(kept, table_column(tally, r, head_to_head_measure(tally)), n)
            for i in range(n):
                s = max(lost[i], 0)  # nobody lost (-1): seat 0, who lost nothing
                a, z = main_of(tally, r, s, 1, _lost(s, lost[i], why[i]))
                row[i] += winner(tally, r, a, z)
        table_counts(tally, b, r, signal)  # -1 (nobody signalled): not counted
    for i in range(n):
        deal_end(tally, kept, b, lo + i)


@nb.njit(inline="always", cache=True)
def add_match_end(tally, kept, r, rounds, donkey, letters):
    """The end of a match's replay in rotation r (its rounds, each a row; its donkey, -1 if
    none; letters[seat]): per seat matches 1, the donkey, the letters."""
    rows_counted(tally, kept, r, rounds)
    for s in range(letters.shape[0]):
        seat_add(tally, kept, r, s, _ROUND, 1)
        seat_add(tally, kept, r, s, _ROUND + 2, letters[s])
    if donkey >= 0:
        seat_add(tally, kept, r, donkey, _ROUND + 1, 1)
    replay_end(tally, kept, r)
