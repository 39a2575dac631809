"""Strategies by name: registration, look-up per game, and resolving a strategy spec
(simkit.strategies.spec) into the engine's parameters and its label.

Built-in strategies live in `simkit.strategies` (a package per game, one module per family) and
register themselves on import, the package a game's description names (simkit.games); installed
packages add theirs through the entry-point group `simkit.strategies`.
"""

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from simkit.core.errors import SimkitError, nearest, unknown
from simkit.strategies.spec import StrategySpec, number


@dataclass(frozen=True)
class Param:
    """A named strategy parameter with its default and valid range (inclusive)."""

    name: str
    default: float
    low: float
    high: float
    description: str = ""
    slot: int | None = None  # its place in the parameter vector; None: its place in the list
    integer: bool = False  # a count: whole numbers only


@dataclass(frozen=True)
class StrategyInfo:
    """A registered strategy. Several can share one compiled `decide` and differ in `base`, the
    parameter vector their named parameters are written into (a preset). A `composer` takes
    other strategies as arguments instead of numbers and builds the vector itself."""

    game: str
    name: str
    description: str
    decide: object
    params: tuple[Param, ...] = field(default=())
    base: tuple[float, ...] = field(default=())
    composer: Callable[[dict], tuple[tuple[float, ...], str]] | None = None  # values: numbers or StrategySpecs
    # a composer's decision points, each with the choices that fit it (the first: what an unset point plays)
    # and their parameters: what `simkit tune --against` searches
    points: tuple[tuple[str, tuple[tuple[str, tuple[Param, ...]], ...]], ...] = field(default=())
    origin: str = ""  # "file.py: function" for a user's strategy, named in its errors
    model: tuple[tuple[str, float], ...] = field(default=())  # Ezelen M8: model values the seat brings
    search: bool = False  # a search (pimc): thousands of times a heuristic's cost a decision, rated only when named
    ceiling: bool = False  # sees every hand (cheat): a bound on good play, not a way to play, marked wherever it shows


_REGISTRY: dict[tuple[str, str], StrategyInfo] = {}

MAX_SLOTS = 15  # a strategy's parameters: params[0]..params[14] of the engine's vector per seat
SEES_ALL = MAX_SLOTS  # the engine's own slot after them (decisions.MAX_PARAMS = 16): 1 hands the seat every
#                       player's hand instead of its own (`cheat`, a ceiling); no strategy's parameter can set it


def add(info: StrategyInfo) -> None:
    """Register a strategy. A name is registered once per game: a second strategy of that name
    is an error naming both, whichever loads first (`load_all` registers every built-in and
    installed strategy before a strategy file is loaded, so a file cannot replace one)."""
    key = (info.game, info.name)
    check_slots(info.params, info.origin or f"strategy {info.name!r}", len(info.base) or None)
    old = _REGISTRY.get(key)
    if old is not None and old.decide is not info.decide:  # the same function again (a re-import) is no second
        check_name(info.game, info.name, info.origin)
    _REGISTRY[key] = info


def check_name(game: str, name: str, where: str = "") -> None:
    """A name not yet registered for `game`; else one error naming both, e.g. "my.py: lowest: a
    Who's the Ass? strategy named 'lowest' is registered twice (the first is built in)"."""
    old = _REGISTRY.get((game, name))
    if old is not None:
        from simkit import games

        title = games.get(game).title
        article = "an" if title[0].lower() in "aeiou" else "a"
        first = f"from {old.origin}" if old.origin else "built in"
        raise SimkitError(f"{where + ': ' if where else ''}{article} {title} strategy named {name!r} is "
                          f"registered twice (the first is {first})")


def check_slots(params: tuple, where: str, size: int | None = None) -> None:
    """Each parameter's place in the parameter vector (its `slot`, or its place in the list) is a
    whole number 0..MAX_SLOTS-1, below `size` where the vector is given (a preset's), and no two
    parameters share one; else one error naming `where` (file: function, for a user's)."""
    taken: dict[int, str] = {}
    limit = MAX_SLOTS if size is None else min(size, MAX_SLOTS)
    for i, p in enumerate(params):
        if not isinstance(p, Param):
            raise SimkitError(f"{where}: params must be Param(...) entries, got {p!r}")
        slot = i if p.slot is None else p.slot
        if isinstance(slot, bool) or not isinstance(slot, int):
            raise SimkitError(f"{where}: parameter {p.name!r}: slot must be a whole number, got {slot!r}")
        if not 0 <= slot < limit:
            raise SimkitError(f"{where}: parameter {p.name!r}: slot {slot} is outside 0..{limit - 1}"
                              f" (params[0]..params[{limit - 1}])")
        if slot in taken:
            raise SimkitError(f"{where}: parameters {taken[slot]!r} and {p.name!r} share slot {slot}")
        taken[slot] = p.name


def available(game: str) -> list[StrategyInfo]:
    """Every strategy known for `game`, built-ins first loaded."""
    _load_builtins(game)
    return sorted((i for (g, _), i in _REGISTRY.items() if g == game), key=lambda i: i.name)


def ceilings(game: str, labels) -> list[str]:
    """The labels among `labels` of a strategy that sees every hand (`ceiling`, e.g. cheat): what
    tables and reports mark wherever they show them. A label whose strategy is not known here (a
    user's file not loaded) is no ceiling: only built-ins are."""
    _load_builtins(game)
    out = []
    for label in labels:
        info = _REGISTRY.get((game, str(label).split("(", 1)[0].strip()))
        if info is not None and info.ceiling:
            out.append(str(label))
    return out


CEILING_NOTE = "sees every player's hand: a ceiling on good play, not a way to play"
CEILING_MARK = " †"


