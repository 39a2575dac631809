"""The strategy interface of Ezelen: one compiled signature, and the lineup the engine takes (a
tuple of first-class functions, one per seat, padded to MAX_PLAYERS so one compiled driver
serves every player count and every strategy without recompiling).

A strategy chooses the value to pass (M1): `decide(hand, view, params, memory, rng) -> value`.
It may bundle an attention profile (M8): model values its seat gets unless the caller says
otherwise (simkit.games.ezelen.model).
"""

from numba import types

from simkit.games.ezelen.model import check_values
from simkit.games.ezelen.rules import GAME, MAX_PLAYERS
from simkit.strategies import decisions
from simkit.strategies.decisions import MAX_PARAMS, Seat  # noqa: F401  (the game's names for them)

MEMORY_SIZE = 16

# decide(hand, view, params, memory, rng) -> value; hand, view and params read-only
SIGNATURE = types.int64(
    types.Array(types.int64, 1, "C", readonly=True),    # own hand: 13 counts by value (Z1)
    types.Array(types.int64, 1, "C", readonly=True),    # this player's view (simkit.games.ezelen.view)
    types.Array(types.float64, 1, "C", readonly=True),  # this seat's strategy parameters
    types.int64[::1],   # MEMORY_SIZE slots of this seat's own, zeroed at the deal, kept all round
    types.uint64[::1],  # this seat's random state in this round (simkit.core.rng)
)
DECIDE = types.FunctionType(SIGNATURE)
LINEUP = types.UniTuple(DECIDE, MAX_PLAYERS)
ARGUMENTS = ("hand", "view", "params", "memory", "rng")


INTERFACE = decisions.Interface(GAME, SIGNATURE, ARGUMENTS, MAX_PLAYERS, check_values)
compile_decision = INTERFACE.compile_decision
lineup_arrays = INTERFACE.lineup_arrays
rotation_arrays = INTERFACE.rotation_arrays
seats_for = INTERFACE.seats_for
strategy = INTERFACE.strategy  # @strategy(name, description, params=(), model=None) registers decide
profile = INTERFACE.profile    # profile(name, description, of, model): `of` again, with model values
