"""A grading run (`simkit grade SPEC.toml --out DIR`): each graded strategy plays the same hands
(one seed) in one seat among a field, every hand is traced and each of that seat's moves with a
choice is graded by the search (simkit.whos_the_ass.grade). The folder keeps the traces (so that
`simkit show --grade` replays any hand), the graded moves and the hands, and a report
(simkit.reports.grading): where does each strategy lose its points?"""

import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import pandas as pd

import simkit
from simkit import games, registry
from simkit.errors import SimkitError, check_count
from simkit.experiments.spec import check_name, keyed, need, read_toml
from simkit.rng import check_seed
from simkit.strategy_spec import split
from simkit.traces import to_line
from simkit.whos_the_ass.grade import check_samples, check_search, check_seat, grade
from simkit.whos_the_ass.rules import GAME

KEYS = ("name", "game", "players", "hands", "seed", "graded", "field", "seat", "search", "samples", "rules")
MOVES, HANDS, META = "moves.parquet", "hands.parquet", "grading.json"  # what marks a grading folder
MOVE_COLUMNS = ["strategy", "hand", "trick", "play", "point", "move", "best", "cost", "ci95", "actions"]
HAND_COLUMNS = ["strategy", "hand", "penalty", "moves", "lost"]


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
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise SimkitError(f"unknown key {unknown[0]!r} (a grading spec has {', '.join(KEYS)})")
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
    rules = keyed("rules", game.check_rules, dict(need(data, "rules", dict, "a table")) if "rules" in data else {})
    return Grading(name, players, check_count(need(data, "hands", int, "a whole number"), "key 'hands'"),
                   keyed("seed", check_seed, data.get("seed", 0)), labels, field, seat, search, samples, rules)


def run_grading(spec: Grading, out: str, progress: Callable[[int], None] | None = None) -> Path:
    """Play, trace and grade the spec's hands, and write them with their report into the folder
    `out`: made whole in a folder beside it, then put in its place, so that an interrupted run or
    a failed write leaves an earlier grading there whole (and never half of a new one).
    `progress(k)`: k more hands graded. Returns the folder."""
    folder = _check_out(out)
    game = games.get(GAME)
    start = time.perf_counter()
    moves, hands, traces = [], [], {}
    for k, label in enumerate(spec.graded):
        labels = [spec.field] * spec.players
        labels[spec.seat] = label
        seats = game.seats_for(split(",".join(labels)), spec.players)
        lines = []
        for record in game.traces(seats, spec.hands, spec.seed, spec.rules or {}, {}):
            graded = grade(record, spec.seat, spec.search, spec.samples, spec.seed)
            moves += [{"strategy": label, "hand": record["hand"], **_flat(g)} for g in graded]
            hands.append({"strategy": label, "hand": record["hand"], "penalty": record["penalties"][spec.seat],
                          "moves": len(graded), "lost": sum(g["cost"] for g in graded)})
            lines.append(to_line(record))
            if progress:
                progress(1)
        traces[spec.traces(k)] = "\n".join(lines) + "\n"
    meta = {"simkit": simkit.__version__, "kind": "grading", "spec": asdict(spec), "game": GAME,
            "duration_s": round(time.perf_counter() - start, 3)}
    from simkit.reports.grading import make_grading_report

    made = folder.with_name(f".{folder.name}.new-{os.getpid()}")
    shutil.rmtree(made, ignore_errors=True)
    try:
        made.parent.mkdir(parents=True, exist_ok=True)
        made.mkdir()
        for name, text in traces.items():
            (made / name).write_text(text, encoding="utf-8")
        pd.DataFrame(moves, columns=MOVE_COLUMNS).to_parquet(made / MOVES, index=False)
        pd.DataFrame(hands, columns=HAND_COLUMNS).to_parquet(made / HANDS, index=False)
        (made / META).write_text(json.dumps(meta, indent=2))
        make_grading_report(str(made), shown_as=out)
        _swap(made, folder)
    except OSError as e:
        raise SimkitError(f"cannot write {out}: {e.strerror or e}") from None
    finally:
        shutil.rmtree(made, ignore_errors=True)
    return folder


def _check_out(out: str) -> Path:
    """The folder a grading is written to: new, or an earlier grading's (never a run's folder or
    one of the user's own), in a folder that exists and can be written: checked before grading."""
    folder = Path(out)
    if folder.exists() and (not folder.is_dir() or (any(folder.iterdir()) and not is_grading(folder))):
        raise SimkitError(f"--out {out} is {'not a folder' if not folder.is_dir() else 'a folder of other files'}; "
                          "give a new folder or an earlier grading's")
    existing = next(p for p in folder.absolute().parents if p.exists())  # the folders above are made if need be
    if not existing.is_dir() or not os.access(existing, os.W_OK):
        raise SimkitError(f"cannot write {out}: {existing} is not a folder this user can write")
    return folder


def _swap(made: Path, folder: Path) -> None:
    """Put the folder `made` in the place of `folder` (an earlier grading, or nothing)."""
    if not folder.exists():
        made.rename(folder)
        return
    old = folder.with_name(f".{folder.name}.old-{os.getpid()}")
    folder.rename(old)
    made.rename(folder)
    shutil.rmtree(old, ignore_errors=True)


def _flat(graded: dict) -> dict:
    """A graded move as a row (its actions' means are for `simkit show`, not kept)."""
    return {k: v for k, v in graded.items() if k not in ("means", "seat")}


def is_grading(folder: str | Path) -> bool:
    """Whether `folder` holds a grading run (its report is the grading report)."""
    return (Path(folder) / META).is_file()


def read_grading(folder: str | Path) -> tuple[Grading, pd.DataFrame, pd.DataFrame, dict]:
    """A grading folder's spec, graded moves, hands and metadata; a damaged one is one error."""
    folder = Path(folder)
    try:
        meta = json.loads((folder / META).read_text())
        spec = Grading(**{**meta["spec"], "graded": tuple(meta["spec"]["graded"])})
        return spec, pd.read_parquet(folder / MOVES), pd.read_parquet(folder / HANDS), meta
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise SimkitError(f"{folder} is not a whole grading run ({type(e).__name__}: {e}); run `simkit grade` "
                          "again") from None
