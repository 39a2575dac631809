"""Experiment spec files (TOML): parsed, validated with one-line errors naming the file and the
key, and expanded into cells (one player count and lineup each) for the runner.

A first step of the experiments issue: the runner, results tables and reports build on it.
"""

import functools
import itertools
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from simkit import games
from simkit.core.errors import SimkitError, check_count, unknown
from simkit.core.files import input_file
from simkit.core.rng import check_seed
from simkit.strategies import registry
from simkit.strategies.spec import StrategySpec

KEYS = {"name", "game", "players", "hands", "seed", "seating", "rules", "lineup", "lineups", "pool", "match", "sweep",
        "baseline", "model", "question", "by"}
SEATINGS = ("rotate", "none")
MAX_CELLS = 32_767  # the results table numbers cells in an int16 column
RULES = "rules."  # a sweep key naming a rule option: "rules.chicks"


@dataclass(frozen=True)
class Cell:
    """One combination to play: a player count and a lineup (one spec per seat)."""

    players: int
    lineup: tuple[StrategySpec, ...]  # canonical (simkit.strategies.registry.canonical): equal strategies, equal specs
    sweep: tuple[tuple[str, float], ...] = ()  # the swept strategy parameters and model values ('hoard.release_at')
    rules: tuple[tuple[str, object], ...] = ()  # the swept rule options ('chicks'), played in their own engine calls

    def rotations(self, seating: str) -> int:
        """How many times each deal is played: with rotated seating, once per rotation until the
        lineup repeats (a table of one strategy: once; a, b, a, b: twice, which already puts
        each strategy in every seat); otherwise once."""
        if seating != "rotate":
            return 1
        n = len(self.lineup)
        return next(p for p in range(1, n + 1) if n % p == 0 and self.lineup[p:] + self.lineup[:p] == self.lineup)


@dataclass(frozen=True)
class Spec:
    name: str
    players: tuple[int, ...]
    hands: int
    seed: int = 0
    game: str = games.DEFAULT
    seating: str = "rotate"
    rules: dict = field(default_factory=dict)
    lineup: tuple[StrategySpec, ...] = ()  # each canonical: its text is its label
    pool: tuple[StrategySpec, ...] = ()
    match: dict = field(default_factory=lambda: {"mode": "single"})
    sweep: dict = field(default_factory=dict)
    baseline: StrategySpec = StrategySpec("lowest")
    model: dict = field(default_factory=dict)  # Ezelen (M8): model values, a number or one per seat
    lineups: tuple[tuple[StrategySpec, ...], ...] = ()  # several lineups: a cell each
    question: str = ""  # what the spec asks, in the user's words: the report opens with it
    by: tuple[str, ...] = ()  # features of each seat's deal its results are also grouped by (simkit.stats.by_deal)

    def cells(self) -> list[Cell]:
        """Every player count x every sweep point x (the lineup, each of the lineups, or every pairing
        of the pool). Worked out once per spec: every chunk asks for its cell."""
        return list(self._cells)

    @functools.cached_property
    def _cells(self) -> tuple[Cell, ...]:
        grid = [dict(zip(self.sweep, point)) for point in itertools.product(*self.sweep.values())] or [{}]
        out = []
        for n in self.players:
            for point in grid:
                params = {k: v for k, v in point.items() if not k.startswith(RULES)}
                rules = tuple((k[len(RULES):], v) for k, v in point.items() if k.startswith(RULES))
                for lineup in self._lineups(n):
                    swept = tuple(_with_params(self.game, spec, params) for spec in lineup)
                    out.append(Cell(n, swept, tuple(sorted(params.items())), rules))
        return tuple(out)

    @property
    def swept_rules(self) -> tuple[str, ...]:
        """The rule options the spec sweeps ('chicks' for "rules.chicks")."""
        return tuple(k[len(RULES):] for k in self.sweep if k.startswith(RULES))

    def rules_of(self, cell: Cell) -> dict:
        """The rules a cell is played under: the spec's, with its swept options' values."""
        return {**self.rules, **dict(cell.rules)}

    def reference(self, cell: Cell) -> Cell | None:
        """The cell a rule variant is compared with: the same players, lineup and strategy sweep
        point under the first listed value of every swept rule option (docs/reports.md); None
        where no rule is swept, and for the reference cell itself."""
        first = tuple((option, self.sweep[RULES + option][0]) for option in self.swept_rules)
        if not first or cell.rules == first:
            return None
        return Cell(cell.players, cell.lineup, cell.sweep, first)

    def _lineups(self, n: int) -> list[tuple[StrategySpec, ...]]:
        if self.pool:  # round robin: each pair of the pool, seats split between the two
            return [tuple(a if s % 2 == 0 else b for s in range(n)) for a, b in itertools.combinations(self.pool, 2)]
        return [lineup * n if len(lineup) == 1 else lineup for lineup in (self.lineups or (self.lineup,))]


