"""Decision functions, the same way for every game: compiled with the game's one signature,
registered by name with checked parameters, and laid out as the engine's lineup (a tuple of
first-class functions padded to the game's most players, so one compiled driver serves every
player count and every strategy without recompiling)."""

import inspect
import re
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numba as nb
import numpy as np
from numba.core.errors import NumbaError, NumbaExperimentalFeatureWarning

from simkit.core import interrupt
from simkit.core.errors import SimkitError
from simkit.strategies import registry

warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)
MAX_PARAMS = registry.MAX_SLOTS + 1  # the engine's params[seat, :]: a strategy's parameters, then SEES_ALL
SEES_ALL = registry.SEES_ALL


@dataclass(frozen=True)
class Seat:
    """One seat's strategy: its label for tables and traces, compiled function and parameters,
    and (Ezelen, M8) the model values it brings to its seat."""

    label: str
    decide: object
    params: tuple[float, ...] = field(default=())
    origin: str = ""  # "file.py: function" for a user's strategy
    model: tuple[tuple[str, float], ...] = field(default=())


def compile_decision(fn, signature):
    """Compile a decision function with the game's signature, cached on disk.

    Compiled without numba's reference counting (`_nrt=False`) when it allocates nothing: the
    engine's arrays outlive every call, and the atomic increments and decrements numba wraps
    around each array argument cost about as much as a simple decision. A function that needs
    allocation fails that compile and is compiled normally instead (same decisions, slower).
    Functions without an importable module (typed into a notebook, exec'd) are not cached:
    numba could not find their module again when loading the cache.
    """
    module = sys.modules.get(getattr(fn, "__module__", None) or "")
    cache = getattr(module, "__file__", None) is not None
    start = time.perf_counter()
    _compiling.append(start)
    try:
        try:
            return nb.njit(signature, cache=cache, _nrt=False)(fn)
        except NumbaError:
            return nb.njit(signature, cache=cache)(fn)
    finally:
        _compiling.remove(start)
        _compiled[0] += time.perf_counter() - start


_compiling: list[float] = []  # when each compile in progress started
_compiled = [0.0]  # seconds spent in finished compiles


def compile_seconds() -> float:
    """Seconds this process has spent compiling decision functions (`compile_decision`), those in
    progress included: a strategy file's import time limit leaves them out (simkit.strategies.plugins)."""
    now = time.perf_counter()
    return _compiled[0] + sum(now - t for t in list(_compiling))


def register(game: str, name: str, description: str, params: tuple, fn, signature, arguments: tuple[str, ...],
             model: tuple[tuple[str, float], ...] = ()) -> object:
    """Check, compile and register `fn` as strategy `name` of `game`; returns the compiled function.
    A wrong number of arguments or parameters, or a function numba cannot compile, is one error
    naming its file and function, as is a parameter slot outside 0..MAX_SLOTS-1 or shared, or a
    name already registered for the game."""
    origin = origin_of(fn)
    if len(params) > registry.MAX_SLOTS:
        raise SimkitError(f"{origin}: a strategy has at most {registry.MAX_SLOTS} parameters")
    registry.check_slots(tuple(params), origin)
    registry.check_name(game, name, origin)  # before compiling: the compiled function would be new
    found = list(inspect.signature(fn).parameters)
    if len(found) != len(arguments):
        raise SimkitError(f"{origin}: a strategy takes ({', '.join(arguments)}), "
                          f"this one takes ({', '.join(found)})")
    try:
        decide = compile_decision(fn, signature)
    except NumbaError as e:
        raise SimkitError(f"{origin}: does not compile: {compile_reason(e)}") from None
    builtin = fn.__module__.startswith("simkit.strategies.")
    registry.add(registry.StrategyInfo(game, name, description, decide, tuple(params),
                                       origin="" if builtin else origin, model=model))
    return decide


def compile_reason(e: Exception) -> str:
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


def origin_of(fn) -> str:
    try:
        file = Path(inspect.getsourcefile(fn) or "?").name
    except TypeError:
        file = "?"
    return f"{file}: {fn.__name__}"


def lineup_arrays(seats: list[Seat], max_players: int) -> tuple[tuple, np.ndarray]:
    """The engine's form of a lineup: (tuple of max_players functions, params matrix)."""
    fns = tuple(s.decide for s in seats)
    fns = fns + (fns[0],) * (max_players - len(fns))
    params = np.zeros((max_players, MAX_PARAMS), dtype=np.float64)
    for i, s in enumerate(seats):
        params[i, : len(s.params)] = s.params
    return fns, params


def rotation_arrays(rotations: list[list[Seat]], max_players: int) -> tuple[tuple, np.ndarray, np.ndarray]:
    """The engine's form of several seatings (a lineup's rotations, or several lineups' of one
    player count): their distinct functions (at most max_players), order[r, s] (the entry of
    those functions seated at s in seating r) and params[r, s, :]."""
    distinct = distinct_functions(rotations)
    if len(distinct) > max_players:
        raise ValueError(f"one engine call takes at most {max_players} distinct strategy functions")
    fns = tuple(distinct) + (distinct[0],) * (max_players - len(distinct))
    order = np.zeros((len(rotations), max_players), np.int64)
    params = np.zeros((len(rotations), max_players, MAX_PARAMS), np.float64)
    for r, seats in enumerate(rotations):
        for s, seat in enumerate(seats):
            order[r, s] = next(i for i, fn in enumerate(distinct) if fn is seat.decide)
        params[r] = lineup_arrays(seats, max_players)[1]
    return fns, order, params


