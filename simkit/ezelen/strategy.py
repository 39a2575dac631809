"""The strategy interface of Ezelen: one compiled signature, and the lineup the engine takes (a
tuple of first-class functions, one per seat, padded to MAX_PLAYERS so one compiled driver
serves every player count and every strategy without recompiling).

A strategy chooses the value to pass (M1): `decide(hand, view, params, memory, rng) -> value`.
It may bundle an attention profile (M8): model values its seat gets unless the caller says
otherwise (simkit.ezelen.model).
"""

import inspect
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field

import numba as nb
import numpy as np
from numba import types
from numba.core.errors import NumbaError

from simkit import registry
from simkit.errors import SimkitError
from simkit.ezelen.model import check_values
from simkit.ezelen.rules import GAME, MAX_PLAYERS
from simkit.whos_the_ass.strategy import _compile_reason, _origin  # game-agnostic helpers

MAX_PARAMS = 16
MEMORY_SIZE = 16

# decide(hand, view, params, memory, rng) -> value; hand, view and params read-only
SIGNATURE = types.int64(
    types.Array(types.int64, 1, "C", readonly=True),    # own hand: 13 counts by value (Z1)
    types.Array(types.int64, 1, "C", readonly=True),    # this player's view (simkit.ezelen.view)
    types.Array(types.float64, 1, "C", readonly=True),  # this seat's strategy parameters
    types.int64[::1],   # MEMORY_SIZE slots of this seat's own, zeroed at the deal, kept all round
    types.uint64[::1],  # this seat's random state in this round (simkit.rng)
)
DECIDE = types.FunctionType(SIGNATURE)
LINEUP = types.UniTuple(DECIDE, MAX_PLAYERS)
ARGUMENTS = ("hand", "view", "params", "memory", "rng")


def compile_decision(fn):
    """Compile a decision function with the fixed signature, cached on disk when it has a module
    file; without reference counting when it allocates nothing (as in Who's the Ass?)."""
    module = sys.modules.get(getattr(fn, "__module__", None) or "")
    cache = getattr(module, "__file__", None) is not None
    try:
        return nb.njit(SIGNATURE, cache=cache, _nrt=False)(fn)
    except NumbaError:
        return nb.njit(SIGNATURE, cache=cache)(fn)


@dataclass(frozen=True)
class Seat:
    """One seat: label for tables and traces, compiled function, parameters, bundled model values."""

    label: str
    decide: object
    params: tuple[float, ...] = field(default=())
    origin: str = ""  # "file.py: function" for a user's strategy
    model: tuple[tuple[str, float], ...] = field(default=())  # M8: this seat's attention profile


def lineup_arrays(seats: list[Seat]) -> tuple[tuple, np.ndarray]:
    """The engine's form of a lineup: (tuple of MAX_PLAYERS functions, params matrix)."""
    fns = tuple(s.decide for s in seats)
    fns = fns + (fns[0],) * (MAX_PLAYERS - len(fns))
    params = np.zeros((MAX_PLAYERS, MAX_PARAMS), dtype=np.float64)
    for i, s in enumerate(seats):
        params[i, : len(s.params)] = s.params
    return fns, params


def _model_items(model: Mapping[str, float] | None, where: str) -> tuple[tuple[str, float], ...]:
    return tuple(check_values(model or {}, None, where).items())


def strategy(name: str, description: str, params: tuple = (), model: Mapping[str, float] | None = None):
    """Register a decision function under `name`, compiled with the fixed signature; `model`
    gives its seat's model values (M8), e.g. {"attention": 1.5}.

    A function with the wrong arguments, or one numba cannot compile, is an error naming its file
    and function.
    """

    def wrap(fn):
        origin = _origin(fn)
        if len(params) > MAX_PARAMS or any(p.slot is not None and not 0 <= p.slot < MAX_PARAMS for p in params):
            raise SimkitError(f"{origin}: a strategy has at most {MAX_PARAMS} parameters")
        arguments = list(inspect.signature(fn).parameters)
        if len(arguments) != len(ARGUMENTS):
            raise SimkitError(f"{origin}: an Ezelen strategy takes ({', '.join(ARGUMENTS)}), "
                              f"this one takes ({', '.join(arguments)})")
        bundled = _model_items(model, origin)
        try:
            decide = compile_decision(fn)
        except NumbaError as e:
            raise SimkitError(f"{origin}: does not compile: {_compile_reason(e)}") from None
        builtin = fn.__module__.startswith("strategies.")
        registry.add(registry.StrategyInfo(GAME, name, description, decide, tuple(params),
                                           origin="" if builtin else origin, model=bundled))
        return decide

    return wrap


def profile(name: str, description: str, of: str, model: Mapping[str, float]) -> None:
    """Register `of`'s passing policy again as `name`, with an attention profile (M8)."""
    base = registry.get(GAME, of)
    registry.add(registry.StrategyInfo(GAME, name, description, base.decide, base.params, base.base,
                                       origin=base.origin, model=_model_items({**dict(base.model), **model}, name)))


def seats_for(specs: list[str], players: int) -> list[Seat]:
    """Resolve one spec per seat (or a single spec for every seat) into Seats."""
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise SimkitError(f"{len(specs)} strategies given for {players} players "
                          "(give one per seat, or a single one for every seat)")
    seats = []
    for spec in specs:
        info, vector, label = registry.resolve(GAME, spec)
        seats.append(Seat(label, info.decide, vector, info.origin, info.model))
    return seats