def _extra_keys() -> set[str]:
    """Keys that only some games have (games.Game.extra_keys)."""
    return {key for name in games.names() for key in games.get(name).extra_keys}


def _with_params(game: str, spec: StrategySpec, point: dict[str, float]) -> StrategySpec:
    """Apply the sweep values that belong to this strategy ('hoard.release_at' -> hoard(release_at=v)),
    canonical; swept model values (Ezelen's 'greedy.attention') go to the seats, not into the strategy."""
    model_names = games.get(game).model_names
    mine = {}
    for key, v in point.items():
        owner, param = key.split(".", 1)
        if owner == spec.name and param not in model_names:
            mine[param] = v
    return registry.canonical(game, spec.with_values(mine)) if mine else spec


def load_spec(path: str) -> Spec:
    """Read and validate a spec file; any problem is one SimkitError naming the file and key."""
    return read_toml(path, parse_spec_dict)


def read_toml(path: str, parse):
    """`parse` of a TOML spec file's content: a problem reading it, or one `parse` raises, is one
    SimkitError naming the file (an experiment's, a grading's)."""
    file = Path(input_file(path, "spec file"))
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise SimkitError(f"{path}: not valid TOML: {e}") from None
    except UnicodeDecodeError:
        raise SimkitError(f"{path}: not a text file") from None
    except OSError as e:
        raise SimkitError(f"cannot read spec file {path}: {e.strerror}") from None
    try:
        return parse(data)
    except SimkitError as e:
        raise SimkitError(f"{path}: {e}") from None


def check_name(name: str) -> str:
    """A spec's name: letters, digits, '-', '_' or '.' (it names the run's folder)."""
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", name):
        raise SimkitError(f"key 'name' must be letters, digits, '-', '_' or '.' (it names the run's folder), "
                          f"got {name!r}")
    return name


def keyed(key: str, check, *args):
    """`check(*args)`, its error named by the spec's key."""
    try:
        return check(*args)
    except SimkitError as e:
        raise SimkitError(f"key {key!r}: {e}") from None


def check_keys(data: dict, known: set[str], required: tuple[str, ...]) -> None:
    """A spec's keys: none but the known ones, and every required one; else one error line."""
    for key in sorted(set(data) - known):
        raise unknown("key", key, sorted(known))
    for key in required:
        if key not in data:
            raise SimkitError(f"missing key {key!r}")


def need(data: dict, key: str, kind, what: str):
    """data[key], which must be of `kind` (not a bool), or one error naming the key."""
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, kind):
        raise SimkitError(f"key {key!r} must be {what}, got {value!r}")
    return value


