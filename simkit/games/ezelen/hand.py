"""Questions about a hand of 13 counts, for strategies (built-in and users' own), compiled inline.

Every tie is broken with the seat's random stream, never by position alone (M7, M5): a fixed
tie-break can pass the same cards back and forth for ever.
"""

import numba as nb

from simkit.core.rng import below, pick_equal
from simkit.games.ezelen.rules import HAND_SIZE


@nb.njit(inline="always", cache=True)
def nth_card(hand, n, k):
    """The value of card k (0..3) of the hand in value order."""
    for v in range(n):
        k -= hand[v]
        if k < 0:
            return v
    return -1


@nb.njit(inline="always", cache=True)
def random_card(hand, n, rng):
    """M7: each of the four cards with probability 1/4."""
    return nth_card(hand, n, below(rng, HAND_SIZE))


@nb.njit(inline="always", cache=True)
def least_held(hand, n, rng):
    """A value held least often (but held); several: one at random (one draw only then)."""
    low = HAND_SIZE + 1
    k = 0
    for v in range(n):
        c = hand[v]
        if c > 0:
            if c < low:
                low = c
                k = 1
            elif c == low:
                k += 1
    return pick_equal(hand, n, low, k, rng)


@nb.njit(inline="always", cache=True)
def most_held(hand, n, rng):
    """A value held most often; several: one at random (one draw only then)."""
    high = 0
    k = 0
    for v in range(n):
        c = hand[v]
        if c > high:
            high = c
            k = 1
        elif c == high:
            k += 1
    return pick_equal(hand, n, high, k, rng)
