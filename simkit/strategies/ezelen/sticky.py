"""`sticky`: pick a target value at the deal and never switch."""

from simkit.core.rng import below
from simkit.games.ezelen import view as V
from simkit.games.ezelen.hand import most_held
from simkit.games.ezelen.rules import HAND_SIZE
from simkit.games.ezelen.strategy import strategy

TARGET = 0  # memory slot: 1 + the target value, 0 before the first decision


@strategy("sticky", "Target the value held most at the deal (ties at random) for the whole round; pass a "
          "random card of another value.")
def sticky(hand, view, params, memory, rng):
    n = view[V.PLAYERS]
    if memory[TARGET] == 0:  # the first decision of the round is made on the dealt hand
        memory[TARGET] = 1 + most_held(hand, n, rng)
    target = memory[TARGET] - 1
    others = HAND_SIZE - hand[target]
    if others == 0:  # a set already copied: one of it has to go
        return target
    k = below(rng, others)  # each non-target card with the same chance
    for v in range(n):
        if v != target:
            k -= hand[v]
            if k < 0:
                return v
    return target