def parse_spec_dict(data: dict) -> Spec:
    """Validate a spec given as a dict (the TOML file's content, or a notebook's own dict)."""
    if "tune" in data:
        raise SimkitError("this is a tuning spec (it has 'tune'): run it with `simkit tune SPEC.toml --out DIR`")
    if "graded" in data:
        raise SimkitError("this is a grading spec (it has 'graded'): run it with `simkit grade SPEC.toml --out DIR`")
    check_keys(data, KEYS, ("name", "players", "hands"))
    name = need(data, "name", str, "a text")
    check_name(name)
    game_name = need(data, "game", str, "a text") if "game" in data else games.DEFAULT
    try:
        game = games.get(game_name)
    except SimkitError as e:
        raise SimkitError(f"key 'game': {e}") from None
    for key in sorted(set(data) & _extra_keys() - set(game.extra_keys)):
        raise SimkitError(f"key {key!r} does not apply to game {game.name!r}")
    players = data["players"]
    players = [players] if isinstance(players, int) and not isinstance(players, bool) else players
    if not isinstance(players, list) or not players or not all(isinstance(p, int) and not isinstance(p, bool)
                                                              for p in players):
        raise SimkitError(f"key 'players' must be a number or a list of numbers, got {data['players']!r}")
    if len(set(players)) != len(players):
        raise SimkitError(f"key 'players' lists a player count twice: {players}")
    try:
        for p in players:
            game.check_players(p)
    except SimkitError as e:
        raise SimkitError(f"key 'players': {e}") from None
    hands = check_count(need(data, "hands", int, "a whole number"), "key 'hands'")
    try:
        seed = check_seed(data.get("seed", 0))
    except SimkitError as e:
        raise SimkitError(f"key 'seed': {e}") from None
    seating = need(data, "seating", str, "a text") if "seating" in data else "rotate"
    if seating not in SEATINGS:
        raise SimkitError(f"key 'seating' must be one of {', '.join(SEATINGS)}, got {seating!r}")
    rules = need(data, "rules", dict, "a table") if "rules" in data else {}
    try:
        rules = game.spec_rules(rules)
    except SimkitError as e:
        raise SimkitError(f"key 'rules': {e}") from None
    if sum(key in data for key in ("lineup", "lineups", "pool")) != 1:
        raise SimkitError("give one of key 'lineup' (strategies per seat), key 'lineups' (several lineups) "
                          "or key 'pool' (a tournament)")
    lineup = tuple(_strategies(data, "lineup", game.name)) if "lineup" in data else ()
    lineups = ()
    if "lineups" in data:
        value = data["lineups"]
        if not isinstance(value, list) or not value or not all(isinstance(x, list) for x in value):
            raise SimkitError(f"key 'lineups' must be a list of lineups (lists of strategy names), got {value!r}")
        lineups = tuple(tuple(_strategies({"lineups": x}, "lineups", game.name)) for x in value)
    for one in lineups:
        if len(one) != 1 and any(len(one) != p for p in players):
            raise SimkitError(f"key 'lineups' has a lineup of {len(one)} strategies for {players} players "
                              "(give one per seat, or one for every seat)")
    pool = tuple(_strategies(data, "pool", game.name)) if "pool" in data else ()
    if lineup and len(lineup) != 1 and any(len(lineup) != p for p in players):
        raise SimkitError(f"key 'lineup' has {len(lineup)} strategies for {players} players "
                          "(give one per seat, or one for every seat)")
    if pool and len(pool) < 2:
        raise SimkitError("key 'pool' needs at least two strategies")
    match = _match(data, game)
    sweep = _sweep(data, lineup + pool + tuple(s for one in lineups for s in one), game, data.get("rules", {}))
    baseline = need(data, "baseline", str, "a strategy") if "baseline" in data else game.default_baseline
    try:
        baseline = registry.canonical(game.name, baseline)
    except SimkitError as e:
        raise SimkitError(f"key 'baseline': {e}") from None
    model = {}
    if "model" in data:
        model = game.check_model(need(data, "model", dict, "a table"), players[0] if len(players) == 1 else None)
    question = need(data, "question", str, "a text").strip() if "question" in data else ""
    by = _by(data, game, match)
    spec = Spec(name, tuple(players), hands, seed, game.name, seating, rules, lineup, pool, match, sweep, baseline,
                model, lineups, question, by)
    for rules in dict.fromkeys(cell.rules for cell in spec.cells()):  # options may rule each other out
        try:
            game.check_rules({**spec.rules, **dict(rules)})
        except SimkitError as e:
            raise SimkitError(f"key 'sweep': the variant {', '.join(f'{k} = {v}' for k, v in rules)}: {e}") from None
    if len(spec.cells()) > MAX_CELLS:
        raise SimkitError(f"the spec has {len(spec.cells()):,} cells (player counts x sweep points x lineups); "
                          f"at most {MAX_CELLS:,}")
    if "baseline" in data:
        _check_baseline(spec)
    return spec


