"""Joker timing: how many jokers a player is willing to spend in a normal trick.

`as_needed` (the baseline's habit): jokers fill up a raise, never a lead. `spend`: use jokers
whenever they let you shed more cards or raise. `hoard(release_at)`: keep jokers until they let
you go out, or until the hand has at most `release_at` cards.
"""

import numba as nb

from simkit.games.whos_the_ass.hand import JOKER, number_cards
from simkit.strategies.whos_the_ass import slots as P


@nb.njit(inline="always", cache=True)
def joker_budget(hand, params, leading, count, top):
    """Jokers usable now; `count`/`top` describe the trick when following."""
    jokers = hand[JOKER]
    policy = params[P.JOKERS]
    if policy == P.SPEND:
        return jokers
    if policy == P.HOARD:
        size = number_cards(hand) + jokers + hand[0]
        if size <= params[P.RELEASE_AT] or _goes_out(hand, leading, count, top):
            return jokers
        return 0
    return 0 if leading else jokers


@nb.njit(inline="always", cache=True)
def _goes_out(hand, leading, count, top):
    """One set of a single number value plus every joker would empty the hand."""
    if hand[0] > 0:
        return False
    value = 0
    for v in range(1, 14):
        if hand[v] > 0:
            if value > 0:
                return False
            value = v
    if value == 0:  # jokers alone: as a lead, or a raise of exactly their number
        return leading or (top < 14 and hand[JOKER] == count)
    if leading:
        return True
    return value > top and hand[value] + hand[JOKER] == count
