"""A grading run (`simkit grade SPEC.toml --out DIR`): each graded strategy plays the same hands
(one seed) in one seat among a field, every hand is traced and each of that seat's moves with a
choice is graded by the search (simkit.analyses.grading.grade). The folder keeps the traces (so that
`simkit show --grade` replays any hand), the graded moves and the hands, and a report
(simkit.analyses.grading.report): where does each strategy lose its points?"""

import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

import pandas as pd

import simkit
from simkit import games
from simkit.analyses.grading.grade import graded as grades_of
from simkit.analyses.grading.record import HAND_COLUMNS, HANDS, META, MOVE_COLUMNS, MOVES, is_grading
from simkit.analyses.grading.spec import Grading
from simkit.core.errors import SimkitError
from simkit.games.traces import to_line
from simkit.games.whos_the_ass.rules import GAME
from simkit.strategies.spec import split


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
        played = game.traces(seats, spec.hands, spec.seed, spec.rules or {}, {})
        for record, graded in grades_of(played, spec.seat, spec.search, spec.samples, spec.seed):
            moves += [{"strategy": label, "hand": record["hand"], **_flat(g)} for g in graded]
            hands.append({"strategy": label, "hand": record["hand"], "penalty": record["penalties"][spec.seat],
                          "moves": len(graded), "lost": sum(g["cost"] for g in graded)})
            lines.append(to_line(record))
            if progress:
                progress(1)
        traces[spec.traces(k)] = "\n".join(lines) + "\n"
    meta = {"simkit": simkit.__version__, "kind": "grading", "spec": asdict(spec), "game": GAME,
            "duration_s": round(time.perf_counter() - start, 3)}
    from simkit.analyses.grading.report import make_grading_report

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


