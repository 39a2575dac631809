"""`memory`: greedy, with what came through from the right neighbour in mind.

Each held value v scores
    hand[v] + weight * received[v] / turn
where received[v] / turn is the share of this round's turns in which the right neighbour passed
a v (view.RECEIVED): a value it keeps passing on is one it is not collecting, so more can come;
a value seen rarely is probably being collected upstream. A card of the lowest-scoring value is
passed, exact ties at random (M7). Before turn `warmup` too little has been seen and it plays
exactly like greedy; with weight 0 it is greedy throughout.
"""

from simkit.core.rng import below
from simkit.games.ezelen import view as V
from simkit.games.ezelen.hand import least_held
from simkit.games.ezelen.rules import HAND_SIZE
from simkit.games.ezelen.strategy import strategy
from simkit.strategies.registry import Param

WEIGHT = 0
WARMUP = 1


@strategy("memory", "Like greedy, but keep values the right neighbour keeps passing and drop values seen "
          "rarely: score = count + weight x (share of turns the value came from the right).",
          params=(Param("weight", 1.0, 0.0, 10.0, "how much a value's arrival rate counts against a held card",
                        WEIGHT),
                  Param("warmup", 3, 1, 100, "turns to watch before the rates count", WARMUP, integer=True)))
def memory(hand, view, params, memory, rng):
    n = view[V.PLAYERS]
    turn = view[V.TURN]
    if turn < params[WARMUP]:
        return least_held(hand, n, rng)
    weight = params[WEIGHT]
    # scores times `turn` (no division; the same order)
    low = (HAND_SIZE + 1.0) * turn + weight * turn
    k = 0
    for v in range(n):
        if hand[v] > 0:
            score = hand[v] * turn + weight * view[V.RECEIVED + v]
            if score < low:
                low = score
                k = 1
            elif score == low:
                k += 1
    pick = below(rng, k) if k > 1 else 0
    for v in range(n):
        if hand[v] > 0 and hand[v] * turn + weight * view[V.RECEIVED + v] == low:
            if pick == 0:
                return v
            pick -= 1
    return -1
