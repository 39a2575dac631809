"""The tuning `simkit tune --against FIELD -n N` plays when no spec is given: the space of every
built-in heuristic family with its parameters, and `compose` over every decision point, so that
the answer is the best reply the tool's heuristics can make to that field, not the best setting
of a template someone chose (a template fixes what it does not name). Every family at its
defaults is raced from the first round (and TPE told how it did), and the winner is confirmed
against each of them on fresh deals.

Left out: the searches (pimc, cheat: thousands of times a heuristic's cost a decision), a user's
strategies, and the profiles that bring model values (`watcher`, `careful`): those are a player's
eyes and speed, not a way to play; a spec's `profile` tunes them."""

import math
import re

from simkit import games
from simkit.core.errors import SimkitError
from simkit.strategies import registry
from simkit.strategies.registry import Param, StrategyInfo
from simkit.strategies.spec import split

STEPS = 20            # a real parameter's range is searched in about this many steps (1-2-5 rounded)
GRID = 256            # a space of at most this many settings is raced whole (a grid); a larger one is sampled
CANDIDATES, ITERATIONS = 160, 8 # tpe: settings proposed in all, and the iterations they come in
BUDGET = 6_000_000    # hands the race may play, unless --budget says otherwise
TOP = "strategy"      # the name of the first choice: which family (or compose)


def against(game: str, players: int, field: str, seed: int, budget: int | None = None) -> dict:
    """The tuning spec (as parse_tuning reads it) of the best reply to `field` (one strategy for
    every other seat, or one per seat, comma-separated) at `players` players."""
    described = games.get(game)
    if players not in range(described.players[0], described.players[1] + 1):
        raise SimkitError(f"{described.title} is played by {described.players[0]} to {described.players[1]} "
                          f"players, not {players}")
    seats = [str(registry.canonical(game, s)) for s in split(field)]
    if len(seats) == 1:
        seats = seats * (players - 1)
    if len(seats) != players - 1:
        raise SimkitError(f"--against names {len(seats)} strategies for {players} players: give one for every "
                          f"other seat, or {players - 1} (one per seat)")
    template, space, starts, baselines = family_space(game)
    distinct = {str(registry.canonical(game, s)) for s in baselines}
    points = _points(space)
    sampler = "grid" if points <= GRID else "tpe"
    race: dict = {"sampler": sampler}
    if sampler == "tpe":
        race |= {"candidates": CANDIDATES, "iterations": ITERATIONS}
    slug = re.sub(r"[^a-z0-9]+", "-", "-".join(dict.fromkeys(seats)).lower()).strip("-")
    return {"name": f"tune-against-{slug}-{players}p"[:80].rstrip("-"), "game": game, "players": players,
            "seed": seed, "field": seats, "tune": template, "space": space, "budget": budget or BUDGET,
            "baselines": sorted(distinct), "start": starts if sampler == "tpe" else [], "race": race}


def family_space(game: str) -> tuple[str, dict, list[dict], list[str]]:
    """(template, space, the settings of every family at its defaults, the families' labels)."""
    infos = [i for i in registry.available(game) if not i.search and not i.origin and not i.model]
    composer = next((i for i in infos if i.composer and i.points), None)
    families = [i for i in infos if not i.composer]
    named = {name for _, choices in (composer.points if composer else ()) for name, _ in choices}
    covered = {f.name for f in families if f.name in named and f.decide is composer.decide}  # presets of compose
    #          (lowest is a function of its own, compose's twin: it is raced as itself)
    params = _names(composer, [f for f in families if f.name not in covered])
    space: dict = {}
    texts: dict[str, str] = {}  # family -> its choice text at the top
    compose_text = ""
    if composer:
        compose_text = f"{composer.name}(" + ", ".join(f"{p}={{{p}}}" for p, _ in composer.points) + ")"
        for point, choices in composer.points:
            space[point] = [_text(name, ps, params, point) for name, ps in choices]
    for f in families:
        if f.name not in covered:
            texts[f.name] = _text(f.name, f.params, params, f.name)
    for name, p in params.values():
        space[name] = _range(p)
    top = ([compose_text] if composer else []) + list(texts.values())
    if not top:
        raise SimkitError(f"{games.get(game).title} has no built-in heuristic to tune")
    if len(top) == 1:
        template = top[0]
    else:
        template = f"{{{TOP}}}"
        space = {TOP: top} | space
    starts = []
    for f in families:
        setting = {TOP: texts.get(f.name, compose_text)} if len(top) > 1 else {}
        if f.name in covered:
            for point, choices in composer.points:
                fits = [(n, ps) for n, ps in choices if n == f.name]
                name, ps = fits[0] if fits else choices[0]
                setting[point] = _text(name, ps, params, point)
                setting |= {params[(point, p.name)][0]: _value(p.default, p) for p in ps}
        else:
            setting |= {params[(f.name, p.name)][0]: _value(p.default, p) for p in f.params}
        if setting not in starts:  # dump, dodge and lowest are all compose's first choices
            starts.append(setting)
    return template, space, starts, [f.name for f in families]


