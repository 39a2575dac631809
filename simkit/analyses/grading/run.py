"""A grading run (`simkit grade SPEC.toml --out DIR`): each graded strategy plays the same hands
(one seed) in one seat among a field, every hand is traced and each of that seat's moves with a
choice is graded by the search (simkit.analyses.grading.grade). The folder keeps the traces (so that
`simkit show --grade` replays any hand), the graded moves and the hands, and a report
(simkit.analyses.grading.report): where does each strategy lose its points?

The folder is locked while a grading plays into it. The hands graded so far are kept in its hidden
PARTIAL folder, a line a hand, so that Ctrl-C (or a killed process) loses at most the hands being
graded and `--resume` goes on from there; the finished grading is made whole beside the folder and
put in its place, so that an earlier grading stays whole until the new one is complete."""

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
from simkit.core import sizes
from simkit.core.errors import SimkitError
from simkit.core.files import atomic_path
from simkit.experiments.runner import PID, hold
from simkit.games.traces import to_line
from simkit.games.whos_the_ass.batch import traces
from simkit.games.whos_the_ass.rules import GAME
from simkit.strategies.spec import split

# Held per graded hand while the grading is made whole (its moves as rows, ~10 a hand, the hand, the report):
# above the 35.7 KB per hand tracemalloc measured in `_complete` at 1,000 graded hands, its fixed costs included.
BYTES_PER_HAND = 40_000
# A hand on disk, at least: its trace line (2.7..6 KB) and its grades (~1 KB), the trace kept twice while the
# grading is made whole.
DISK_PER_HAND = 6_000
PARTIAL = ".partial"  # in a grading's folder until it is complete: its spec and the hands graded so far
SPEC = "spec.json"


def check_out(spec: Grading, out: str, resume: bool) -> Path:
    """The folder a grading is written to, checked before anything is played: new, an earlier
    grading's (replaced once the new one is complete), or with `resume` an unfinished grading of
    this spec (never a run's folder or one of the user's own), in a folder that can be written."""
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise SimkitError(f"--out {out} is not a folder; give a new folder or an earlier grading's")
    held = [p for p in folder.iterdir() if p.name != PID] if folder.is_dir() else []
    unfinished = (folder / PARTIAL).is_dir()
    if held and not unfinished and not is_grading(folder):
        raise SimkitError(f"--out {out} is a folder of other files; give a new folder or an earlier grading's")
    if unfinished and not resume:
        raise SimkitError(f"{out} holds an unfinished grading: finish it with --resume, or choose another --out")
    if resume and not unfinished and not is_grading(folder):
        raise SimkitError(f"{out} holds no grading to resume; leave out --resume to start one there")
    if resume:
        _same(spec, folder / PARTIAL / SPEC if unfinished else folder / META, out)
    existing = next(p for p in folder.absolute().parents if p.exists())  # the folders above are made if need be
    if not folder.exists() and (not existing.is_dir() or not os.access(existing, os.W_OK)):
        raise SimkitError(f"cannot write {out}: {existing} is not a folder this user can write")
    graded = spec.hands * len(spec.graded)
    sizes.check_memory(graded, "a grading of", "hands", BYTES_PER_HAND)
    sizes.check_disk(graded, out, "hands", "a grading of", DISK_PER_HAND)
    return folder


def _same(spec: Grading, record: Path, out: str) -> None:
    """A resume goes on with the spec (and hands) that began the grading, or is one error saying what differs."""
    try:
        there = json.loads(record.read_text())
        there = there.get("spec", there)
    except (OSError, ValueError, AttributeError) as e:
        raise SimkitError(f"{out} holds a damaged grading ({record.name}: {e}); grade into another --out") from None
    here = json.loads(json.dumps(asdict(spec)))
    if there != here:
        differs = ", ".join(f"{k}: {there.get(k)!r} there, {here[k]!r} here" for k in here if there.get(k) != here[k])
        raise SimkitError(f"{out} holds a grading of another spec ({differs or 'its keys differ'}); resume it with "
                          "the spec and --hands that began it, or choose another --out")


def run_grading(spec: Grading, out: str, progress: Callable[[int], None] | None = None,
                resume: bool = False) -> Path:
    """Play, trace and grade the spec's hands, and write them with their report into the folder
    `out` (locked meanwhile); with `resume`, go on from the hands an interrupted grading kept.
    `progress(k)`: k more hands graded (those kept, at once). Returns the folder."""
    check_out(spec, out, resume)
    with hold(out) as folder:
        check_out(spec, out, resume)  # again, holding the folder: what another process did before is seen
        partial = folder / PARTIAL
        if resume and not partial.is_dir():
            return folder  # a finished grading of this spec: nothing is left to do
        try:
            partial.mkdir(exist_ok=True)
            if not (partial / SPEC).is_file():
                with atomic_path(partial / SPEC) as tmp:  # whole or not there, even if killed while written
                    tmp.write_text(json.dumps(asdict(spec), indent=2))
            for k, label in enumerate(spec.graded):
                _grade_strategy(spec, partial, k, label, progress)
            _complete(spec, folder, partial, out)
        except OSError as e:
            raise SimkitError(f"cannot write {out}: {e.strerror or e}") from None
    return folder


