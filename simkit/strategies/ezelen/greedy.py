"""`greedy`: keep what you hold most, pass what you hold least."""

from simkit.games.ezelen import view as V
from simkit.games.ezelen.hand import least_held
from simkit.games.ezelen.strategy import strategy


@strategy("greedy", "Pass a card of a value held least often (ties at random, M7); keep the value held most.")
def greedy(hand, view, params, memory, rng):
    return least_held(hand, view[V.PLAYERS], rng)
