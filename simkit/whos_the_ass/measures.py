"""What a run's statistics count of a hand or a match (experiments/statistics.py), added to a
block's tally (simkit.tally) from the engine's arrays as the driver plays them: each deal in every
rotation before the next.

A hand: per seat rows 1, penalty points (W17), went out, held the ass at the end; per table rows
1, tricks; the histograms count each seat's penalty and the tricks. A match (W18): per seat rows
1, penalty total, its share of the win (in 1/WIN_SCALE: ties share it); per table rows 1, hands
played; the histograms count the totals and the hands. Every hand or match is its deal's whole
replay, one row per seat: the rows are known beforehand (the tally counts them)."""

import numba as nb

from simkit.tally import deal_end, replay_end, seat_add, seat_count, table_add, table_count

SEAT = ("rows", "penalty", "out", "ass")
TABLE = ("rows", "tricks")
MATCH_SEAT = ("rows", "total", "win")
MATCH_TABLE = ("rows", "hands")
HISTOGRAMS = ("penalty", "tricks")  # the seat and table measures whose values the histograms count
MATCH_HISTOGRAMS = ("total", "hands")
WIN_SCALE = 27720  # lcm(1..12): a match win shared by k <= 12 players is WIN_SCALE / k


@nb.njit(inline="always", cache=True)
def add_hand(penalties, ass_end, tricks, h, tally, kept, b):
    """Hand h of every rotation r (penalties[r, h, seat], ass_end[r, h], tricks[r, h]) into block
    b's tally: the deal's sums and the histograms."""
    for r in range(tricks.shape[0]):
        for s in range(penalties.shape[2]):
            p = penalties[r, h, s]
            seat_add(tally, kept, r, s, 1, p)
            if p == 0:
                seat_add(tally, kept, r, s, 2, 1)
            seat_count(tally, b, r, s, p)
        if ass_end[r, h] >= 0:
            seat_add(tally, kept, r, ass_end[r, h], 3, 1)
        table_add(tally, kept, 1, tricks[r, h])
        table_count(tally, b, tricks[r, h])
        replay_end(tally, kept, r)
    deal_end(tally, kept, b, h)


@nb.njit(inline="always", cache=True)
def add_match(totals, hands, m, tally, kept, b):
    """Match m of every rotation r (totals[r, m, seat], hands[r, m]) into block b's tally, as
    `add_hand`: the lowest total wins, equal lowest totals share the win."""
    n = totals.shape[2]
    for r in range(hands.shape[0]):
        best = totals[r, m, 0]
        for s in range(1, n):
            best = min(best, totals[r, m, s])
        winners = 0
        for s in range(n):
            winners += totals[r, m, s] == best
        for s in range(n):
            seat_add(tally, kept, r, s, 1, totals[r, m, s])
            if totals[r, m, s] == best:
                seat_add(tally, kept, r, s, 2, WIN_SCALE // winners)
            seat_count(tally, b, r, s, totals[r, m, s])
        table_add(tally, kept, 1, hands[r, m])
        table_count(tally, b, hands[r, m])
        replay_end(tally, kept, r)
    deal_end(tally, kept, b, m)
