"""What a game is, in one place (in the spirit of OpenSpiel's GameType and GameInfo): its name and
title, its unit of play, its players, rule and model options with their defaults and checks, its
match modes, default strategy and baseline, the measures its results have, its strategies, and
the hooks through which the command line, the runner, the report and the trace files play it.

A built-in game is one folder under simkit/games/ whose `game.py` defines `GAME`, a `Game`,
registered by one line in `REGISTERED` below; a game of its own package registers by an entry point
in the group `simkit.games` naming its `GAME`, or from Python by `register` (in that process only:
Dask workers need the entry point). The command line, the registry of strategies, the runner and
the report take every game from `get(name)`. A game's description imports only what describes it
(its rules, its model, its strength rating); its engine is imported (and compiled) when it is
first played.
"""

import functools
import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from simkit.core.errors import SimkitError, unknown

REGISTERED = {  # name -> module holding its GAME: the one registration a game needs
    "whos-the-ass": "simkit.games.whos_the_ass.game",
    "ezelen": "simkit.games.ezelen.game",
    "eigenwijs": "simkit.games.eigenwijs.game",
}
DEFAULT = "whos-the-ass"  # the game a command plays when none is named
ENTRY_POINT_GROUP = "simkit.games"


@dataclass(frozen=True)
class Words:
    """How a report writes a game's measures, in the game's own words: its main measure, its unit
    of play, and what the figures of its other measures show (where those are "", the report's
    plain words, or no such figure). With Measures.sections, the sections of a game's own measures
    it names, this is all the report knows of a game."""

    title: str            # the main table's title: "Mean penalty per strategy"
    unit: str             # what a mean of it is in: "penalty points per hand and seat"
    fewer: str            # what a negative difference means: "fewer points"
    share_of: str = ""    # a share (Ezelen's rounds lost): what of ("rounds"); "" where it is a mean
    difference: str = ""  # what a difference is in, where not `unit`: "percentage points of rounds lost"
    deal: str = "deal"    # the unit of play, as the report names it: "hand", "round", "game"
    dealt: str = "cards"  # what a deal's seats and rotations share: its "cards" (a dice game's "dice")
    zero: str = ""        # what a main measure of 0 is, in its distribution's caption: "a seat that went out"
    means: str = ""       # what the figure of the seat means (Measures.means) shows: "How often each ..."
    length: str = ""      # what the figure of the table histogram's values per deal shows ("": none drawn)
    logarithmic: bool = False  # that figure's values on a logarithmic axis (lengths over a decade or two)
    labels: tuple[tuple[str, str], ...] = ()  # other measures for a reader: ("turns", "turns per game"), …

    @property
    def difference_unit(self) -> str:
        return self.difference or self.unit


@dataclass(frozen=True)
class Measures:
    """What a run's statistics count of a game in one match mode (experiments/statistics.py).

    Seat rows (a seat in a hand, round or match) and table rows (a hand or round of a table) each
    carry small-integer measures; the first of each counts rows. `main` is the seat measure the
    report compares strategies by (lower is better), `scale` what its sum is divided by (match
    wins are counted in 1/27720ths, so a win shared by up to 12 is still a whole number)."""

    seat: tuple[str, ...]
    table: tuple[str, ...]
    main: str
    per: str = "rows"                  # the seat measure `main` is a mean per
    seat_histogram: str | None = None  # a seat measure whose distribution the report draws
    table_histogram: str | None = None
    scale: dict = field(default_factory=dict)
    many_rows: bool = False            # a deal holds many rows (an Ezelen match's rounds)
    shares: tuple[tuple[str, str], ...] = ()        # seat shares the report gives: (counted, out of)
    table_shares: tuple[tuple[str, str], ...] = ()  # and table shares (every game's head to head added)
    means: tuple[tuple[str, str], ...] = ()         # seat means the report gives: (summed, per)
    table_means: tuple[tuple[str, str], ...] = ()   # and table means
    words: Words | None = None                      # how the report writes `main` (None: from its name)
    fair: tuple[str, ...] = ()                      # shares of which exactly one seat of each deal counts (one
    #                                                 winner, one ass): 1/n at n players when nobody is better
    sections: tuple[str, ...] = ()                  # the report's sections of this game's own measures
    #                                                 (simkit.experiments.report.summary.SECTIONS) it has

    def said(self) -> Words:
        """The main measure's words: the game's own, else plain ones made of its name."""
        return self.words or Words(f"Mean {self.main} per strategy", f"{self.main} per {self.per}",
                                   f"less {self.main}")