def marked(game: str, label: str) -> str:
    """A strategy's label as a report shows it: with CEILING_MARK where it is a ceiling."""
    return str(label) + (CEILING_MARK if ceilings(game, [label]) else "")


def marked_text(game: str, text: str, labels) -> str:
    """`text` with each ceiling among `labels` marked wherever it stands as a whole label (not
    inside a longer one: `cheat` is not marked in `cheat(samples=4)`)."""
    for label in sorted(ceilings(game, labels), key=len, reverse=True):
        text = re.sub(rf"(?<![\w(=,]){re.escape(label)}(?![\w(])", label + CEILING_MARK, text)
    return text


def load_all() -> None:
    """Every game's built-in strategies, then the installed packages' (entry points): done before
    a strategy file is loaded (simkit.strategies.plugins), so a name the file registers again is an error
    in every command, whichever strategies the command looks up first."""
    from simkit import games

    for game in games.names():
        _load_builtins(game)


def get(game: str, name: str) -> StrategyInfo:
    """A known name is found without scanning the installed packages again (the runner resolves
    every seat of every chunk); an unknown one scans them first."""
    if (game, name) in _REGISTRY:
        return _REGISTRY[(game, name)]
    _load_builtins(game)
    try:
        return _REGISTRY[(game, name)]
    except KeyError:
        known = [i.name for i in available(game)]
        raise unknown("strategy", name, known, f" for {game}", _elsewhere(game, name, known)) from None


def _elsewhere(game: str, name: str, known: list[str]) -> str:
    """A hint for a strategy `game` lacks: one of another game's of that name (or near it) where
    none of `game`'s is near."""
    from simkit import games

    if nearest(name, known):
        return ""
    for other in games.names():
        if other == game:
            continue
        try:
            theirs = [i.name for i in available(other)]
        except SimkitError:
            continue
        near = name if name in theirs else nearest(name, theirs)
        if near:
            title = games.get(other).title
            article = "an" if title[0] in "AEIOU" else "a"
            if near == name:
                return f"; it is {article} {title} strategy: add --game {other}"
            return f"; did you mean {near!r} ({article} {title} strategy: add --game {other})?"
    return ""


def _load_builtins(game: str) -> None:
    """The built-in strategies, then those of installed packages (entry points)."""
    from simkit import games

    importlib.import_module(games.get(game).strategies)
    _load_entry_points()


_ENTRY_POINTS_LOADED: list[str] = []


def _load_entry_points() -> None:
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        if ep.value in _ENTRY_POINTS_LOADED:
            continue
        _ENTRY_POINTS_LOADED.append(ep.value)
        try:
            ep.load()
        except SimkitError as e:
            raise SimkitError(f"strategies of installed package {ep.value!r}: {e}") from None
        except Exception as e:  # a broken third-party package must not look like a simkit fault
            raise SimkitError(f"strategies of installed package {ep.value!r} fail to load: "
                              f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}{moved(e)}") from None


def moved(e: Exception) -> str:
    """Where a module of simkit that code written before its layers imports went ("" for any
    other error)."""
    if not isinstance(e, ModuleNotFoundError) or not (e.name or "").startswith("simkit."):
        return ""
    return (" (a game's modules are in simkit.games.<game>, the strategies' registry in simkit.strategies, "
            "randomness in simkit.core.rng: docs/architecture.md, Moved modules)")


ENTRY_POINT_GROUP = "simkit.strategies"


def resolve(game: str, spec: "StrategySpec | str") -> tuple[StrategyInfo, tuple[float, ...], str]:
    """A strategy spec (or its text) -> (strategy, full parameter vector, canonical label)."""
    spec = StrategySpec.parse(spec)
    info = get(game, spec.name)
    if info.composer is not None:
        vector, label = info.composer(spec.as_dict())
        return info, vector, label
    return resolve_values(info, spec.as_dict())


def canonical(game: str, spec: "StrategySpec | str") -> StrategySpec:
    """The spec checked against the registry and written as its label (its parameters in the
    strategy's order, numbers in their shortest form): one strategy, one spec, one label."""
    return StrategySpec.parse(resolve(game, spec)[2])


def resolve_values(info: StrategyInfo, values: dict) -> tuple[StrategyInfo, tuple[float, ...], str]:
    """Named parameter values (numbers) -> (strategy, full parameter vector, canonical label)."""
    name = info.name
    known = {p.name: p for p in info.params}
    for key, v in values.items():
        if key not in known:
            near = nearest(key, known)
            hint = f"; did you mean {near!r}?" if near else ""
            raise SimkitError(f"strategy {name!r} has no parameter {key!r}{hint} "
                              f"(parameters: {', '.join(known) or 'none'})")
        if isinstance(v, StrategySpec):
            raise SimkitError(f"strategy {name!r}: parameter {key!r} needs a number, got {str(v)!r}")
    slots = [i if p.slot is None else p.slot for i, p in enumerate(info.params)]
    vector = list(info.base) or [0.0] * (max(slots) + 1 if slots else 0)
    for i, p in enumerate(info.params):
        v = values.get(p.name, p.default)
        if not (p.low <= v <= p.high):
            raise SimkitError(
                f"strategy {name!r}: parameter {p.name}={v:g} is outside {p.low:g}..{p.high:g}"
            )
        if p.integer and v != int(v):
            raise SimkitError(f"strategy {name!r}: parameter {p.name} must be a whole number, got {v:g}")
        vector[slots[i]] = v
    label = name
    if values:
        label += "(" + ", ".join(f"{p.name}={number(values[p.name])}" for p in info.params if p.name in values) + ")"
    return info, tuple(vector), label
