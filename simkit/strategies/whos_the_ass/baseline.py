"""`lowest`: the baseline every implementation ships, exactly as the rules digest specifies it."""

from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.action import LEAD_ASS, PASS, make_set
from simkit.games.whos_the_ass.hand import JOKER, lowest_fillable, lowest_value
from simkit.games.whos_the_ass.strategy import strategy


@strategy("lowest", "Baseline: lead the ass when allowed, else the lowest value; raise as cheaply "
          "as possible; dodge ass tricks with the lowest card.")
def lowest(hand, view, params, rng):
    phase = view[V.PHASE]
    if phase == V.LEAD:
        if view[V.MAY_LEAD_ASS] == 1:
            return LEAD_ASS
        v = lowest_value(hand)
        if v > 0:
            return make_set(v, hand[v], 0)
        return make_set(14, 0, hand[JOKER])
    if phase == V.FOLLOW:
        count = view[V.COUNT]
        top = view[V.TOP]
        v = lowest_value(hand, top, count)
        if v > 0:
            return make_set(v, count, 0)
        if hand[JOKER] > 0:  # without jokers no value can be filled up
            v = lowest_fillable(hand, top, count)
            if v > 0:
                return make_set(v, hand[v], count - hand[v])
            if top < 14 and hand[JOKER] >= count:
                return make_set(14, 0, count)
        return PASS
    v = lowest_value(hand)
    if v > 0:
        return make_set(v, 1, 0)
    return make_set(1, 0, 1)
