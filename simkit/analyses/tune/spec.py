"""Tuning specs (TOML): the table (game, players, rules, match, model values, seed: as an
experiment's), the field (the other seats), the template to tune and its space, the budget, how
the race runs and how its winner is confirmed. Every problem is one error line naming the key."""

from dataclasses import dataclass

from simkit import games
from simkit.analyses.tune.space import MOST_CANDIDATES, Space, parse_space
from simkit.core.errors import SimkitError, check_count, unknown
from simkit.core.rng import check_seed
from simkit.core.sizes import check_played
from simkit.experiments.spec import Spec, check_keys, check_name, keyed, need, parse_spec_dict, read_toml
from simkit.strategies import registry
from simkit.strategies.spec import StrategySpec

KEYS = {"name", "game", "players", "seed", "rules", "match", "model", "field", "tune", "space", "budget",
        "default", "baselines", "start", "profile", "race", "confirm"}
SAMPLERS = ("grid", "random", "tpe")
RACE = {"sampler": "grid", "candidates": 64, "iterations": 4, "first": 256, "growth": 2.0, "alpha": 0.05}
MOST_ITERATIONS = 64
CONFIRM = {"deals": 25_000}


@dataclass(frozen=True)
class Tuning:
    """A parsed tuning spec. `table` is an experiment spec carrying the game, players, seed,
    rules, match and model values (its lineup: the default among the field)."""

    name: str
    table: Spec
    field: tuple[StrategySpec, ...]
    space: Space
    budget: int
    default: StrategySpec | None
    baselines: tuple[StrategySpec, ...]  # also confirmed against the winner (--against: every family)
    starts: tuple[dict, ...]  # settings raced from the first round (random, tpe)
    profile: tuple[tuple[str, float], ...]
    sampler: str
    candidates: int
    iterations: int
    first: int
    growth: float
    alpha: float
    confirm_deals: int
    confirm_seed: int

    @property
    def game(self) -> games.Game:
        return games.get(self.table.game)

    @property
    def players(self) -> int:
        return self.table.players[0]

    def confirm_hands(self) -> int:
        """Hands the confirmation plays, at most: winner, runner-up, default, baselines and the field's strategies."""
        return (2 + (self.default is not None) + len(self.baselines) + len(set(self.field))) * self.players \
            * self.confirm_deals

    @property
    def batch(self) -> int:
        """Settings the sampler proposes an iteration (tpe; the others race all at once)."""
        return -(-self.candidates // self.iterations)


def load_tuning(path: str) -> Tuning:
    return read_toml(path, parse_tuning)


def parse_tuning(data: dict) -> Tuning:
    if "tune" not in data:
        raise SimkitError("missing key 'tune' (the strategy to tune, with {name} placeholders)")
    check_keys(data, KEYS, ("name", "players", "field", "space", "budget"))
    check_name(need(data, "name", str, "a text"))
    players = data["players"]
    if isinstance(players, bool) or not isinstance(players, int):
        raise SimkitError(f"key 'players' must be one whole number (a tuning plays one table), got {players!r}")
    field = data["field"]
    if not isinstance(field, list) or not all(isinstance(s, str) for s in field):
        raise SimkitError(f"key 'field' must be a list of strategies (the other seats), got {field!r}")
    if len(field) != players - 1:
        raise SimkitError(f"key 'field' has {len(field)} strategies for {players} players: give the other "
                          f"{players - 1} seats")
    template = data["tune"]
    baselines = _strategies(data, "baselines")
    default = data.get("default", None if baselines else _family(template))
    if default is not None and "default" not in data and "{" in str(default):
        raise SimkitError(f"key 'default' is needed: the template {template!r} names no family whose default "
                          "the winner is confirmed against (or give key 'baselines')")
    named = keyed("game", games.get, need(data, "game", str, "a text") if "game" in data else games.DEFAULT).name
    for key, given in (("field", field), ("default", [need(data, "default", str, "a strategy")] if "default" in data
                                          else [])):
        for strategy in given:  # named by their own keys here, not by the table's lineup they make below
            keyed(key, registry.canonical, named, strategy)
    keys = ("name", "game", "players", "seed", "rules", "match", "model")
    table = parse_spec_dict({key: data[key] for key in keys if key in data}
                            | {"hands": 1, "lineup": [default or baselines[0]] + field, "seating": "rotate"})
    game = games.get(table.game)
    if game.objective is None:
        raise SimkitError(f"key 'game': {game.title} has nothing to tune by (no objective)")
    profile, rules = _profile(data, game)
    space = _space(table.game, template, data["space"], rules)
    starts = _starts(data, space)
    budget = check_played(check_count(need(data, "budget", int, "a whole number (hands)"), "key 'budget'"),
                          "key 'budget'")
    race = _table(data, "race", RACE)
    sampler = race["sampler"]
    if sampler not in SAMPLERS:
        raise SimkitError(f"key 'race.sampler' must be one of {', '.join(SAMPLERS)}, got {sampler!r}")
    candidates = keyed("race.candidates", check_count, _whole(race, "candidates"), "candidates")
    if candidates < 2 or candidates > MOST_CANDIDATES:
        raise SimkitError(f"key 'race.candidates' must be 2..{MOST_CANDIDATES:,}, got {candidates}")
    iterations = _whole(race, "iterations")
    if not 1 <= iterations <= MOST_ITERATIONS:
        raise SimkitError(f"key 'race.iterations' must be 1..{MOST_ITERATIONS}, got {iterations}")
    if sampler != "tpe" and "iterations" in data.get("race", {}):
        raise SimkitError(f"key 'race.iterations' applies to the tpe sampler only, not to {sampler}")
    if sampler == "tpe" and candidates < 2 * iterations:
        raise SimkitError(f"key 'race.candidates' ({candidates}) must be at least twice race.iterations "
                          f"({iterations}): each iteration proposes two settings or more")
    first = _whole(race, "first")
    if first < 16:
        raise SimkitError(f"key 'race.first' must be at least 16 deals, got {first}")
    growth, alpha = _real(race, "growth"), _real(race, "alpha")
    if not 1 <= growth <= 16:
        raise SimkitError(f"key 'race.growth' must be 1..16, got {growth}")
    if not 0 < alpha < 1:
        raise SimkitError(f"key 'race.alpha' must be between 0 and 1, got {alpha}")
    confirm = _table(data, "confirm", CONFIRM | {"seed": None})
    deals = check_count(_whole(confirm, "deals", "confirm"), "key 'confirm.deals'")
    seed = confirm["seed"] if confirm["seed"] is not None else (table.seed + 1) % 2 ** 63
    seed = keyed("confirm.seed", check_seed, seed)
    if seed == table.seed:
        raise SimkitError("key 'confirm.seed' must differ from key 'seed': the winner is confirmed on fresh deals")
    baseline_specs = tuple(keyed("baselines", registry.canonical, table.game, s) for s in baselines)
    found = Tuning(table.name, table, table.lineup[1:], space, budget, table.lineup[0] if default is not None else None,
                   baseline_specs, starts, profile, sampler,
                   candidates, iterations if sampler == "tpe" else 1, first, float(growth), float(alpha), deals, seed)
    check_played(deals, "key 'confirm.deals'", found.confirm_hands())
    return found


def _space(game: str, template: object, space: object, rules: tuple = ()) -> Space:
    try:
        return parse_space(game, template, space, rules)
    except SimkitError as e:
        text = str(e)
        raise SimkitError(text if text.startswith("key ") else f"key 'tune': {text}") from None


def _strategies(data: dict, key: str) -> list[str]:
    if key not in data:
        return []
    value = data[key]
    if not isinstance(value, list) or not value or not all(isinstance(s, str) for s in value):
        raise SimkitError(f"key '{key}' must be a list of strategies, got {value!r}")
    return value


def _starts(data: dict, space: Space) -> tuple[dict, ...]:
    """Settings raced from the first round: each a table giving every name its strategy uses."""
    value = data.get("start", [])
    if not isinstance(value, list) or not all(isinstance(s, dict) for s in value):
        raise SimkitError(f"key 'start' must be a list of settings (tables of the space's names), got {value!r}")
    for i, setting in enumerate(value):
        try:
            space.candidate(setting)
        except (KeyError, SimkitError) as e:
            raise SimkitError(f"key 'start' ({i + 1}): not a setting of the space: {e}") from None
    return tuple(value)


def _family(template: object) -> str:
    """The family's default: the template's strategy with no values (its defaults)."""
    name = str(template).split("(", 1)[0].strip()
    return name or str(template)


def _table(data: dict, key: str, defaults: dict) -> dict:
    value = need(data, key, dict, "a table") if key in data else {}
    for name in sorted(set(value) - set(defaults)):
        raise unknown("key", f"{key}.{name}", [f"{key}.{k}" for k in sorted(defaults)])
    return defaults | value


def _whole(table: dict, key: str, where: str = "race") -> int:
    v = table[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise SimkitError(f"key '{where}.{key}' must be a whole number, got {v!r}")
    return v


def _real(table: dict, key: str) -> float:
    v = table[key]
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise SimkitError(f"key 'race.{key}' must be a number, got {v!r}")
    return float(v)


def _profile(data: dict, game: games.Game) -> tuple[tuple, tuple]:
    """Model values of the tuned seat (Ezelen: attention, reaction time...), over those its
    strategy brings, as a profile like `watcher` gives them: (the numbers, the values worked out
    from each setting: texts with placeholders, `call_median = "{pace}"`, tuned with the strategy)."""
    if "profile" not in data:
        return (), ()
    if not game.model_names:
        raise SimkitError(f"key 'profile' does not apply to {game.title} (it has no model of the players)")
    values = need(data, "profile", dict, "a table of model values")
    rules = {k: v for k, v in values.items() if isinstance(v, str)}
    for name in sorted(rules):
        if name not in game.model_names:
            game.check_model({name: 0.0}, None, "key 'profile'")  # its error: the unknown name, the names known
    fixed = game.check_model({k: v for k, v in values.items() if k not in rules}, None, "key 'profile'")
    return tuple(sorted(fixed.items())), tuple(sorted(rules.items()))
