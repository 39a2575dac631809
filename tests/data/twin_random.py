"""`random_twin`: plays like `random` in distribution, but from other draws of its stream (it
skips one first), so on the same deal it makes its own choices. Two strategies that are equal
in law: their paired difference has true mean exactly 0."""

from simkit.core.rng import below, next_u64
from simkit.games.whos_the_ass.legal import nth_legal
from simkit.games.whos_the_ass.strategy import strategy


@strategy("random_twin", "Uniform over the distinct legal actions, from other draws than random.")
def random_twin(hand, view, params, rng):
    next_u64(rng)
    return nth_legal(hand, view, below(rng, nth_legal(hand, view, -1)))
