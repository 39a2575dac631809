"""What a run's statistics count of a round or a match (experiments/statistics.py), added to a
block's tally (simkit.tally) from the engine's outcomes as the driver plays them: each deal in
every rotation before the next.

A round: per seat rows 1, lost the round, lost it as the last to copy (Z5), through tempo (Z6);
per table rows 1, how it ended (one of last, tempo, tie, stalled), whether and when somebody
signalled, its turns; the table histogram counts the first signals. A match (Z7) ends with a row
of its own: per seat matches 1, became the donkey, letters (the round measures 0), the table's
measures 0. A single round is its deal's whole replay, one row per seat (the tally counts them);
a match's replay is its rounds and its end, its rows counted once it is over."""

import numba as nb
import numpy as np

from simkit.ezelen.rules import LAST, REASONS, TEMPO
from simkit.tally import deal_end, replay_end, rows_counted, seat_add, seat_adds, table_add, table_count

SEAT = ("rows", "lost", "lost_last", "lost_tempo")
MATCH_SEAT = SEAT + ("matches", "donkey", "letters")
TABLE = ("rows",) + REASONS + ("signalled", "first_signal", "turns")  # the reasons in their codes' order
TABLE_HISTOGRAM = "first_signal"  # the table measure whose values the histogram counts (where there was one)
_ROUND = len(SEAT)


@nb.njit(inline="always", cache=True)
def add_round(tally, kept, b, r, loser, why, signal, turns):
    """One round's outcome in rotation r (loser -1: nobody lost) into block b's tally, but for
    its row (counted by `add_rounds`, or `add_match_end` for the whole match). Inlined: a call
    would pass the tally's arrays, some 250 words."""
    if loser >= 0:  # lost, lost as the last to copy, through tempo
        seat_adds(tally, kept, r, loser, 1, (np.int64(1), np.int64(why == LAST), np.int64(why == TEMPO)))
    table_add(tally, kept, 1 + why, 1)  # the table measures last, tempo, tie, stalled: the reasons in order
    table_add(tally, kept, 5, signal >= 0)
    table_add(tally, kept, 6, max(signal, 0))
    table_add(tally, kept, 7, turns)
    table_count(tally, b, signal)  # -1 (nobody signalled): not counted


@nb.njit(inline="always", cache=True)
def add_rounds(loser, reason, first_signal, turns, i, tally, kept, b):
    """Single round i of every rotation r (loser[r, i], ...) into block b's tally, each its
    deal's whole replay."""
    for r in range(turns.shape[0]):
        add_round(tally, kept, b, r, loser[r, i], reason[r, i], first_signal[r, i], turns[r, i])
        rows_counted(tally, kept, r, 1)
        replay_end(tally, kept, r)
    deal_end(tally, kept, b, i)


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