def _grade_strategy(spec: Grading, partial: Path, k: int, label: str,
                    progress: Callable[[int], None] | None) -> None:
    """The k-th graded strategy's hands after those kept: each hand's trace line and grades
    appended (and flushed) as it is graded, so that an interruption keeps every finished hand."""
    trace_file, grade_file = partial / spec.traces(k), partial / f"graded-{k + 1}.jsonl"
    done = _kept(trace_file, grade_file)
    if progress and done:
        progress(done)
    if done == spec.hands:
        return
    labels = [spec.field] * spec.players
    labels[spec.seat] = label
    seats = games.get(GAME).seats_for(split(",".join(labels)), spec.players)
    played = traces(seats, spec.hands - done, spec.seed, spec.rules or {}, first=done)
    with open(trace_file, "a", encoding="utf-8") as lines, open(grade_file, "a", encoding="utf-8") as grades:
        last = time.perf_counter()
        for record, graded in grades_of(played, spec.seat, spec.search, spec.samples, spec.seed):
            now = time.perf_counter()
            line = {"hand": record["hand"], "penalty": record["penalties"][spec.seat], "seconds": round(now - last, 6),
                    "moves": [_flat(g) for g in graded]}
            last = now
            lines.write(to_line(record) + "\n")
            grades.write(json.dumps(line, default=_plain) + "\n")
            lines.flush()
            grades.flush()
            if progress:
                progress(1)


def _kept(*files: Path) -> int:
    """Hands whole in every one of `files` (a line each): each is cut back to that many lines, so
    a line half-written when the process was killed is dropped and its hand graded again."""
    data = {path: path.read_bytes() if path.exists() else b"" for path in files}
    done = min(text.count(b"\n") for text in data.values())
    for path, text in data.items():
        keep = len(b"".join(line + b"\n" for line in text.split(b"\n")[:done]))
        if keep != len(text):
            with open(path, "r+b") as f:
                f.truncate(keep)
    return done


def _complete(spec: Grading, folder: Path, partial: Path, out: str) -> None:
    """The grading made whole from the hands kept (traces, moves, hands, record, report) in a
    folder beside `folder`, then put in its place (an earlier grading and the partial hands go)."""
    from simkit.analyses.grading.report import make_grading_report

    moves, hands, seconds = [], [], 0.0
    for k, label in enumerate(spec.graded):
        for text in (partial / f"graded-{k + 1}.jsonl").read_text(encoding="utf-8").splitlines():
            line = json.loads(text)
            moves += [{"strategy": label, "hand": line["hand"], **g} for g in line["moves"]]
            hands.append({"strategy": label, "hand": line["hand"], "penalty": line["penalty"],
                          "moves": len(line["moves"]), "lost": sum(g["cost"] for g in line["moves"])})
            seconds += line["seconds"]
    meta = {"simkit": simkit.__version__, "kind": "grading", "spec": asdict(spec), "game": GAME,
            "duration_s": round(seconds, 3)}
    made = folder.with_name(f".{folder.name}.new")
    shutil.rmtree(made, ignore_errors=True)  # left by a process killed here: the folder's lock is ours
    try:
        made.mkdir()
        for k in range(len(spec.graded)):
            shutil.copyfile(partial / spec.traces(k), made / spec.traces(k))
        pd.DataFrame(moves, columns=MOVE_COLUMNS).to_parquet(made / MOVES, index=False)
        pd.DataFrame(hands, columns=HAND_COLUMNS).to_parquet(made / HANDS, index=False)
        (made / META).write_text(json.dumps(meta, indent=2))
        make_grading_report(str(made), shown_as=out)
        _swap(made, folder)
    finally:
        shutil.rmtree(made, ignore_errors=True)


def _swap(made: Path, folder: Path) -> None:
    """Put the folder `made` in the place of `folder` (an earlier grading and the partial hands)."""
    old = folder.with_name(f".{folder.name}.old")
    shutil.rmtree(old, ignore_errors=True)
    folder.rename(old)
    made.rename(folder)
    shutil.rmtree(old, ignore_errors=True)


def _flat(graded: dict) -> dict:
    """A graded move as a row (its actions' means are for `simkit show`, not kept)."""
    return {k: v for k, v in graded.items() if k not in ("means", "seat")}


def _plain(value):
    """numpy's scalars in a graded move, as JSON numbers."""
    return value.item()
