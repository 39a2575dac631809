"""What a run's statistics count of a round or a match (experiments/statistics.py), added to a
block's tally (simkit.tally) from the engine's outcomes as the driver plays them: each deal in
every rotation before the next.

A round: per seat rows 1, lost the round, lost it as the last to copy (Z5), through tempo (Z6);
per table rows 1, how it ended (one of last, tempo, tie, stalled), whether and when somebody
signalled, its turns; the table histogram counts the first signals. A match (Z7) ends with a row
of its own: per seat matches 1, became the donkey, letters (the round measures 0), the table's
measures 0. A single round is its deal's whole replay, one row per seat (known: the runner fills them in);
a match's replay is its rounds and its end, its rows counted once it is over."""

import numba as nb
import numpy as np

from simkit.ezelen.rules import LAST, REASONS, TEMPO
from simkit.tally import (
    deal_end,
    head_to_head_at,
    main_of,
    replay_end,
    replay_sides,
    rows_counted,
    seat_add,
    seat_adds_at,
    table_add_at,
    table_adds_at,
    table_count,
)

SEAT = ("rows", "lost", "lost_last", "lost_tempo")
MATCH_SEAT = SEAT + ("matches", "donkey", "letters")
TABLE = ("rows",) + REASONS + ("signalled", "first_signal", "turns")  # the reasons in their codes' order
TABLE_HISTOGRAM = "first_signal"  # the table measure whose values the histogram counts (where there was one)
_ROUND = len(SEAT)


@nb.njit(inline="always", cache=True)
def add_round_at(tally, kept, b, i, r, loser, why, signal, turns):
    """One round's outcome in rotation r (loser -1: nobody lost) into the deal i deals after the
    one being played, in block b's tally, but for its row (counted by the deal's end, or
    `add_match_end` for a whole match); returns what it adds to the head to head's sums of
    side 0 and side 1 (tally.main_of)."""
    a, z = np.int64(0), np.int64(0)
    if loser >= 0:  # lost, lost as the last to copy, through tempo
        lost = (np.int64(1), np.int64(why == LAST), np.int64(why == TEMPO))
        seat_adds_at(tally, kept, i, r, loser, 1, lost)
        a, z = main_of(tally, r, loser, 1, lost)
    table_add_at(tally, kept, i, r, 1 + why, 1)  # the table measures last, tempo, tie, stalled: the reasons in order
    table_adds_at(tally, kept, i, r, 5, (np.int64(signal >= 0), np.int64(max(signal, 0)), np.int64(turns)))
    table_count(tally, b, r, signal)  # -1 (nobody signalled): not counted
    return a, z


@nb.njit(inline="always", cache=True)
def add_round(tally, kept, b, r, loser, why, signal, turns):
    """A match's round in rotation r, as it is played (`add_round_at`): its replay's head to
    head is the match's, at its end. Inlined: a call would pass the tally's arrays, some 250
    words."""
    a, z = add_round_at(tally, kept, b, 0, r, loser, why, signal, turns)
    replay_sides(kept, a, z)


@nb.njit(inline="always", cache=True)
def add_rounds(loser, reason, first_signal, turns, lo, hi, tally, kept, b):
    """Single rounds lo..hi-1 of every rotation r (loser[r, i], ...), at most DEALS of them
    since the block last folded, into block b's tally, each its deal's whole replay (its rows
    known): rotation by rotation, then each deal ended."""
    for r in range(turns.shape[0]):
        for i in range(hi - lo):
            h = lo + i
            a, z = add_round_at(tally, kept, b, i, r, loser[r, h], reason[r, h], first_signal[r, h], turns[r, h])
            head_to_head_at(tally, kept, i, r, a, z)
    for i in range(hi - lo):
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
