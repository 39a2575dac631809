"""Pig's strategy interface (simkit.strategies.decisions): `decide(view, params, rng) -> HOLD or
ROLL`, one compiled signature, the lineup a tuple of first-class functions padded to MAX_PLAYERS."""

from numba import types

from simkit.strategies import decisions
from simkit.strategies.decisions import Seat  # noqa: F401  (the game's name for it)

from .rules import MAX_PLAYERS, NAME

SIGNATURE = types.int64(
    types.Array(types.int64, 1, "C", readonly=True),    # the deciding player's view (view.py)
    types.Array(types.float64, 1, "C", readonly=True),  # this seat's strategy parameters
    types.uint64[::1],  # this seat's random state in this game (simkit.core.rng)
)
LINEUP = types.UniTuple(types.FunctionType(SIGNATURE), MAX_PLAYERS)

INTERFACE = decisions.Interface(NAME, SIGNATURE, ("view", "params", "rng"), MAX_PLAYERS)
rotation_arrays = INTERFACE.rotation_arrays
seats_for = INTERFACE.seats_for
strategy = INTERFACE.strategy  # @strategy(name, description, params=()) registers decide