@dataclass(frozen=True)
class Objective:
    """What `simkit tune` optimises in one match mode: a whole number per deal and seat (so that
    sums over deals are exact and any split of the deals gives the same totals), its meaning once
    divided by `scale`, and its direction."""

    label: str                 # "penalty points per hand", "share of rounds lost"
    lower: bool                # lower is better
    value: Callable[[dict, int], "object"]  # (a seating's arrays, seat) -> an integer array, one per deal
    scale: int = 1             # what one counts in (a match win shared by k: scale / k)
    share: bool = False        # a share (shown as a percentage) rather than a mean


REPLAY = ("replays", "beats2")  # table measures of every deal's replay (the runner's): a count, and
#                                 2 x (a beats b) + (a ties b)


@dataclass(frozen=True)
class Summary:
    """What `simulate` found, for printing: a table per seat, lines beneath it, and the speed."""

    unit: str              # what was counted: "hands", "rounds", "matches"
    seats: pd.DataFrame    # a row per seat
    lines: tuple[str, ...]
    speed: str             # "1,234,567 hands/s"
    seconds: float         # the time the batch took (the engine compiled beforehand)
    values: np.ndarray | None = None  # the seat measure per deal and seat, where `--by` can group it
    dealt: np.ndarray | None = None   # what each seat was dealt [deal, seat, feature], where the engine says


@dataclass(frozen=True)
class Option:
    """A command-line shorthand for a rule option: `flag` sets rule `rule` (e.g. --ass-joker)."""

    flag: str
    rule: str
    help: str


def _same_arrays(played: dict, r: int) -> dict:
    return {k: v[r] for k, v in played.items()}


@dataclass(frozen=True)
class Game:
    """One game: what it is, then how each part of simkit plays it."""

    # what it is
    name: str                          # as written in specs, traces and --game
    title: str                         # as written for people
    deal: str                          # the unit of play: one trace record, one --hands ("hand", "round")
    players: tuple[int, int]           # fewest and most players
    check_players: Callable[[int], None]
    rules: dict                        # rule options and their defaults
    check_rules: Callable[[dict], dict]  # (options, values as given or as text) -> every option in force
    match_modes: tuple[str, ...]       # a spec's [match] modes; "single" (one deal per row group) first
    counted_modes: tuple[str, ...]     # the modes set by a whole number of the same name ([match] hands = 5)
    default_strategy: str              # every seat's strategy when none is given
    default_baseline: str              # what an experiment compares with when its spec names none
    strategies: str                    # the module whose import registers the built-in strategies
    seats_for: Callable[[list, int], list]  # (strategy specs, players) -> the seats
    measures: Callable[[str], Measures]     # (match mode) -> what the statistics count
    rule_flags: tuple[Option, ...] = ()
    deal_rules: tuple[str, ...] = ()   # rule options that change the cards dealt (an experiment's rule sweep says so)
    model: dict = field(default_factory=dict)  # model option -> default (a model of the players, M8)
    check_model: Callable[..., dict] | None = None  # (values, players, where) -> checked values

    # how an experiment plays it (simkit.experiments)
    play: Callable[..., dict] | None = None  # (seatings, count, first, spec, cells, tally, rows) -> the engine's
    #                                          arrays, a seating each along their first axis
    seating: Callable[[dict, int], dict] = _same_arrays  # (played, r) -> seating r's arrays
    measured: Callable[..., object] | None = None  # (played, players, first) -> a row per deal and seat (Arrow)
    extra_keys: tuple[str, ...] = ()   # spec keys only this game has
    model_names: tuple[str, ...] = ()  # per-seat model values a sweep may set for one strategy's seats
    seat_config: Callable[..., dict] | None = None  # (spec, cell, seats) -> a column per seat
    meta: Callable[..., dict] | None = None         # (spec) -> more for meta.json

    # the command line's other commands, and trace files (simkit.games.traces)
    simulate: Callable[..., Summary] | None = None  # (seats, count, seed, rules, model, matches, chunks, progress)
    matches: str = ""                  # what --matches plays in `simulate` ("": the game has no such mode)
    traces: Callable[..., Iterable[dict]] | None = None  # (seats, count, seed, rules, model) -> records
    traced: Callable[[int, dict | None], str] = lambda count, last: ""  # more words for `trace`'s last line
    picks: Callable[..., bool] = lambda record, i, number, match: number in (None, i)  # `show`'s choice
    show: Callable[[dict], str] | None = None      # a record for a person
    checker: Callable[[], Callable[[dict], None]] | None = None  # a record's check (raises ValueError)
    bench: str = ""                    # module with run_bench(players, deals, reference, echo, load_seconds)
    bench_players: str = ""            # player counts `simkit bench` measures by default
    reference_deals: int = 0           # deals the bench plays on the slow reference engine
    strength: Callable[..., pd.DataFrame] | None = None  # `simkit strength`'s table, where the game has one
    objective: Callable[[str], Objective] | None = None  # (match mode) -> what `simkit tune` optimises
    # what each seat was dealt, for grouping results (`--by`): name -> (column, what it counts, largest value),
    # and (seed, first, count, players) -> [hand, seat, column], dealt again as the engine deals
    features: dict = field(default_factory=dict)
    dealt: Callable[..., np.ndarray] | None = None
    dealt_of: Callable[..., np.ndarray] | None = None  # (played, players) -> the same, from the engine's arrays
    folds_by: bool = False  # play(..., fold=...) adds each deal to a spec's `by` as it plays (stats.deal_fold)

    def unit(self, mode: str = "single") -> str:
        """What one deal of an experiment in match mode `mode` is, in the plural ("hands", "matches")."""
        return f"{self.deal}s" if mode == "single" else "matches"

    def spec_rules(self, rules: dict) -> dict:
        """A spec's rule options, checked by the game once each has its TOML type: a switch true or
        false, a list as a list, a number as a number. Text for them is the command line's (where
        `--rule chicks=yes` is all a shell can give), not a spec's, which has types of its own."""
        for name, value in rules.items():
            default = self.rules.get(name)
            kind = next((k for k, is_kind in _TYPED if is_kind(default)), None)
            if kind is not None and not dict(_TYPED)[kind](value):
                raise SimkitError(f"rule option {name} must be {kind} in a spec, got {value!r}")
        return self.check_rules(rules)


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


