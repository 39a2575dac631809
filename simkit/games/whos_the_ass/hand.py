"""A hand as strategies receive it, and questions about it for strategies (built-in and users'
own), compiled inline.

A hand row is HAND_WIDTH int64 slots: the 15 counts by card code (W2), then HELD, a bit mask of
the codes held (bit c set when hand[c] > 0). The engine keeps HELD up to date, so the helpers
find the lowest or highest value held with one bit count instead of a scan of the counts (that
scan was the largest cost of a hand left: docs/performance.md). The helpers also take the 15
counts alone (a hand built by hand, in a test): then they scan. Both ways give the same answer.

Indices are unsigned in the scans on purpose: numba then skips its negative-index fix-up on every
access.
"""

import numba as nb
import numpy as np

from simkit.core.lowlevel import highest_bit, lowest_bit
from simkit.games.whos_the_ass.rules import N_CODES as _CODES

JOKER = 14
HELD = 15  # the slot after the counts
HAND_WIDTH = 16
_NUMBERS = np.int64(0x3FFE)  # the bits of values 1..13 in HELD
_ONE = np.int64(1)
_NO_VALUE = np.int64(0)


@nb.njit(inline="always", cache=True)
def held_and_size(counts):
    """The HELD mask of 15 counts, and how many cards they are: one pass for a hand's start."""
    mask = _NO_VALUE
    size = _NO_VALUE
    for c in range(_CODES):
        k = counts[c]
        size += k
        if k > 0:
            mask |= _ONE << c
    return mask, size


@nb.njit(inline="always", cache=True)
def held_mask(counts):
    """The HELD mask of 15 counts."""
    return held_and_size(counts)[0]


@nb.njit(inline="always", cache=True)
def mark_held(hands, n):
    """Set HELD in the rows 0..n-1 of `hands` (n x HAND_WIDTH) from their counts: after a deal,
    or wherever hands are written other than by the engine's moves."""
    for s in range(n):
        hands[s, HELD] = held_mask(hands[s])


def with_held(counts: np.ndarray) -> np.ndarray:
    """15 counts as a hand row (HAND_WIDTH slots, HELD filled): the plain-Python engine's form."""
    row = np.zeros(HAND_WIDTH, np.int64)
    row[:_CODES] = counts
    row[HELD] = held_mask(row)
    return row


@nb.njit(inline="always", cache=True)
def _numbers_between(hand, above, below):
    """HELD's values v with above < v < below."""
    above = min(max(above, 0), 14)
    below = min(max(below, 0), 14)
    return hand[HELD] & _NUMBERS & ~((np.int64(2) << above) - _ONE) & ((_ONE << below) - _ONE)


@nb.njit(inline="always", cache=True)
def lowest_value(hand, above=0, at_least=1):
    """The lowest number value v > `above` (>= 0) held at least `at_least` times, or 0 if none."""
    if hand.shape[0] > HELD:
        held = _numbers_between(hand, above, 14)
        while held != 0:
            v = lowest_bit(held)
            if hand[v] >= at_least:
                return v
            held &= held - _ONE
        return _NO_VALUE
    for u in range(np.uint64(max(above, 0) + 1), np.uint64(14)):
        if hand[u] >= at_least:
            return np.int64(u)
    return _NO_VALUE


@nb.njit(inline="always", cache=True)
def highest_value(hand, below=14, at_least=1):
    """The highest number value v < `below` held at least `at_least` times, or 0 if none."""
    if hand.shape[0] > HELD:
        held = _numbers_between(hand, 0, below)
        while held != 0:
            v = highest_bit(held)
            if hand[v] >= at_least:
                return v
            held &= ~(_ONE << v)
        return _NO_VALUE
    for u in range(np.uint64(min(max(below, 1), 14) - 1), np.uint64(0), -1):
        if hand[u] >= at_least:
            return np.int64(u)
    return _NO_VALUE


@nb.njit(inline="always", cache=True)
def lowest_fillable(hand, above, count):
    """The lowest number value v > `above` (>= 0) held at least once that jokers fill up to
    `count` cards (W8), or 0 if none."""
    jokers = hand[JOKER]
    if hand.shape[0] > HELD:
        held = _numbers_between(hand, above, 14)
        while held != 0:
            v = lowest_bit(held)
            if hand[v] + jokers >= count:
                return v
            held &= held - _ONE
        return _NO_VALUE
    for u in range(np.uint64(max(above, 0) + 1), np.uint64(14)):
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
