"""Strategies by name: registration, `name(param=value, …)` specs, and look-up per game.

Built-in strategies live in `simkit.strategies` (a package per game, one module per family) and
register themselves on import, the package a game's description names (simkit.games); installed
packages add theirs through the entry-point group `simkit.strategies`.
"""

import ast
import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from simkit.errors import SimkitError


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
    composer: Callable[[dict[str, str]], tuple[tuple[float, ...], str]] | None = None
    origin: str = ""  # "file.py: function" for a user's strategy, named in its errors
    model: tuple[tuple[str, float], ...] = field(default=())  # Ezelen M8: model values the seat brings


_REGISTRY: dict[tuple[str, str], StrategyInfo] = {}
_SPEC = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\((.*)\))?\s*$", re.S)


def add(info: StrategyInfo) -> None:
    key = (info.game, info.name)
    if key in _REGISTRY and _REGISTRY[key].decide is not info.decide:
        raise SimkitError(f"strategy {info.name!r} is registered twice for {info.game}")
    _REGISTRY[key] = info


def available(game: str) -> list[StrategyInfo]:
    """Every strategy known for `game`, built-ins first loaded."""
    _load_builtins(game)
    return sorted((i for (g, _), i in _REGISTRY.items() if g == game), key=lambda i: i.name)


def get(game: str, name: str) -> StrategyInfo:
    """A known name is found without scanning the installed packages again (the runner resolves
    every seat of every chunk); an unknown one scans them first."""
    if (game, name) in _REGISTRY:
        return _REGISTRY[(game, name)]
    _load_builtins(game)
    try:
        return _REGISTRY[(game, name)]
    except KeyError:
        known = ", ".join(i.name for i in available(game))
        raise SimkitError(f"unknown strategy {name!r} for {game} (known: {known})") from None


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
                              f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}") from None


ENTRY_POINT_GROUP = "simkit.strategies"


def split_specs(text: str) -> list[str]:
    """Split 'a,b(x=1, y=2),c' on the commas outside parentheses."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
            continue
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            raise SimkitError(f"unbalanced parentheses in strategy list {text!r}")
        cur.append(ch)
    if depth != 0:
        raise SimkitError(f"unbalanced parentheses in strategy list {text!r}")
    parts.append("".join(cur).strip())
    if any(p == "" for p in parts):
        raise SimkitError(f"empty strategy name in strategy list {text!r}")
    return parts


def parse_spec(spec: str) -> tuple[str, dict[str, float | str]]:
    """'hoard(release_at=3)' -> ('hoard', {'release_at': 3.0}); a value that is itself a strategy
    ('compose(lead=greedy, jokers=hoard(release_at=3))') stays a spec string."""
    m = _SPEC.match(spec)
    if not m:
        raise SimkitError(f"malformed strategy {spec!r} (expected name or name(param=value, ...))")
    name, args = m.group(1), m.group(2)
    values: dict[str, float | str] = {}
    if args and args.strip():
        try:
            call = ast.parse(f"f({args})", mode="eval").body
        except SyntaxError:
            raise SimkitError(f"malformed parameters in strategy {spec!r}") from None
        if call.args:
            raise SimkitError(f"strategy {spec!r}: parameters must be named, as name(param=value)")
        for kw in call.keywords:
            node = kw.value
            if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
                node = ast.Constant(-node.operand.value) if isinstance(node.operand, ast.Constant) else node
            value = getattr(node, "value", None)
            if isinstance(node, ast.Constant) and isinstance(value, (int, float)) and not isinstance(value, bool):
                values[kw.arg] = float(value)
            elif isinstance(node, (ast.Name, ast.Call)):
                values[kw.arg] = ast.unparse(node)
            else:
                raise SimkitError(f"strategy {spec!r}: parameter {kw.arg!r} needs a number")
    return name, values


def number(v: float) -> str:
    """A parameter value as written in a label or spec: whole numbers plain, others exactly (the
    shortest text that reads back to the same float)."""
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def resolve(game: str, spec: str) -> tuple[StrategyInfo, tuple[float, ...], str]:
    """A spec string -> (strategy, full parameter vector, canonical label)."""
    name, values = parse_spec(spec)
    info = get(game, name)
    if info.composer is not None:
        vector, label = info.composer(values)
        return info, vector, label
    return resolve_values(info, values)


def resolve_values(info: StrategyInfo, values: dict[str, float | str]) -> tuple[StrategyInfo, tuple[float, ...], str]:
    """Named parameter values -> (strategy, full parameter vector, canonical label)."""
    name = info.name
    known = {p.name: p for p in info.params}
    for key, v in values.items():
        if key not in known:
            names = ", ".join(known) or "none"
            raise SimkitError(f"strategy {name!r} has no parameter {key!r} (parameters: {names})")
        if isinstance(v, str):
            raise SimkitError(f"strategy {name!r}: parameter {key!r} needs a number, got {v!r}")
    vector = list(info.base) or [0.0] * len(info.params)
    for i, p in enumerate(info.params):
        v = values.get(p.name, p.default)
        if not (p.low <= v <= p.high):
            raise SimkitError(
                f"strategy {name!r}: parameter {p.name}={v:g} is outside {p.low:g}..{p.high:g}"
            )
        if p.integer and v != int(v):
            raise SimkitError(f"strategy {name!r}: parameter {p.name} must be a whole number, got {v:g}")
        slot = i if p.slot is None else p.slot
        vector[slot] = v
    label = name
    if values:
        label += "(" + ", ".join(f"{p.name}={number(values[p.name])}" for p in info.params if p.name in values) + ")"
    return info, tuple(vector), label
