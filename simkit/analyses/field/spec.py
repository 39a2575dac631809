"""Field specs (TOML): the table (game, player counts, seed, rules, match, model values: as an
experiment's), the pool of strategies (names, or tables giving a strategy and model values of
its seats: Ezelen's attention profiles), the deals each profile plays, and the analysis's
settings. Every problem is one error line naming the key."""

from dataclasses import dataclass, replace

from simkit import games
from simkit.analyses.field.profiles import count
from simkit.core.errors import SimkitError, check_count, unknown
from simkit.core.sizes import check_played
from simkit.experiments.spec import Spec, check_keys, check_name, need, parse_spec_dict, read_toml
from simkit.strategies.spec import StrategySpec

KEYS = {"name", "game", "players", "seed", "rules", "match", "model", "pool", "hands", "analysis"}
ANALYSIS = {"starts": 64, "bootstrap": 100, "epsilon": 0.0001, "steps": 4000}
MOST_PROFILES = 20_000   # profiles a field plays at one player count (1,365 for 12 strategies at 4)
MOST_SEATINGS = 500_000  # distinct seatings of all profiles at one player count (K^n)
MOST_BOOTSTRAP = 1000
# the replicator's steps and starts: far beyond what settles (4,000 and 64 by default), and what a run can hold
MOST = {"starts": 100_000, "steps": 10_000_000, "bootstrap": MOST_BOOTSTRAP}


@dataclass(frozen=True)
class Entry:
    """A strategy of the pool: its strategy and the model values of the seats it takes."""

    spec: StrategySpec
    model: tuple[tuple[str, float], ...] = ()

    @property
    def label(self) -> str:
        if not self.model:
            return str(self.spec)
        return f"{self.spec} @ " + ", ".join(f"{k}={v:g}" for k, v in self.model)


@dataclass(frozen=True)
class Field:
    """A parsed field spec. `table` carries the game, player counts, seed, rules, match and the
    spec's model values (its lineup: the pool's first strategy)."""

    name: str
    table: Spec
    pool: tuple[Entry, ...]
    hands: int
    starts: int
    bootstrap: int
    epsilon: float
    steps: int

    @property
    def game(self) -> games.Game:
        return games.get(self.table.game)

    @property
    def players(self) -> tuple[int, ...]:
        return self.table.players

    def at(self, n: int) -> Spec:
        """The table's spec at n players."""
        return replace(self.table, players=(n,))

    def labels(self) -> list[str]:
        return [e.label for e in self.pool]

    def played(self, hands: int | None = None) -> int:
        """Hands the field plays in all at `hands` deals per profile (default: its own): every deal
        in every distinct seating of every profile, a seating being any sequence of the pool."""
        return sum(len(self.pool) ** n * (hands or self.hands) for n in self.players)

    def check_hands(self, hands: int, what: str) -> int:
        """Deals per profile (`what`: the key or option giving them) whose hands in all a command may play."""
        return check_played(check_count(hands, what), what + " (deals per profile)", self.played(hands))


def load_field(path: str) -> Field:
    return read_toml(path, parse_field)


def parse_field(data: dict) -> Field:
    if "pool" not in data:
        raise SimkitError("missing key 'pool' (the strategies of the field)")
    check_keys(data, KEYS, ("name", "players", "hands"))
    check_name(need(data, "name", str, "a text"))
    raw = data["pool"]
    if not isinstance(raw, list) or len(raw) < 2:
        raise SimkitError(f"key 'pool' must be a list of two strategies or more, got {raw!r}")
    names = [e if isinstance(e, str) else e.get("strategy") if isinstance(e, dict) else None for e in raw]
    if not all(isinstance(s, str) for s in names):
        bad = next(e for e, s in zip(raw, names) if not isinstance(s, str))
        raise SimkitError(f"key 'pool': each entry is a strategy, or a table with key 'strategy' and model values, "
                          f"got {bad!r}")
    hands = check_count(need(data, "hands", int, "a whole number (deals per profile)"), "key 'hands'")
    table = parse_spec_dict({key: data[key] for key in ("name", "game", "players", "seed", "rules", "match", "model")
                             if key in data} | {"hands": hands, "pool": names, "seating": "rotate"})
    game = games.get(table.game)
    if game.objective is None:
        raise SimkitError(f"key 'game': {game.title} has no objective to play a field by")
    pool = tuple(Entry(spec, _model(e, game, table)) for e, spec in zip(raw, table.pool))
    labels = [e.label for e in pool]
    twice = next((x for x in labels if labels.count(x) > 1), None)
    if twice:
        raise SimkitError(f"key 'pool' lists {twice} twice (each strategy of a field once)")
    for n in table.players:
        profiles = count(len(pool), n)
        if profiles > MOST_PROFILES or len(pool) ** n > MOST_SEATINGS:
            raise SimkitError(f"key 'pool': {len(pool)} strategies at {n} players make {profiles:,} profiles "
                              f"({len(pool) ** n:,} seatings); at most {MOST_PROFILES:,} profiles and "
                              f"{MOST_SEATINGS:,} seatings: give fewer strategies or players")
    found = Field(table.name, table, pool, hands, **_analysis(data))
    found.check_hands(hands, "key 'hands'")
    return found


def _model(entry: object, game: games.Game, table: Spec) -> tuple[tuple[str, float], ...]:
    """An entry's model values (a table entry's keys besides 'strategy'), checked."""
    if not isinstance(entry, dict):
        return ()
    values = {k: v for k, v in entry.items() if k != "strategy"}
    if not values:
        return ()
    if not game.model_names:
        raise SimkitError(f"key 'pool': {game.title} has no model of the players; give {entry['strategy']!r} "
                          "as a name")
    checked = game.check_model(values, None, f"key 'pool' ({entry['strategy']})")
    both = sorted(set(checked) & set(table.model))
    if both:
        raise SimkitError(f"key 'pool' ({entry['strategy']}) sets {both[0]}, which key 'model' sets for every seat")
    return tuple(sorted(checked.items()))


def _analysis(data: dict) -> dict:
    value = need(data, "analysis", dict, "a table") if "analysis" in data else {}
    for key in sorted(set(value) - set(ANALYSIS)):
        raise unknown("key", f"analysis.{key}", [f"analysis.{k}" for k in sorted(ANALYSIS)])
    out = ANALYSIS | value
    for key in ("starts", "bootstrap", "steps"):
        v = out[key]
        if isinstance(v, bool) or not isinstance(v, int) or v < (0 if key == "bootstrap" else 1):
            raise SimkitError(f"key 'analysis.{key}' must be a whole number of at least "
                              f"{0 if key == 'bootstrap' else 1}, got {v!r}")
        if v > MOST[key]:
            raise SimkitError(f"key 'analysis.{key}' must be at most {MOST[key]:,}, got {v:,}")
    eps = out["epsilon"]
    if isinstance(eps, bool) or not isinstance(eps, (int, float)) or not 0 < eps < 1:
        raise SimkitError(f"key 'analysis.epsilon' must be between 0 and 1 (a share of the payoffs' spread), "
                          f"got {eps!r}")
    return {"starts": out["starts"], "bootstrap": out["bootstrap"], "epsilon": float(eps), "steps": out["steps"]}
