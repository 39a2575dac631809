"""Questions about a hand of 15 counts, for strategies (built-in and users' own), compiled inline.

Indices are unsigned on purpose: numba then skips its negative-index fix-up on every access,
which in these short scans is a tenth of the time of a whole hand.
"""

import numba as nb
import numpy as np

JOKER = 14
_NO_VALUE = np.int64(0)


@nb.njit(inline="always", cache=True)
def lowest_value(hand, above=0, at_least=1):
    """The lowest number value v > `above` (>= 0) held at least `at_least` times, or 0 if none."""
    for u in range(np.uint64(above + 1), np.uint64(14)):
        if hand[u] >= at_least:
            return np.int64(u)
    return _NO_VALUE


@nb.njit(inline="always", cache=True)
def highest_value(hand, below=14, at_least=1):
    """The highest number value v < `below` held at least `at_least` times, or 0 if none."""
    for u in range(np.uint64(min(below, 14) - 1), np.uint64(0), -1):
        if hand[u] >= at_least:
            return np.int64(u)
    return _NO_VALUE


@nb.njit(inline="always", cache=True)
def lowest_fillable(hand, above, count):
    """The lowest number value v > `above` (>= 0) held at least once that jokers fill up to
    `count` cards (W8), or 0 if none."""
    jokers = hand[JOKER]
    for u in range(np.uint64(above + 1), np.uint64(14)):
        if hand[u] >= 1 and hand[u] + jokers >= count:
            return np.int64(u)
    return _NO_VALUE


@nb.njit(inline="always", cache=True)
def number_cards(hand):
    """How many number cards (values 1..13) the hand holds."""
    total = 0
    for u in range(np.uint64(1), np.uint64(14)):
        total += hand[u]
    return total
