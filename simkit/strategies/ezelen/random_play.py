"""`random`: pass a uniformly random card (M7)."""

from simkit.games.ezelen import view as V
from simkit.games.ezelen.hand import random_card
from simkit.games.ezelen.strategy import strategy


@strategy("random", "Pass one of the four cards uniformly at random (M7).")
def random(hand, view, params, memory, rng):
    return random_card(hand, view[V.PLAYERS], rng)
