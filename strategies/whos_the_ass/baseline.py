"""`lowest`: the baseline every implementation ships, exactly as the rules digest specifies it."""

from simkit.whos_the_ass import view as V
from simkit.whos_the_ass.action import LEAD_ASS, PASS, make_set
from simkit.whos_the_ass.strategy import strategy

JOKER = 14


@strategy("lowest", "Baseline: lead the ass when allowed, else the lowest value; raise as cheaply "
          "as possible; dodge ass tricks with the lowest card.")
def lowest(hand, view, params, rng):
    phase = view[V.PHASE]
    if phase == V.LEAD:
        if view[V.MAY_LEAD_ASS] == 1:
            return LEAD_ASS
        for v in range(1, 14):
            if hand[v] > 0:
                return make_set(v, hand[v], 0)
        return make_set(14, 0, hand[JOKER])
    if phase == V.FOLLOW:
        count = view[V.COUNT]
        top = view[V.TOP]
        jokers = hand[JOKER]
        filler = 0  # the lowest value that jokers could fill up to the count
        for v in range(top + 1, 14):
            if hand[v] >= count:
                return make_set(v, count, 0)
            if filler == 0 and hand[v] >= 1 and hand[v] + jokers >= count:
                filler = v
        if filler > 0:
            return make_set(filler, hand[filler], count - hand[filler])
        if top < 14 and jokers >= count:
            return make_set(14, 0, count)
        return PASS
    for v in range(1, 14):
        if hand[v] > 0:
            return make_set(v, 1, 0)
    return make_set(1, 0, 1)