def _names(composer: StrategyInfo | None, families: list[StrategyInfo]) -> dict[tuple[str, str], tuple[str, Param]]:
    """Each parameter's placeholder and the parameter, keyed by (its point or family, its name): the parameter's own
    name where only one choice has it, else prefixed by where it is."""
    where = [(point, p) for point, choices in (composer.points if composer else ()) for _, ps in choices
             for p in ps] + [(f.name, p) for f in families for p in f.params]
    counts: dict[str, int] = {}
    for _, p in where:
        counts[p.name] = counts.get(p.name, 0) + 1
    taken = {TOP} | {point for point, _ in (composer.points if composer else ())}
    return {(owner, p.name): (p.name if counts[p.name] == 1 and p.name not in taken else f"{owner}_{p.name}", p)
            for owner, p in where}


def _text(name: str, params: tuple[Param, ...], names: dict, owner: str) -> str:
    if not params:
        return name
    return f"{name}(" + ", ".join(f"{p.name}={{{names[(owner, p.name)][0]}}}" for p in params) + ")"


def _range(p: Param) -> dict:
    """A parameter's range in the space: whole numbers in steps of one, reals in a 1-2-5 step of
    about a twentieth of the range that holds the default (so the family's default is a setting)."""
    if p.integer:
        return {"low": int(p.low), "high": int(p.high)}
    width = p.high - p.low
    step = 10.0 ** math.floor(math.log10(width / STEPS))
    for s in (5 * step, 2 * step, step, step / 2, step / 5, step / 10):
        if s <= width / STEPS * 1.0001 and abs((p.default - p.low) / s - round((p.default - p.low) / s)) < 1e-9:
            high = p.low + math.floor(width / s + 1e-9) * s
            return {"low": _number(p.low), "high": _number(high), "step": _number(s)}
    return {"low": _number(p.low), "high": _number(p.high)}  # a continuum: the default is drawn near, not on


def _value(x: float, p: Param):
    return int(round(x)) if p.integer else _number(x)


def _number(x: float) -> float:
    """A real as a float TOML writes and reads back the same (0.1, not 0.1000000001)."""
    return float(f"{x:.10g}")


def _points(space: dict) -> int:
    """Settings in the space as a grid (a continuum: beyond any grid)."""
    total = 1
    for v in space.values():
        if isinstance(v, list):
            total *= len(v)
        elif "step" not in v and not all(isinstance(v[k], int) for k in ("low", "high")):  # a continuum
            return 10 ** 9
        else:
            total *= int(math.floor((v["high"] - v["low"]) / v.get("step", 1) + 1e-9)) + 1
    return total


def toml_text(data: dict) -> str:
    """A tuning spec as TOML (what `simkit tune --against` keeps in its folder as spec.toml, so
    that `simkit tune FOLDER/spec.toml` plays the same tuning and a user can edit it)."""
    tables = {k: v for k, v in data.items() if isinstance(v, dict)}
    arrays = {k: v for k, v in data.items() if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)}
    lines = [f"{k} = {_toml(v)}" for k, v in data.items() if k not in tables and k not in arrays]
    for k, v in tables.items():
        lines += ["", f"[{k}]"] + [f"{_key(name)} = {_toml(x)}" for name, x in v.items()]
    for k, v in arrays.items():
        for one in v:
            lines += ["", f"[[{k}]]"] + [f"{_key(name)} = {_toml(x)}" for name, x in one.items()]
    return "\n".join(lines) + "\n"


def _key(name: str) -> str:
    return name if re.fullmatch(r"[A-Za-z0-9_-]+", name) else _toml(name)


def _toml(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(k)} = {_toml(x)}" for k, x in v.items()) + "}"
    raise TypeError(f"no TOML for {v!r}")
