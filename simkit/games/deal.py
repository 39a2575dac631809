"""The dealing both games share: stack cards go one by one round the table (card k of a run to
seat k mod n), as a dealer deals them."""

import numba as nb


@nb.njit(cache=True, _nrt=False)  # allocates nothing
def deal_round(hands, stack, lo, hi, n, seat):
    """Add stack cards lo..hi-1 to hands[seat], hands[seat + 1], … (mod n); returns the seat that
    would get the next card."""
    for k in range(lo, hi):
        hands[seat, stack[k]] += 1
        seat = seat + 1 if seat + 1 < n else 0
    return seat
