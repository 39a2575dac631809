"""What a run's statistics count of a round (experiments/statistics.py): a seat row per seat —
rows 1, lost the round, lost it as the last to copy (Z5), through tempo (Z6) — and a table row
per round — rows 1, how it ended (one of last, tempo, tie, stalled), whether and when somebody
signalled, its turns — written straight from the engine's arrays in one pass on all threads."""

import numba as nb

from simkit.ezelen.rules import LAST, STALLED, TEMPO, TIE

SEAT = ("rows", "lost", "lost_last", "lost_tempo")
TABLE = ("rows", "last", "tempo", "tie", "stalled", "signalled", "first_signal", "turns")


@nb.njit(parallel=True, cache=True)
def round_rows(loser, reason, first_signal, turns, seat, table):
    """seat[r, s, :len(SEAT)] and table[r, 0, :len(TABLE)] for every round r (further columns
    are left as they are)."""
    rounds, n = seat.shape[0], seat.shape[1]
    for r in nb.prange(rounds):
        why = reason[r]
        for s in range(n):
            lost = 1 if loser[r] == s else 0
            seat[r, s, 0] = 1
            seat[r, s, 1] = lost
            seat[r, s, 2] = lost if why == LAST else 0
            seat[r, s, 3] = lost if why == TEMPO else 0
        signal = first_signal[r]
        table[r, 0, 0] = 1
        table[r, 0, 1] = 1 if why == LAST else 0
        table[r, 0, 2] = 1 if why == TEMPO else 0
        table[r, 0, 3] = 1 if why == TIE else 0
        table[r, 0, 4] = 1 if why == STALLED else 0
        table[r, 0, 5] = 1 if signal >= 0 else 0
        table[r, 0, 6] = signal if signal >= 0 else 0
        table[r, 0, 7] = turns[r]
