"""Trace files of either game (docs/traces.md): one JSON record per line. Writing them whole or
not at all, reading them, picking a record to show, and checking every record against its game's
reference engine: what `simkit trace`, `show` and `check` (and the Python API) share."""

import json
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator

from simkit import games
from simkit.core.errors import SimkitError
from simkit.core.files import atomic_path


def whole(value) -> bool:
    """A whole number as JSON gives it (not a bool, not a float)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_head(rec, required: tuple[str, ...], game: str, fmt: int, check_players: Callable[[int], None],
               counters: tuple[str, ...], options: dict[str, Iterable[str]]) -> int:
    """What every game's record check starts with (a game's check.py): a JSON object with the
    `required` keys, of `game` in format `fmt`, a valid player count and seed, the `counters` whole
    numbers from 0, one strategy name per player, and each of `options` (rules, model) holding
    exactly its names. Returns the player count; a ValueError names the first problem."""
    from simkit.core.rng import check_seed

    if not isinstance(rec, dict):
        raise ValueError("a record is a JSON object")
    missing = [k for k in required if k not in rec]
    if missing:
        raise ValueError(f"missing key {missing[0]!r}")
    if rec["game"] != game or rec["format"] != fmt:
        raise ValueError(f"not an {game} format {fmt} record")
    n = rec["players"]
    check_players(n)
    check_seed(rec["seed"])
    for key in counters:
        if not whole(rec[key]) or rec[key] < 0:
            raise ValueError(f"{key!r} must be a whole number from 0, got {rec[key]!r}")
    strategies = rec["strategies"]
    if not (isinstance(strategies, list) and len(strategies) == n and all(isinstance(v, str) for v in strategies)):
        raise ValueError("'strategies' needs one name per player")
    for key, names in options.items():
        if not isinstance(rec[key], dict) or set(rec[key]) != set(names):
            raise ValueError(f"{key!r} must hold exactly {', '.join(names)}")
    return n


def to_line(record: dict) -> str:
    """A record as its line (without the newline)."""
    return json.dumps(record, separators=(", ", ": "))


def is_trace(head: bytes) -> bool:
    """Whether a file's first line is a trace record simkit writes (a JSON object naming a known
    game and a format): what a trace may be written over."""
    try:
        record = json.loads(head)
    except ValueError:
        return False
    return isinstance(record, dict) and record.get("game") in games.names() and "format" in record


def read_traces(path: str) -> Iterator[dict]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def write_traces(path: str, records: Iterable[dict]) -> tuple[int, dict | None]:
    """Write records as JSON Lines to `path` through `atomic_path` (never half a file; an earlier
    file stays whole until all are written; a device, link or folder at `path` is refused before
    any record is made); returns how many and the last one."""
    count, last = 0, None
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as f:
        for last in records:
            f.write(to_line(last) + "\n")
            count += 1
    return count, last


def write_game_traces(path: str, game: str, seats: list, count: int, seed: int, rules: dict,
                      model: dict | None = None) -> tuple[int, dict | None]:
    """`count` deals of `game` traced move by move into `path` (`write_traces`)."""
    return write_traces(path, games.get(game).traces(seats, count, seed, rules, model or {}))


def find_record(path: str, hand: int | None = None, match: int | None = None,
                round_no: int | None = None) -> dict:
    """The record `simkit show` prints: by its number (a Who's the Ass? hand's own, an Ezelen
    round's place in the file), or by (match, round) where the game has matches; the first one
    by default (each game's description says how its records are picked)."""
    if round_no is not None and match is None:
        raise SimkitError("--round needs --match")
    if not os.path.isfile(path):
        raise SimkitError(f"no trace file {path}")
    wanted = None if match is None else (match, round_no or 0)
    deal = "hand"  # what the file's records are: its first record's game says
    try:
        for i, record in enumerate(read_traces(path)):
            game = games.get(record["game"])
            deal = game.deal if i == 0 else deal
            if game.picks(record, i, hand, wanted):
                return record
    except (ValueError, KeyError, TypeError, IndexError, SimkitError) as e:
        raise SimkitError(f"{path} is not a valid trace file ({type(e).__name__}: {e})") from None
    which = [f"{deal} {hand}"] if hand is not None else []
    if wanted is not None:
        which.append(f"match {wanted[0]}, round {wanted[1]}")
    if not which:
        raise SimkitError(f"{path} holds no records")
    raise SimkitError(f"{' with '.join(which)} is not in {path}")


def show_record(record: dict) -> str:
    """A record for a person: a hand trick by trick, or a round turn by turn."""
    try:
        return games.get(record["game"]).show(record)
    except (ValueError, KeyError, TypeError, IndexError) as e:
        raise SimkitError(f"not a valid trace record ({type(e).__name__}: {e})") from None


def check_file(path: str) -> tuple[Counter, list[str]]:
    """Replay every record of a trace file through its game's reference engine: the records
    that follow the rules, by game, and a line per record that does not ("file:line: why")."""
    if not os.path.isfile(path):
        raise SimkitError(f"no trace file {path}")
    checks: dict[str, Callable[[dict], None]] = {}
    counts, problems = Counter(), []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line_no, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                try:
                    record = json.loads(line)
                except json.JSONDecodeError as e:
                    raise ValueError(f"not a JSON record ({e})") from None
                game = record.get("game") if isinstance(record, dict) else None
                if game not in games.names():
                    raise ValueError(f"not a trace record of a known game ({', '.join(games.names())})")
                if game not in checks:
                    checks[game] = games.get(game).checker()
                checks[game](record)
                counts[game] += 1
            except (ValueError, KeyError, TypeError, IndexError) as e:
                problems.append(f"{path}:{line_no}: {e}")
    return counts, problems
