"""`random`: uniform over the distinct legal actions, pass included."""

from simkit.core.rng import below
from simkit.games.whos_the_ass.legal import nth_legal
from simkit.games.whos_the_ass.strategy import strategy


@strategy("random", "Uniformly random among the distinct legal actions (pass included).")
def random(hand, view, params, rng):
    return nth_legal(hand, view, below(rng, nth_legal(hand, view, -1)))