def _by(data: dict, game: games.Game, match: dict) -> tuple[str, ...]:
    """The features of the deal to group by (`by = ["jokers", "ass"]`), checked."""
    if "by" not in data:
        return ()
    from simkit.games.dealt import parse_by

    value = data["by"]
    if not isinstance(value, list) or not value or not all(isinstance(x, str) for x in value):
        raise SimkitError(f"key 'by' must be a list of features of the deal, e.g. [\"jokers\", \"ass\"], got {value!r}")
    if match["mode"] != "single":
        raise SimkitError("key 'by' groups single hands by what was dealt; a match deals many: leave out [match]")
    swept = {k[len(RULES):] for k in data.get("sweep", {}) if k.startswith(RULES)}
    dealt_again = game.dealt_of is None and not game.folds_by  # else the engine says what it dealt
    if dealt_again and set(game.deal_rules) & (set(data.get("rules", {})) | swept):
        raise SimkitError("key 'by' needs the cards dealt as the rules' defaults deal them: leave out the rule "
                          f"options that change the deal ({', '.join(game.deal_rules)})")
    return parse_by(game.name, ",".join(value), "key 'by'").names


def _check_baseline(spec: Spec) -> None:
    """A baseline the spec names must sit at one of its tables (as it is played there, sweep values
    included): the report's paired differences are to it. One the spec leaves to the game's
    default may be absent (the report then has no paired differences)."""
    seated = {str(s) for cell in spec.cells() for s in cell.lineup}
    if str(spec.baseline) in seated:
        return
    if spec.pool:
        where = f"the pool ({', '.join(map(str, spec.pool))})"
    elif spec.lineups:
        where = "any of the lineups (" + "; ".join(", ".join(map(str, one)) for one in spec.lineups) + ")"
    else:
        where = f"the lineup ({', '.join(map(str, spec.lineup))})"
    swept = spec.baseline.name in {key.split(".", 1)[0] for key in spec.sweep}
    more = "; it is swept, so it plays only with the sweep's values" if swept else ""
    raise SimkitError(f"key 'baseline': {spec.baseline} is not in {where}{more}; the paired differences are "
                      "to the baseline, so it must play")


def _strategies(data: dict, key: str, game: str) -> list[StrategySpec]:
    """A list of strategies, each parsed, checked and made canonical here, once."""
    value = data[key]
    if not isinstance(value, list) or not value or not all(isinstance(s, (str, StrategySpec)) for s in value):
        raise SimkitError(f"key {key!r} must be a list of strategy names, got {value!r}")
    try:
        return [registry.canonical(game, s) for s in value]
    except SimkitError as e:
        raise SimkitError(f"key {key!r}: {e}") from None


def _match(data: dict, game: games.Game) -> dict:
    if "match" not in data:
        return {"mode": "single"}
    match = need(data, "match", dict, "a table")
    mode = match.get("mode", "single")
    if mode not in game.match_modes:
        raise SimkitError(f"key 'match.mode' must be one of {', '.join(game.match_modes)}, got {mode!r}")
    keys = ("mode",) + game.counted_modes
    for key in sorted(set(match) - set(keys)):
        raise unknown("key", f"match.{key}", [f"match.{k}" for k in keys])
    counted = mode in game.counted_modes  # a match of N hands, or to P points (W18)
    for key in sorted(set(match) - {"mode", mode}):
        raise SimkitError(f"key 'match.{key}' does not apply to match mode {mode!r}")
    if counted:
        value = match.get(mode)
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            raise SimkitError(f"key 'match.{mode}' must be a positive whole number for mode {mode!r}, got {value!r}")
    return {"mode": mode, **({mode: match[mode]} if counted else {})}


