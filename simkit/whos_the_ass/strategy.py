"""The strategy interface of Who's the Ass?: one compiled signature, and the lineup the engine
takes (a tuple of first-class functions, one per seat, padded to MAX_PLAYERS so one compiled
driver serves every player count and every strategy without recompiling)."""

import numpy as np
from numba import types

from simkit import decisions
from simkit.decisions import MAX_PARAMS, Seat  # noqa: F401  (the game's names for them)
from simkit.whos_the_ass.rules import GAME, MAX_PLAYERS

# decide(hand, view, params, rng) -> action; all but the random state read-only, so a strategy
# cannot change the engine's state or its own parameters
SIGNATURE = types.int64(
    types.Array(types.int64, 1, "C", readonly=True),    # own hand: 15 counts by card code (W2)
    types.Array(types.int64, 1, "C", readonly=True),    # public view (simkit.whos_the_ass.view)
    types.Array(types.float64, 1, "C", readonly=True),  # this seat's strategy parameters
    types.uint64[::1],  # this seat's random state in this hand (simkit.rng)
)
DECIDE = types.FunctionType(SIGNATURE)
LINEUP = types.UniTuple(DECIDE, MAX_PLAYERS)
ARGUMENTS = ("hand", "view", "params", "rng")


def compile_decision(fn):
    """Compile a decision function with this game's signature (simkit.decisions.compile_decision)."""
    return decisions.compile_decision(fn, SIGNATURE)


def lineup_arrays(seats: list[Seat]) -> tuple[tuple, np.ndarray]:
    """The engine's form of a lineup: (tuple of MAX_PLAYERS functions, params matrix)."""
    return decisions.lineup_arrays(seats, MAX_PLAYERS)


def rotation_arrays(rotations: list[list[Seat]]) -> tuple[tuple, np.ndarray, np.ndarray]:
    """The engine's form of a lineup's seatings (simkit.decisions.rotation_arrays)."""
    return decisions.rotation_arrays(rotations, MAX_PLAYERS)


def strategy(name: str, description: str, params: tuple = ()):
    """Register a decision function `decide(hand, view, params, rng)` under `name`, compiled with
    the fixed signature. A function with the wrong arguments, or one numba cannot compile, is an
    error naming its file and function."""
    return lambda fn: decisions.register(GAME, name, description, params, fn, SIGNATURE, ARGUMENTS)


def seats_for(specs: list[str], players: int) -> list[Seat]:
    """Resolve one spec per seat (or a single spec for every seat) into Seats."""
    return decisions.seats_for(GAME, specs, players)
