"""A tuning's search space: a strategy template with `{name}` placeholders (`tune`), and for each
name its values (`[space]`): a list of choices (numbers, or strategy texts that may hold
placeholders of their own: a choice that leaves a value unused makes that value not matter), or
a range {low, high[, step]} of whole or real numbers. A setting gives every name a value; its
strategy is the template filled in, made canonical, and settings that fill in to the same
strategy are one candidate."""

import functools
import itertools
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from simkit.analyses.tune.expression import evaluate
from simkit.core.errors import SimkitError
from simkit.strategies import registry
from simkit.strategies.spec import StrategySpec, number

PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
MOST_POINTS = 1_000_000  # settings a grid may enumerate (before equal strategies are merged)
MOST_CANDIDATES = 4096   # candidates a race holds: its paired sums are candidates x candidates


@dataclass(frozen=True)
class Dimension:
    """One name of the space: its choices (a list), or a range low..high (whole numbers when
    `whole`, in steps of `step`; step 0: a continuum, which only a sampler can search)."""

    name: str
    choices: tuple = ()
    low: float = 0.0
    high: float = 0.0
    step: float = 0.0
    whole: bool = False

    @property
    def values(self) -> tuple:
        """Every value a grid takes (a continuum has none)."""
        if self.choices:
            return self.choices
        if not self.step:
            return ()
        count = int(math.floor((self.high - self.low) / self.step + 1e-9)) + 1
        out = [self.low + i * self.step for i in range(count)]
        return tuple(int(round(v)) if self.whole else v for v in out)

    def draw(self, u: float):
        """The value at u in [0, 1): a choice or grid value drawn uniformly, or a real."""
        grid = self.values
        if grid:
            return grid[min(int(u * len(grid)), len(grid) - 1)]
        return self.rounded(self.low + u * (self.high - self.low))

    def suggest(self, trial):
        """The value an Optuna trial proposes for this name: a choice, a whole number or a real."""
        if self.choices:
            return trial.suggest_categorical(self.name, list(self.choices))
        if self.whole:
            return trial.suggest_int(self.name, int(self.low), int(self.high), step=int(self.step))
        if self.step:
            return trial.suggest_float(self.name, self.low, self.high, step=self.step)
        return self.rounded(trial.suggest_float(self.name, self.low, self.high))

    def rounded(self, x: float) -> float:
        """A real of a continuum to four significant digits of its range's width: a label people can
        read, and nothing a race could tell apart from the value drawn."""
        width = self.high - self.low
        if width <= 0:
            return x
        return min(max(round(x, max(0, 3 - math.floor(math.log10(width)))), self.low), self.high)

    def shown(self) -> str:
        if self.choices:
            return f"{self.name} in {{{', '.join(map(_text, self.choices))}}}"
        kind = "whole numbers" if self.whole else "reals"
        step = f" step {number(self.step)}" if self.step else ""
        return f"{self.name} {number(self.low)}..{number(self.high)}{step} ({kind})"


def _text(v) -> str:
    return v if isinstance(v, str) else number(v)


@dataclass(frozen=True)
class Candidate:
    """A strategy the race plays: its canonical spec (its label is its text) and the setting it
    was first found at, only the names its strategy uses."""

    spec: StrategySpec
    setting: tuple[tuple[str, object], ...]
    model: tuple[tuple[str, float], ...] = ()  # model values the setting gives its seat (a spec's profile)

    @property
    def label(self) -> str:
        if not self.model:
            return str(self.spec)
        return f"{self.spec} with " + ", ".join(f"{k}={number(v)}" for k, v in self.model)