def _sweep(data: dict, strategies: tuple[StrategySpec, ...], game: games.Game, rules: dict) -> dict:
    if "sweep" not in data:
        return {}
    sweep = need(data, "sweep", dict, "a table")
    names = {s.name for s in strategies}
    out = {}
    for key, values in sweep.items():
        name, dot, param = key.partition(".")
        if f"{name}." == RULES:
            out[key] = _rule_values(key, param, values, game, rules)
            continue
        if not dot or name not in names:
            raise SimkitError(f"key 'sweep.{key}' must be strategy.parameter for a strategy of the lineup or pool, "
                              "or rules.option for a rule option")
        if param not in {p.name for p in registry.get(game.name, name).params} | set(game.model_names):
            model = f" or model value ({', '.join(game.model_names)})" if game.model_names else ""
            raise SimkitError(f"key 'sweep.{key}': strategy {name!r} has no parameter{model} {param!r}")
        if not isinstance(values, list) or not values or not all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
            raise SimkitError(f"key 'sweep.{key}' must be a list of numbers, got {values!r}")
        if param in game.model_names:  # a model value is checked here, not when its cell is played
            for v in values:
                game.check_model({param: float(v)}, None, f"key 'sweep.{key}'")
        if len(set(values)) != len(values):
            raise SimkitError(f"key 'sweep.{key}' lists a value twice: {values}")
        out[key] = [float(v) for v in values]
    return out


def _rule_values(key: str, option: str, values, game: games.Game, rules: dict) -> list:
    """A swept rule option's values, each checked as the game checks its rules (with the spec's
    other rules) and kept as checked: every variant is a cell of its own."""
    if option in rules:
        raise SimkitError(f"key 'sweep.{key}': rule option {option!r} is also set in [rules]; give it in one place")
    if not isinstance(values, list) or len(values) < 2:
        raise SimkitError(f"key 'sweep.{key}' must be a list of at least two values of rule option {option!r}, "
                          f"got {values!r}")
    out = []
    for v in values:
        try:
            checked = game.spec_rules({**rules, option: v})
        except SimkitError as e:
            raise SimkitError(f"key 'sweep.{key}': {e}") from None
        if option not in checked:
            raise unknown(f"rule option for {game.name}", option, sorted(game.rules))
        out.append(checked[option])
    if any(out[i] == out[j] for i in range(len(out)) for j in range(i)):
        raise SimkitError(f"key 'sweep.{key}' lists a value twice: {values}")
    return out


def spec_toml(spec: Spec) -> str:
    """The spec as a TOML file that load_spec reads back to the same Spec (for a spec given as a
    dict, so that its run folder holds a spec.toml like any other)."""
    def value(v) -> str:
        if isinstance(v, StrategySpec):
            return json.dumps(str(v))
        if isinstance(v, (list, tuple)):
            return "[" + ", ".join(value(x) for x in v) + "]"
        if isinstance(v, float) and v == int(v):
            return str(int(v))
        return json.dumps(v)

    lines = [f"{key} = {value(getattr(spec, key))}" for key in ("name", "game", "hands", "seed", "seating", "baseline")]
    if spec.question:
        lines.append(f"question = {value(spec.question)}")
    lines.append(f"players = {value(list(spec.players))}")
    if spec.by:
        lines.append(f"by = {value(list(spec.by))}")
    if spec.lineups:
        lines.append(f"lineups = {value([list(one) for one in spec.lineups])}")
    else:
        lines.append(f"lineup = {value(list(spec.lineup))}" if spec.lineup else f"pool = {value(list(spec.pool))}")
    for table in ("rules", "match", "sweep", "model"):
        entries = getattr(spec, table)
        if table == "rules":  # a swept option is set by its sweep
            entries = {k: v for k, v in entries.items() if k not in spec.swept_rules}
        if entries:
            lines += ["", f"[{table}]"] + [f"{json.dumps(k)} = {value(v)}" for k, v in entries.items()]
    return "\n".join(lines) + "\n"