# a spec's rule values by the type of their defaults: what they must be, and how that is told
_TYPED = (("true or false", lambda v: isinstance(v, bool)), ("a list", lambda v: isinstance(v, list)),
          ("a number", _number))


def names() -> tuple[str, ...]:
    """Every registered game: the built-in ones, then those of installed packages."""
    return tuple(_registered())


@functools.cache
def _registered() -> dict[str, str]:
    from importlib.metadata import entry_points

    found = dict(REGISTERED)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        found.setdefault(ep.name, ep.value)
    return found


def register(name: str, where: str) -> None:
    """Register the game `name` from Python: `where` is "module" or "module:ATTRIBUTE" holding its
    Game (default attribute GAME), as in REGISTERED; it is loaded when first asked for."""
    if not isinstance(name, str) or not name or not isinstance(where, str) or not where:
        raise SimkitError(f"a game is registered by its name and the module holding it, got {name!r}, {where!r}")
    known = _registered().get(name)
    if known is not None and known != where:
        raise SimkitError(f"the game {name!r} is already registered, from {known}")
    _registered()[name] = where  # the cached table of every registered game, added to
    get.cache_clear()


def unregister(name: str) -> None:
    """Forget a game `register` added (a test's, a notebook's); the built-in ones stay."""
    if name in REGISTERED or name not in _registered():
        raise SimkitError(f"{name!r} is not a game registered from Python")
    del _registered()[name]
    get.cache_clear()


def deal_columns() -> tuple[str, ...]:
    """The column that names a deal in a run's rows, in the order to look for it: a match (its
    hands or rounds belong together), else each game's unit of play ("hand", "round", "game")."""
    return ("match",) + tuple(dict.fromkeys(get(name).deal for name in names()))


@functools.cache
def get(name: str) -> Game:
    """The game called `name`; an unknown one is a one-line error naming the known ones."""
    where = _registered().get(name) if isinstance(name, str) else None
    if where is None:
        raise unknown("game", name, names())
    module, _, attribute = where.partition(":")
    try:
        game = getattr(importlib.import_module(module), attribute or "GAME")
    except (ImportError, AttributeError) as e:
        raise SimkitError(f"game {name!r} fails to load from {where}: {e}") from None
    if not isinstance(game, Game) or game.name != name:
        raise SimkitError(f"{where} does not describe the game {name!r} (a simkit.games.Game named so)")
    return game
