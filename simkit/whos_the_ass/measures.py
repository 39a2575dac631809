"""What a run's statistics count of a hand or a match (experiments/statistics.py): a seat row per
seat and a table row, filled from the engine's arrays into a block's row buffers (simkit.tally)
in the order the driver plays them: each deal in every rotation before the next.

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


@nb.njit(cache=True, _nrt=False)
def hand_rows(penalties, ass_end, tricks, lo, hi, slot, rotation, seat, table):
    """Hands lo..hi-1 of every rotation r (penalties[r, hand, seat], ass_end[r, hand], tricks[r,
    hand]) into row buffers 0.., deal by deal and rotation by rotation; returns the rows."""
    k = 0
    for h in range(lo, hi):
        for r in range(tricks.shape[0]):
            slot[k], rotation[k] = h, r
            for s in range(penalties.shape[2]):
                p = penalties[r, h, s]
                seat[k, s, 0] = 1
                seat[k, s, 1] = p
                seat[k, s, 2] = p == 0
                seat[k, s, 3] = ass_end[r, h] == s
            table[k, 0] = 1
            table[k, 1] = tricks[r, h]
            table[k, REPLAYS] = 1
            k += 1
    return k


@nb.njit(cache=True, _nrt=False)
def match_rows(totals, hands, lo, hi, slot, rotation, seat, table):
    """Matches lo..hi-1 of every rotation r (totals[r, match, seat], hands[r, match]) into row
    buffers 0.., as `hand_rows`: the lowest total wins, equal lowest totals share the win."""
    k = 0
    n = totals.shape[2]
    for m in range(lo, hi):
        for r in range(hands.shape[0]):
            slot[k], rotation[k] = m, r
            best = totals[r, m, 0]
            for s in range(1, n):
                best = min(best, totals[r, m, s])
            winners = 0
            for s in range(n):
                winners += totals[r, m, s] == best
            for s in range(n):
                seat[k, s, 0] = 1
                seat[k, s, 1] = totals[r, m, s]
                seat[k, s, 2] = WIN_SCALE // winners if totals[r, m, s] == best else 0
            table[k, 0] = 1
            table[k, 1] = hands[r, m]
            table[k, REPLAYS] = 1
            k += 1
    return k
