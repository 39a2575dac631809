"""Pig's strategies; importing this module registers them (the game's `strategies`)."""

from simkit.core.rng import below
from simkit.strategies.registry import Param

from . import view as V
from .rules import HOLD, ROLL
from .strategy import strategy


@strategy("hold_at", "Rolls until the turn's total reaches `limit`, then holds: the rule of thumb.",
          params=(Param("limit", 20, 1, 100, "the turn total it holds at", integer=True),))
def hold_at(view, params, rng):
    return ROLL if view[V.TOTAL] < params[0] else HOLD


@strategy("chase", "Holds at 20, but while behind the leader rolls on until the turn has caught up.")
def chase(view, params, rng):
    me = view[V.SEAT]
    lead = 0
    for s in range(view[V.PLAYERS]):
        if s != me and view[V.SCORES + s] > lead:
            lead = view[V.SCORES + s]
    return ROLL if view[V.TOTAL] < max(20, lead - view[V.SCORES + me]) else HOLD


@strategy("coin", "Rolls again on a fair coin's toss: a yardstick of no skill.")
def coin(view, params, rng):
    return below(rng, 2)
