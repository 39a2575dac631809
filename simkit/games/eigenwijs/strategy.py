"""The strategy interface of Eigenwijs: one compiled signature, and the lineup the engine takes (a
tuple of first-class functions, one per seat, padded to MAX_PLAYERS).

A strategy gives the response its player means to make (H1): `decide(view, params, rng) ->
response`, a word, "Precies", a count or a slap (simkit.games.eigenwijs.rules). Whether the player
says it, and how fast, is the model's (H2–H5): a strategy may bring its own model values, a
profile (H7).
"""

from numba import types

from simkit.games.eigenwijs.model import check_values
from simkit.games.eigenwijs.rules import GAME, MAX_PLAYERS
from simkit.strategies import decisions
from simkit.strategies.decisions import MAX_PARAMS, Seat  # noqa: F401  (the game's names for them)

# decide(view, params, rng) -> response; view and params read-only
SIGNATURE = types.int64(
    types.Array(types.int64, 1, "C", readonly=True),    # the flipping player's view (simkit.games.eigenwijs.view)
    types.Array(types.float64, 1, "C", readonly=True),  # this seat's strategy parameters
    types.uint64[::1],  # this seat's random state in this game (simkit.core.rng)
)
DECIDE = types.FunctionType(SIGNATURE)
LINEUP = types.UniTuple(DECIDE, MAX_PLAYERS)
ARGUMENTS = ("view", "params", "rng")

INTERFACE = decisions.Interface(GAME, SIGNATURE, ARGUMENTS, MAX_PLAYERS, check_values)
compile_decision = INTERFACE.compile_decision
lineup_arrays = INTERFACE.lineup_arrays
rotation_arrays = INTERFACE.rotation_arrays
seats_for = INTERFACE.seats_for
strategy = INTERFACE.strategy  # @strategy(name, description, params=(), model=None) registers decide
profile = INTERFACE.profile    # profile(name, description, of, model): `of` again, with model values