@dataclass(frozen=True)
class Space:
    """The template and its dimensions, in the order given."""

    game: str
    template: str
    dimensions: tuple[Dimension, ...]
    profile: tuple[tuple[str, str], ...] = ()  # model values worked out from a setting (tune.expression)

    @property
    def continuous(self) -> bool:
        return any(not d.values for d in self.dimensions)

    def points(self) -> int:
        """Settings in the grid (before equal strategies are merged)."""
        return math.prod(len(d.values) for d in self.dimensions)

    def candidate(self, setting: dict) -> Candidate:
        """The strategy of a setting, canonical; one error line if it does not resolve."""
        used: list[str] = []
        text = fill(self.template, setting, used)
        try:
            spec = _named(self.game, registry.canonical(self.game, text))
            model = tuple((name, _rounded(evaluate(fill(rule, setting, used)))) for name, rule in self.profile)
            if model:
                from simkit import games

                games.get(self.game).check_model(dict(model), None, "its model values")
        except SimkitError as e:
            raise SimkitError(f"the setting {_setting_text(setting)} gives {text}: {e}") from None
        return Candidate(spec, tuple((d.name, setting[d.name]) for d in self.dimensions if d.name in used), model)

    def grid(self) -> list[Candidate]:
        """Every distinct strategy of the grid, in the grid's order (the first name varies slowest)."""
        if self.continuous:
            names = ", ".join(d.name for d in self.dimensions if not d.values)
            raise SimkitError(f"a grid needs every range to have a step ({names} has none): give it one, or "
                              "use a sampler (race.sampler = \"random\" or \"tpe\")")
        if self.points() > MOST_POINTS:
            raise SimkitError(f"the grid has {self.points():,} settings, at most {MOST_POINTS:,}: give the ranges "
                              "larger steps, or use a sampler (race.sampler = \"random\" or \"tpe\")")
        return _distinct(self.candidate(dict(zip([d.name for d in self.dimensions], values)))
                         for values in itertools.product(*(d.values for d in self.dimensions)))

    def sample(self, count: int, seed: int) -> list[Candidate]:
        """`count` settings drawn uniformly (each name independently) from a generator seeded by
        `seed`, distinct strategies only (draws repeating one are not counted), in the order drawn."""
        rng = np.random.default_rng(np.random.SeedSequence([seed, 0x7E5E]))
        out: dict[str, Candidate] = {}
        for _ in range(100 * count):
            if len(out) == count:
                break
            u = rng.random(len(self.dimensions))
            c = self.candidate({d.name: d.draw(x) for d, x in zip(self.dimensions, u)})
            out.setdefault(c.label, c)
        return list(out.values())


    def suggest(self, trial) -> Candidate:
        """The candidate an Optuna trial proposes. A name is asked for only when the template, or a
        choice already picked, holds it: a conditional space, which TPE models as one."""
        by = {d.name: d for d in self.dimensions}
        setting: dict = {}
        todo = PLACEHOLDER.findall(self.template) + [n for _, rule in self.profile for n in PLACEHOLDER.findall(rule)]
        while todo:
            name = todo.pop(0)
            if name not in setting:
                setting[name] = by[name].suggest(trial)
                if isinstance(setting[name], str):
                    todo += PLACEHOLDER.findall(setting[name])
        return self.candidate(setting)


def _named(game: str, spec: StrategySpec) -> StrategySpec:
    """A strategy that plays exactly as one built-in family at its defaults (the same function,
    parameter vector and model values, and no other family's) under that family's name: `highest`,
    not compose(lead=highest, follow=highest, ass_lead=dump, ...). One strategy, one candidate."""
    info, vector, _ = registry.resolve(game, spec)
    found = _families(game).get((info.decide, vector, info.model))
    return StrategySpec.parse(found) if found else spec


@functools.cache
def _families(game: str) -> dict:
    """Each built-in family at its defaults by what it plays; a vector two families share is left out."""
    seen: dict = {}
    for i in registry.available(game):
        if not (i.origin or i.composer or i.search):
            info, vector, label = registry.resolve(game, i.name)
            seen.setdefault((info.decide, vector, info.model), []).append(label)
    return {key: labels[0] for key, labels in seen.items() if len(labels) == 1}


def _distinct(candidates: Iterator[Candidate]) -> list[Candidate]:
    out: dict[str, Candidate] = {}
    for c in candidates:
        out.setdefault(c.label, c)
    return list(out.values())


