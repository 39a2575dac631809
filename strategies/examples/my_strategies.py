"""An example strategy file: `simkit simulate --strategy-file strategies/examples/my_strategies.py
--players 4 --strategies pairs_first,lowest,lowest,lowest`."""

from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.action import LEAD_ASS, PASS, make_set
from simkit.games.whos_the_ass.hand import JOKER, lowest_value
from simkit.games.whos_the_ass.strategy import strategy
from simkit.strategies.registry import Param


@strategy("pairs_first", "Lead the lowest pair (or better); raise only with cards above `min_raise`.",
          params=(Param("min_raise", 8, 1, 13, "never raise with cards below this value"),))
def pairs_first(hand, view, params, rng):
    phase = view[V.PHASE]
    if phase == V.ASS_TRICK:
        v = lowest_value(hand)
        return make_set(v, 1, 0) if v > 0 else make_set(1, 0, 1)  # dodge: lowest card, or a joker as 1
    if phase == V.LEAD:
        if view[V.MAY_LEAD_ASS] == 1:
            return LEAD_ASS
        v = lowest_value(hand, 0, 2)  # the lowest value held at least twice
        if v == 0:
            v = lowest_value(hand)
        return make_set(v, hand[v], 0) if v > 0 else make_set(14, 0, hand[JOKER])
    count, top = view[V.COUNT], view[V.TOP]
    v = lowest_value(hand, max(top, int(params[0]) - 1), count)  # the cheapest raise allowed
    return make_set(v, count, 0) if v > 0 else PASS
