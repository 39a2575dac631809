"""What a run's statistics count of a hand or a match (experiments/statistics.py), added to a
block's tally (simkit.stats.tally) from the engine's arrays as the driver plays them: each deal in every
rotation before the next, and single hands up to DEALS deals at once (each seat's sums' columns
looked up once for all of them, not once per hand).

A hand: per seat rows 1, penalty points (W17), went out, held the ass at the end; per table rows
1, tricks; the histograms count each seat's penalty and the tricks. A match (W18): per seat rows
1, penalty total, its share of the win (in 1/WIN_SCALE: ties share it); per table rows 1, hands
played; the histograms count the totals and the hands. Every hand or match is its deal's whole
replay, one row per seat: the rows are known beforehand (the runner fills them in)."""

import numba as nb

from simkit.stats.tally import (
    deal_end,
    groupings,
    head_to_head,
    head_to_head_at,
    replay_end,
    seat_add,
    seat_column,
    seat_count,
    seat_counts,
    side_of,
    table_add,
    table_adds,
    table_count,
    table_counts,
)

SEAT = ("rows", "penalty", "out", "ass")
TABLE = ("rows", "tricks")
MATCH_SEAT = ("rows", "total", "win")
MATCH_TABLE = ("rows", "hands")
HISTOGRAMS = ("penalty", "tricks")  # the seat and table measures whose values the histograms count
MATCH_HISTOGRAMS = ("total", "hands")
WIN_SCALE = 27720  # lcm(1..12): a match win shared by k <= 12 players is WIN_SCALE / k


@nb.njit(inline="always", cache=True)
def add_hands(penalties, ass_end, tricks, lo, hi, tally, kept, b):
    """Hands lo..hi-1 of every rotation r (penalties[r, h, seat], ass_end[r, h], tricks[r, h]),
    at most DEALS of them since the block last folded, into block b's tally: the deals' sums
    measure by measure (each seat's columns looked up once for all of them), the histograms,
    then each deal ended."""
    sums, count, n = kept[0], hi - lo, penalties.shape[2]
    d = kept[3][0]
    for r in range(tricks.shape[0]):
        for s in range(n):
            for k in range(groupings(tally)):
                c = seat_column(tally, r, k, s, 1)
                if c >= 0:
                    out = seat_column(tally, r, k, s, 2)
                    for i in range(count):
                        p = penalties[r, lo + i, s]
                        sums[c, d + i] += p
                        sums[out, d + i] += p == 0
            seat_counts(tally, b, r, s, penalties[r, lo:hi, s])
        if head_to_head(tally, r):
            for i in range(count):
                a, z = 0, 0
                for s in range(n):
                    p = penalties[r, lo + i, s]
                    side = side_of(tally, r, s)
                    a += p * (side == 0)
                    z += p * (side == 1)
                head_to_head_at(tally, kept, i, r, a, z)
        for i in range(count):
            holder = ass_end[r, lo + i]
            if holder >= 0:
                for k in range(groupings(tally)):
                    c = seat_column(tally, r, k, holder, 3)
                    if c >= 0:
                        sums[c, d + i] += 1
        table_adds(tally, kept, r, 1, tricks[r, lo:hi])
        table_counts(tally, b, r, tricks[r, lo:hi])
    for i in range(count):
        deal_end(tally, kept, b, lo + i)


@nb.njit(inline="always", cache=True)
def add_match(totals, hands, m, tally, kept, b):
    """Match m of every rotation r (totals[r, m, seat], hands[r, m]) into block b's tally, as
    `add_hands`: the lowest total wins, equal lowest totals share the win."""
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
        table_add(tally, kept, r, 1, hands[r, m])
        table_count(tally, b, r, hands[r, m])
        replay_end(tally, kept, r)
    deal_end(tally, kept, b, m)
