"""The ass: when to lead it, and what to play in an ass trick.

As leader: `dump` leads the ass as soon as allowed; `delay(delay_until)` first sheds its largest
set while the hand has more than `delay_until` cards. In an ass trick: `dodge` plays the lowest
card; `grab(max_cost)` takes the trick when it is sure to (the last to play) and the cards on
the table cost at most `max_cost` penalty points, to lead next.
"""

import numba as nb
import numpy as np

from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.action import make_set
from simkit.games.whos_the_ass.hand import JOKER, lowest_value, number_cards
from simkit.games.whos_the_ass.rules import PENALTY
from simkit.strategies.whos_the_ass import slots as P

_PENALTY = PENALTY


@nb.njit(inline="always", cache=True)
def leads_the_ass(hand, params):
    """Whether to lead the ass now, given that the rules allow it."""
    if params[P.ASS_LEAD] == P.DELAY:
        return number_cards(hand) + hand[JOKER] + 1 <= params[P.DELAY_UNTIL]
    return True


@nb.njit(inline="always", cache=True)
def ass_trick_card(hand, view, params):
    if params[P.ASS] == P.GRAB and _grab_pays(hand, view, params):
        top = view[V.TOP]
        v = lowest_value(hand, top - 1)  # as the last to play, an equal value takes (W14)
        if v > 0:
            return make_set(v, 1, 0)
        if hand[JOKER] > 0 and view[V.ASS_JOKER] != 1:
            return make_set(max(top, 1) if view[V.ASS_JOKER] == 2 else 14, 0, 1)
    v = lowest_value(hand)
    if v > 0:
        return make_set(v, 1, 0)
    return make_set(1, 0, 1)  # a lone joker declared 1 dodges under every option (W13)


@nb.njit(inline="always", cache=True)
def _grab_pays(hand, view, params):
    n = view[V.PLAYERS]
    last = view[V.LEADER] - 1 if view[V.LEADER] > 0 else n - 1
    if view[V.SEAT] != last:
        return False
    cost = np.int64(0)
    for c in range(15):
        cost += view[V.TABLE + c] * _PENALTY[c]
    return cost <= params[P.MAX_COST]
