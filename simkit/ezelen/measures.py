"""What a run's statistics count of a round or a match (experiments/statistics.py): a seat row per
seat and a table row, filled from the engine's outcomes into a block's row buffers
(simkit.tally) in the order the driver plays them: each deal in every rotation before the next.

A round: per seat rows 1, lost the round, lost it as the last to copy (Z5), through tempo (Z6);
per table rows 1, how it ended (one of last, tempo, tie, stalled), whether and when somebody
signalled, its turns. A match (Z7) ends with a row of its own: per seat matches 1, became the
donkey, letters (the round measures 0), the table's measures 0. A single round is its deal's
whole replay; a match's replay ends with its own row (the table row's `replays` 1)."""

import numba as nb

from simkit.ezelen.rules import LAST, STALLED, TEMPO, TIE

SEAT = ("rows", "lost", "lost_last", "lost_tempo")
MATCH_SEAT = SEAT + ("matches", "donkey", "letters")
TABLE = ("rows", "last", "tempo", "tie", "stalled", "signalled", "first_signal", "turns")
REPLAYS = len(TABLE)  # the table row's `replays`, after the game's table measures
END = -1  # the `reason` of an outcome that is a match's end, its donkey in `loser`
_ROUND = len(SEAT)


@nb.njit(inline="always", cache=True)
def _round(seat, table, k, loser, why, signal, turns, ends):
    """Row buffer k from one round's outcome (its replay ends with it when `ends`)."""
    last, tempo = why == LAST, why == TEMPO
    for s in range(seat.shape[1]):
        lost = loser == s
        seat[k, s, 0] = 1
        seat[k, s, 1] = lost
        seat[k, s, 2] = lost and last
        seat[k, s, 3] = lost and tempo
        for m in range(_ROUND, seat.shape[2]):
            seat[k, s, m] = 0
    table[k, 0] = 1
    table[k, 1] = last
    table[k, 2] = tempo
    table[k, 3] = why == TIE
    table[k, 4] = why == STALLED
    table[k, 5] = signal >= 0
    table[k, 6] = max(signal, 0)
    table[k, 7] = turns
    table[k, REPLAYS] = ends


@nb.njit(cache=True, _nrt=False)
def round_rows(loser, reason, first_signal, turns, lo, hi, slot, rotation, seat, table):
    """Single rounds lo..hi-1 of every rotation r (loser[r, round], ...) into row buffers 0..,
    round by round and rotation by rotation, each its deal's whole replay; returns the rows."""
    k = 0
    for i in range(lo, hi):
        for r in range(turns.shape[0]):
            slot[k], rotation[k] = i, r
            _round(seat, table, k, loser[r, i], reason[r, i], first_signal[r, i], turns[r, i], 1)
            k += 1
    return k


@nb.njit(cache=True, _nrt=False)
def match_rows(loser, reason, first_signal, turns, letters, count, slot, rotation, seat, table):
    """Outcomes 0..count-1 of matches, as played (slot[i], rotation[i]: the outcome's match and
    rotation), into row buffers 0..count-1: a round, or a match's end (reason END: the donkey in
    loser, the letters in letters[rotation, match]), which ends the match's replay; returns the
    rows."""
    for i in range(count):
        if reason[i] != END:
            _round(seat, table, i, loser[i], reason[i], first_signal[i], turns[i], 0)
            continue
        for s in range(seat.shape[1]):
            for m in range(_ROUND):
                seat[i, s, m] = 0
            seat[i, s, _ROUND] = 1
            seat[i, s, _ROUND + 1] = 1 if loser[i] == s else 0
            seat[i, s, _ROUND + 2] = letters[rotation[i], slot[i], s]
        for m in range(REPLAYS):
            table[i, m] = 0
        table[i, REPLAYS] = 1
    return count
