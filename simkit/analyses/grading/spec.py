"""A grading spec (TOML): the strategies graded, the field in the other seats, the graded seat,
and the search with its samples per decision; checked key by key, each problem one line."""

from dataclasses import dataclass

from simkit import games
from simkit.analyses.grading.grade import check_samples, check_search, check_seat
from simkit.core.errors import SimkitError, check_count, unknown
from simkit.core.rng import check_seed
from simkit.experiments.spec import check_name, keyed, need, read_toml
from simkit.games.whos_the_ass.rules import GAME
from simkit.strategies import registry

MOST_HANDS = 1_000_000_000  # past any trace file or grading a machine finishes
KEYS = ("name", "game", "players", "hands", "seed", "graded", "field", "seat", "search", "samples", "rules")


@dataclass(frozen=True)
class Grading:
    """A grading spec: the graded strategies (each a canonical label), the field's one strategy
    in the other seats, the graded seat, and the search with its samples per decision."""

    name: str
    players: int
    hands: int
    seed: int
    graded: tuple[str, ...]
    field: str
    seat: int = 0
    search: str = "pimc"
    samples: int = 64
    rules: dict | None = None

    def traces(self, k: int) -> str:
        """The trace file of the k-th graded strategy's hands, in the run's folder."""
        return f"traces-{k + 1}.jsonl"


def load_grading(path: str) -> Grading:
    """Read and check a grading spec (TOML); any problem is one SimkitError naming the file and key."""
    return read_toml(path, parse_grading)


def parse_grading(data: dict) -> Grading:
    """Check a grading spec given as a dict (a TOML file's content)."""
    for key in sorted(set(data) - set(KEYS)):
        raise unknown("key", key, KEYS, " (of a grading spec)")
    for key in ("name", "players", "hands", "graded", "field"):
        if key not in data:
            raise SimkitError(f"missing key {key!r}")
    name = check_name(need(data, "name", str, "a text"))
    game_name = need(data, "game", str, "a text") if "game" in data else GAME
    if game_name != GAME:
        raise SimkitError(f"key 'game': grading plays Who's the Ass? ({GAME}), not {game_name!r}")
    game = games.get(GAME)
    players = check_count(need(data, "players", int, "a whole number"), "key 'players'")
    keyed("players", game.check_players, players)
    graded = need(data, "graded", list, "a list of strategies")
    if not graded or not all(isinstance(g, str) for g in graded):
        raise SimkitError("key 'graded' must be a list of one or more strategies")
    labels = tuple(str(keyed("graded", registry.canonical, GAME, g)) for g in graded)
    if len(set(labels)) != len(labels):
        raise SimkitError("key 'graded' names a strategy twice")
    field = str(keyed("field", registry.canonical, GAME, need(data, "field", str, "a strategy")))
    search = need(data, "search", str, "a strategy") if "search" in data else "pimc"
    keyed("search", check_search, search, "grading")
    samples = check_samples(need(data, "samples", int, "a whole number"), "key 'samples'") \
        if "samples" in data else 64
    seat = check_seat(need(data, "seat", int, "a whole number"), players, "key 'seat'") if "seat" in data else 0
    rules = keyed("rules", game.spec_rules, dict(need(data, "rules", dict, "a table")) if "rules" in data else {})
    return Grading(name, players, check_hands(need(data, "hands", int, "a whole number"), "key 'hands'"),
                   keyed("seed", check_seed, data.get("seed", 0)), labels, field, seat, search, samples, rules)


def check_hands(hands: int, what: str) -> int:
    """Hands to grade (`what`: the key or option giving them): a whole number, 1..MOST_HANDS."""
    if check_count(hands, what) > MOST_HANDS:
        raise SimkitError(f"{what} must be at most {MOST_HANDS:,} (hands graded in one call), got {hands:,}")
    return hands
