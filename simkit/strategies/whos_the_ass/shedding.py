"""Shedding style for normal tricks: which set to lead and which raise to make.

`lowest` (the baseline's way): lead the lowest value, raise as cheaply as possible. `greedy`: lead
the largest set; raise with the cheapest set that beats, but pass when a raise would break a
larger set. `highest`: shed high cards first, in leads and raises.
"""

import numba as nb
import numpy as np

from simkit.games.whos_the_ass.action import PASS, make_set
from simkit.games.whos_the_ass.hand import JOKER
from simkit.strategies.whos_the_ass import slots as P
from simkit.strategies.whos_the_ass.reserve import usable


@nb.njit(inline="always", cache=True)
def lead_set(style, hand, jokers, t, r):
    """A set to lead with `jokers` jokers added; None of the number cards in the reserve (t, r),
    unless nothing else can be led."""
    best = np.int64(0)
    best_n = np.int64(0)
    for v in range(1, 14):
        n = usable(hand, v, t, r)
        if n > 0:
            if best == 0 or style == P.HIGHEST or (style == P.GREEDY and n > best_n):
                best, best_n = v, n
            if style == P.LOWEST:
                break
    if best > 0:
        return make_set(best, best_n, jokers)
    if hand[JOKER] > 0:
        return make_set(14, 0, hand[JOKER])  # only jokers can be led (reserve or none left)
    for v in range(1, 14):  # only reserved cards: the reserve gives way to the rule W7
        if hand[v] > 0:
            return make_set(v, hand[v], 0)
    return PASS  # a hand of only the ass that may not be led cannot occur


@nb.njit(inline="always", cache=True)
def raise_set(style, hand, count, top, jokers, t, r):
    """A raise over `count` cards of value `top`, or PASS."""
    lo = max(top + 1, 1)
    for i in range(14 - lo):  # a set of number cards alone, values lo..13 in the style's order
        v = 13 - i if style == P.HIGHEST else lo + i
        n = usable(hand, v, t, r)
        if n >= count and (style != P.GREEDY or n == count):
            return make_set(v, count, 0)
    for i in range(14 - lo):  # number cards filled up with jokers
        v = 13 - i if style == P.HIGHEST else lo + i
        n = usable(hand, v, t, r)
        if 1 <= n < count and n + jokers >= count:
            return make_set(v, n, count - n)
    if top < 14 and jokers >= count:
        return make_set(14, 0, count)
    return PASS
