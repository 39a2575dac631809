"""What a run's statistics count of a hand or a match (experiments/statistics.py): a seat row per
seat and a table row, filled from the engine's arrays into a block's row buffers (simkit.tally).

A hand: per seat rows 1, penalty points (W17), went out, held the ass at the end; per table rows
1, tricks. A match (W18): per seat rows 1, penalty total, its share of the win (in 1/WIN_SCALE:
ties share it); per table rows 1, hands played. Every hand or match is its deal's whole replay
(the table row's `replays` 1)."""

import numba as nb

SEAT = ("rows", "penalty", "out", "ass")
TABLE = ("rows", "tricks")
MATCH_SEAT = ("rows", "total", "win")
MATCH_TABLE = ("rows", "hands")
WIN_SCALE = 27720  # lcm(1..12): a match win shared by k <= 12 players is WIN_SCALE / k
REPLAYS = len(TABLE)  # the table row's `replays`, after the game's table measures (both tables are as wide)


@nb.njit(cache=True)
def hand_rows(penalties, ass_end, tricks, at, count, slot, seat, table):
    """Hands at..at+count-1 into row buffers 0..count-1, each its own deal slot."""
    for i in range(count):
        h = at + i
        slot[i] = h
        for s in range(penalties.shape[1]):
            p = penalties[h, s]
            seat[i, s, 0] = 1
            seat[i, s, 1] = p
            seat[i, s, 2] = 1 if p == 0 else 0
            seat[i, s, 3] = 1 if ass_end[h] == s else 0
        table[i, 0] = 1
        table[i, 1] = tricks[h]
        table[i, REPLAYS] = 1


@nb.njit(cache=True)
def match_rows(totals, hands, at, count, slot, seat, table):
    """Matches at..at+count-1 into row buffers 0..count-1, each its own deal slot: the lowest
    total wins, equal lowest totals share the win."""
    n = totals.shape[1]
    for i in range(count):
        r = at + i
        slot[i] = r
        best = totals[r, 0]
        for s in range(1, n):
            best = min(best, totals[r, s])
        winners = 0
        for s in range(n):
            winners += totals[r, s] == best
        for s in range(n):
            seat[i, s, 0] = 1
            seat[i, s, 1] = totals[r, s]
            seat[i, s, 2] = WIN_SCALE // winners if totals[r, s] == best else 0
        table[i, 0] = 1
        table[i, 1] = hands[r]
        table[i, REPLAYS] = 1