def distinct_functions(seatings: list[list[Seat]], known: list = ()) -> list:
    """The compiled functions that `seatings` seat, each once, in order of appearance, after those
    `known` already."""
    out: list = list(known)
    for seats in seatings:
        for seat in seats:
            if not any(fn is seat.decide for fn in out):
                out.append(seat.decide)
    return out


def batches(items: list[tuple[list[list[Seat]], int, object]], most_functions: int, most_cost: int) -> list[list[int]]:
    """Items (their seatings, a cost, a key) in runs that one engine call plays: consecutive items
    of one key while the distinct strategy functions they seat stay within `most_functions` (what
    the driver is compiled for) and their costs add up to at most `most_cost`."""
    out: list[list[int]] = []
    functions: list = []
    cost = 0
    for k, (seatings, price, key) in enumerate(items):
        more = distinct_functions(seatings, functions)
        if out and items[out[-1][0]][2] == key and len(more) <= most_functions and cost + price <= most_cost:
            out[-1].append(k)
            functions, cost = more, cost + price
        else:
            out.append([k])
            functions, cost = distinct_functions(seatings), price
    return out


def engine(seats: list[Seat], driver, *args):
    """Call a compiled driver playing `seats`: Ctrl-C stops the wait at once (simkit.core.interrupt),
    and an exception raised in compiled code while a strategy file's strategy sits at the table
    (numba raises ZeroDivisionError for an integer division by zero, IndexError for an index out
    of range when bounds are checked, or whatever the strategy raises itself) is one error naming
    the lineup and the functions from strategy files to check. Which seat raised is not known: a
    compiled exception carries no traceback. With built-in strategies only, it is raised as it is
    (a fault of simkit's)."""
    try:
        return interrupt.call(driver, *args)
    except (SimkitError, NumbaError, MemoryError):
        raise
    except Exception as e:
        origins = list(dict.fromkeys(s.origin for s in seats if s.origin))
        if not origins:
            raise
        if isinstance(e, SystemError) and isinstance(e.__cause__, Exception):
            # numba raising a strategy's exception through the driver can wrap it: "<function
            # _numba_unpickle ...> returned a result with an exception set", the strategy's the cause
            e = e.__cause__
        detail = str(e).splitlines()[0] if str(e).strip() else ""
        raised = type(e).__name__ + (f" ({detail})" if detail else "")
        lineup = ", ".join(s.label for s in seats)
        raise SimkitError(f"a strategy raised {raised} during play (lineup: {lineup}); "
                          f"check {', '.join(origins)}") from None


def seats_for(game: str, specs: list[str], players: int) -> list[Seat]:
    """Resolve one spec per seat (or a single spec for every seat) into Seats."""
    if len(specs) == 1:
        specs = specs * players
    if len(specs) != players:
        raise SimkitError(f"{len(specs)} strategies given for {players} players "
                          "(give one per seat, or a single one for every seat)")
    resolved: dict = {}  # a spec named at several seats is resolved once
    for spec in specs:
        if spec not in resolved:
            info, vector, label = registry.resolve(game, spec)
            resolved[spec] = Seat(label, info.decide, vector, info.origin, info.model)
    return [resolved[spec] for spec in specs]


@dataclass(frozen=True)
class Interface:
    """A game's strategy interface: its decision signature and argument names, and its largest
    table (lineups are padded to it, so one compiled driver serves every player count). The
    game's strategy module names these methods as its own."""

    game: str
    signature: object
    arguments: tuple[str, ...]
    max_players: int
    check_model: object = None  # (values, players, where) -> checked values: a game with a model of its players

    def compile_decision(self, fn):
        """Compile a decision function with this game's signature (`compile_decision`)."""
        return compile_decision(fn, self.signature)

    def register(self, name: str, description: str, params: tuple, fn,
                 model: tuple[tuple[str, float], ...] = ()) -> object:
        """`register` for this game."""
        return register(self.game, name, description, params, fn, self.signature, self.arguments, model)

    def _model_items(self, model, where: str) -> tuple[tuple[str, float], ...]:
        return tuple(self.check_model(model or {}, None, where).items()) if self.check_model else ()

    def strategy(self, name: str, description: str, params: tuple = (), model=None):
        """A decorator registering a decision function under `name`, compiled with the game's
        signature; `model` gives its seat's model values (a profile), e.g. {"attention": 1.5}. A
        function with the wrong arguments, or one numba cannot compile, is an error naming its file
        and function."""
        def wrap(fn):
            return self.register(name, description, params, fn, self._model_items(model, origin_of(fn)))

        return wrap

    def profile(self, name: str, description: str, of: str, model) -> None:
        """Register strategy `of`'s decisions again as `name`, with its own model values (a profile)."""
        base = registry.get(self.game, of)
        registry.add(registry.StrategyInfo(self.game, name, description, base.decide, base.params, base.base,
                                           origin=base.origin,
                                           model=self._model_items({**dict(base.model), **model}, name)))

    def lineup_arrays(self, seats: list[Seat]) -> tuple[tuple, np.ndarray]:
        """The engine's form of a lineup: (tuple of max_players functions, params matrix)."""
        return lineup_arrays(seats, self.max_players)

    def rotation_arrays(self, rotations: list[list[Seat]]) -> tuple[tuple, np.ndarray, np.ndarray]:
        """The engine's form of a lineup's seatings (`rotation_arrays`)."""
        return rotation_arrays(rotations, self.max_players)

    def seats_for(self, specs: list, players: int) -> list[Seat]:
        """Resolve one spec per seat (or a single spec for every seat) into Seats."""
        return seats_for(self.game, specs, players)

