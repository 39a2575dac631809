"""The strategy interface of Who's the Ass?: one compiled signature, and the lineup the engine
takes (a tuple of first-class functions, one per seat, padded to MAX_PLAYERS so one compiled
driver serves every player count and every strategy without recompiling)."""

import inspect
import re
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numba as nb
import numpy as np
from numba import types
from numba.core.errors import NumbaError, NumbaExperimentalFeatureWarning

from simkit import registry
from simkit.errors import SimkitError
from simkit.whos_the_ass.rules import GAME, MAX_PLAYERS

warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

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
MAX_PARAMS = 16


def compile_decision(fn):
    """Compile a decision function with the fixed signature, cached on disk.

    Compiled without numba's reference counting (`_nrt=False`) when it allocates nothing: the
    engine's arrays outlive every call, and the atomic increments and decrements numba wraps
    around each array argument cost about as much as a simple decision. A function that needs
    allocation fails that compile and is compiled normally instead (same decisions, slower).
    Functions without an importable module (typed into a notebook, exec'd) are not cached:
    numba could not find their module again when loading the cache.
    """
    module = sys.modules.get(getattr(fn, "__module__", None) or "")
    cache = getattr(module, "__file__", None) is not None
    try:
        return nb.njit(SIGNATURE, cache=cache, _nrt=False)(fn)
    except NumbaError:
        return nb.njit(SIGNATURE, cache=cache)(fn)


@dataclass(frozen=True)
class Seat:
    """One seat's strategy: its label for tables and traces, compiled function and parameters."""

    label: str
    decide: object
    params: tuple[float, ...] = field(default=())
    origin: str = ""  # "file.py: function" for a user's strategy


def lineup_arrays(seats: list[Seat]) -> tuple[tuple, np.ndarray]:
    """The engine's form of a lineup: (tuple of MAX_PLAYERS functions, params matrix)."""
    fns = tuple(s.decide for s in seats)
    fns = fns + (fns[0],) * (MAX_PLAYERS - len(fns))
    params = np.zeros((MAX_PLAYERS, MAX_PARAMS), dtype=np.float64)
    for i, s in enumerate(seats):
        params[i, : len(s.params)] = s.params
    return fns, params


def strategy(name: str, description: str, params: tuple = ()):
    """Register a decision function under `name`, compiled with the fixed signature.

    A function with the wrong arguments, or one numba cannot compile, is an error naming its
    file and function.
    """

    def wrap(fn):
        origin = _origin(fn)
        if len(params) > MAX_PARAMS or any(p.slot is not None and not 0 <= p.slot < MAX_PARAMS for p in params):
            raise SimkitError(f"{origin}: a strategy has at most {MAX_PARAMS} parameters")
        arguments = list(inspect.signature(fn).parameters)
        if len(arguments) != 4:
            raise SimkitError(
                f"{origin}: a strategy takes (hand, view, params, rng), this one takes ({', '.join(arguments)})")
        try:
            decide = compile_decision(fn)
        except NumbaError as e:
            raise SimkitError(f"{origin}: does not compile: {_compile_reason(e)}") from None
        builtin = fn.__module__.startswith("strategies.")
        registry.add(registry.StrategyInfo(GAME, name, description, decide, tuple(params),
                                           origin="" if builtin else origin))
        return decide

    return wrap


def _compile_reason(e: Exception) -> str:
    """The useful part of numba's long compile error, on one line."""
    text = str(e)
    where = re.findall(r'File "[^"]*", line (\d+)', text)
    at = f" (line {where[-1]})" if where else ""
    if "Cannot modify readonly array" in text:
        return f"it writes to hand, view or params, which a strategy may only read{at}"
    lines = [x.strip() for x in text.splitlines()
             if x.strip() and not x.strip().startswith(("Failed in nopython mode", "During:"))]
    reason = lines[0] if lines else type(e).__name__
    signature = next((x for x in lines if x.startswith(">>>")), "")
    return f"{reason} {signature}".strip() + at


def _origin(fn) -> str:
    try:
        file = Path(inspect.getsourcefile(fn) or "?").name
    except TypeError:
        file = "?"
    return f"{file}: {fn.__name__}"


def seats_for(specs: list[str], players: int) -> list[Seat]:
    """Resolve one spec per seat (or a single spec for every seat) into Seats."""
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise SimkitError(
            f"{len(specs)} strategies given for {players} players "
            "(give one per seat, or a single one for every seat)"
        )
    seats = []
    for spec in specs:
        info, vector, label = registry.resolve(GAME, spec)
        seats.append(Seat(label, info.decide, vector, info.origin))
    return seats
