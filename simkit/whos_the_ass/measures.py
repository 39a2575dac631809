"""What a run's statistics count of a hand (experiments/statistics.py): a seat row per seat —
rows 1, penalty points (W17), went out, held the ass at the end — and a table row per hand —
rows 1, tricks — written straight from the engine's arrays in one pass on all threads."""

import numba as nb
import numpy as np

SEAT = ("rows", "penalty", "out", "ass")
TABLE = ("rows", "tricks")


@nb.njit(parallel=True, cache=True)
def hand_rows(penalties, ass_end, tricks, seat, table):
    """seat[h, s, :] and table[h, 0, :len(TABLE)] for every hand h (the table's further columns
    are left as they are)."""
    hands, n = penalties.shape
    for h in nb.prange(hands):
        for s in range(n):
            p = np.int64(penalties[h, s])
            seat[h, s, 0] = 1
            seat[h, s, 1] = p
            seat[h, s, 2] = 1 if p == 0 else 0
            seat[h, s, 3] = 1 if ass_end[h] == s else 0
        table[h, 0, 0] = 1
        table[h, 0, 1] = tricks[h]