def _setting_text(setting: dict) -> str:
    return ", ".join(f"{k}={_text(v)}" for k, v in setting.items())


def fill(template: str, setting: dict, used: list[str] | None = None) -> str:
    """The template with every placeholder replaced by its value, again within the values
    filled in (a choice may hold placeholders), until none is left; `used` gains the names met."""
    text = template
    for _ in range(len(setting) + 1):
        names = PLACEHOLDER.findall(text)
        if not names:
            return text
        for name in names:
            if used is not None and name not in used:
                used.append(name)
        text = PLACEHOLDER.sub(lambda m: _text(setting[m.group(1)]), text)
    raise SimkitError(f"the template {template!r} does not come to an end: its choices name each other")


def _rounded(x: float) -> float:
    """A model value worked out from a setting, to six significant digits: a label people can read."""
    return float(f"{x:.6g}")


def parse_space(game: str, template: object, table: object, profile: tuple[tuple[str, str], ...] = ()) -> Space:
    """The space of a spec's `tune` and `[space]`, checked: every placeholder named in the space
    and every name of the space used, the ranges well formed, and the template's default setting
    (each name's first value) a strategy of the game."""
    if not isinstance(template, str) or not template.strip():
        raise SimkitError(f"key 'tune' must be a strategy with {{name}} placeholders, got {template!r}")
    if not isinstance(table, dict) or not table:
        raise SimkitError("key 'space' must be a table naming the values of each placeholder of 'tune'")
    dimensions = tuple(_dimension(name, value) for name, value in table.items())
    named = set(PLACEHOLDER.findall(template)) | {n for _, rule in profile for n in PLACEHOLDER.findall(rule)}
    for d in dimensions:
        named |= {n for c in d.choices if isinstance(c, str) for n in PLACEHOLDER.findall(c)}
    known = {d.name for d in dimensions}
    for name in sorted(named - known):
        raise SimkitError(f"key 'tune': placeholder {{{name}}} has no values in [space]")
    for name in sorted(known - named):
        raise SimkitError(f"key 'space.{name}' is not a placeholder of 'tune', of a choice or of 'profile'")
    if not named:
        raise SimkitError(f"key 'tune' has no {{name}} placeholder: nothing to tune in {template!r}")
    space = Space(game, template, dimensions, profile)
    space.candidate({d.name: d.draw(0.0) for d in dimensions})  # the first setting resolves, or one error
    return space


def _dimension(name: str, value: object) -> Dimension:
    where = f"key 'space.{name}'"
    if isinstance(value, list):
        if not value or not all(isinstance(v, (str, int, float)) and not isinstance(v, bool) for v in value):
            raise SimkitError(f"{where} must list numbers or strategy texts, got {value!r}")
        if len(set(map(str, value))) != len(value):
            raise SimkitError(f"{where} lists a value twice: {value}")
        return Dimension(name, tuple(float(v) if isinstance(v, float) else v for v in value))
    if not isinstance(value, dict):
        raise SimkitError(f"{where} must be a list of choices or a range {{low = .., high = .., step = ..}}, "
                          f"got {value!r}")
    unknown = sorted(set(value) - {"low", "high", "step"})
    if unknown or "low" not in value or "high" not in value:
        raise SimkitError(f"{where} must be a range {{low = .., high = ..}} with an optional step, got {value!r}")
    for key in ("low", "high", "step"):
        v = value.get(key, 0)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
            raise SimkitError(f"{where}.{key} must be a number, got {v!r}")
    low, high, step = value["low"], value["high"], value.get("step", 0)
    if high < low:
        raise SimkitError(f"{where}: high {high} is below low {low}")
    if step < 0 or ("step" in value and step == 0):
        raise SimkitError(f"{where}.step must be positive (leave it out for a real continuum), got {step}")
    whole = all(isinstance(value.get(k, 1), int) for k in ("low", "high", "step"))
    if whole and "step" not in value:
        step = 1
    return Dimension(name, (), float(low), float(high), float(step), whole)
