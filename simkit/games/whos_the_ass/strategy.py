"""The strategy interface of Who's the Ass?: one compiled signature, and the lineup the engine
takes (a tuple of first-class functions, one per seat, padded to MAX_PLAYERS so one compiled
driver serves every player count and every strategy without recompiling)."""

from numba import types

from simkit.games.whos_the_ass.rules import GAME, MAX_PLAYERS
from simkit.strategies import decisions
from simkit.strategies.decisions import MAX_PARAMS, SEES_ALL, Seat  # noqa: F401  (the game's names for them)

# decide(hand, view, params, rng) -> action; all but the random state read-only, so a strategy
# cannot change the engine's state or its own parameters
SIGNATURE = types.int64(
    types.Array(types.int64, 1, "C", readonly=True),    # own hand: 15 counts by card code (W2), HELD
    types.Array(types.int64, 1, "C", readonly=True),    # public view (simkit.games.whos_the_ass.view)
    types.Array(types.float64, 1, "C", readonly=True),  # this seat's strategy parameters
    types.uint64[::1],  # this seat's random state in this hand (simkit.core.rng)
)
DECIDE = types.FunctionType(SIGNATURE)
LINEUP = types.UniTuple(DECIDE, MAX_PLAYERS)
ARGUMENTS = ("hand", "view", "params", "rng")


INTERFACE = decisions.Interface(GAME, SIGNATURE, ARGUMENTS, MAX_PLAYERS)
compile_decision = INTERFACE.compile_decision
lineup_arrays = INTERFACE.lineup_arrays
rotation_arrays = INTERFACE.rotation_arrays
seats_for = INTERFACE.seats_for


def strategy(name: str, description: str, params: tuple = ()):
    """Register a decision function `decide(hand, view, params, rng)` under `name`, compiled with
    the fixed signature. A function with the wrong arguments, or one numba cannot compile, is an
    error naming its file and function."""
    return lambda fn: INTERFACE.register(name, description, params, fn)
