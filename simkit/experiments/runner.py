"""Run a spec: chunks of deals, each played in every cell and seat rotation and reduced at once
to exact statistics (experiments/statistics.py), kept on disk as it finishes (so an interrupted
run resumes without recomputing), then the run's statistics: their sum. Per-hand rows
(results.parquet) only on request.

Every file is written beside its place and renamed in; chunks/ holds what a resume needs and is
removed when the run completes. One process at a time runs in a folder (`hold`), and a fresh run
needs a folder of its own: nothing a run did not make is replaced.
"""

import errno
import json
import os
import platform
import shutil
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

try:
    import fcntl
except ImportError:  # not on Windows: runs there are not locked
    fcntl = None

import simkit
from simkit import games
from simkit.core.errors import SimkitError, check_count
from simkit.core.files import atomic_path
from simkit.experiments import executors, stats_file
from simkit.experiments import statistics as st
from simkit.experiments.chunks import Task, measured, rows, strategy_labels
from simkit.experiments.results import ResultsWriter, read_chunk
from simkit.experiments.spec import Spec, spec_toml

CHUNK = 25_000           # deals per chunk (a chunk plays them in every cell and rotation): engine calls this big,
CHUNK_HANDS = 1_000_000  # or up to 4x as many where a deal has few replays, for a chunk of about this many hands
CHUNK_MATCHES = 2_500    # matches per chunk (a match is many hands or rounds)
RESULTS = "results.parquet"
STATS = "stats.parquet"


@dataclass(frozen=True)
class Chunk:
    """Deals lo..hi-1 of the run, in every cell and seat rotation: the unit of resume, progress
    and Dask work."""

    lo: int
    hi: int

    @property
    def name(self) -> str:
        return f"deals-{self.lo}-{self.hi}"


def chunk_size(spec: Spec) -> int:
    """Deals per chunk: what a chunk costs beyond its engine calls (its file, the folding of its
    sums) is spread over enough hands."""
    if spec.match["mode"] != "single":
        return CHUNK_MATCHES
    return max(CHUNK, min(4 * CHUNK, CHUNK_HANDS // replays(spec)))


def plan(spec: Spec, hands: int | None = None, chunk: int | None = None) -> list[Chunk]:
    """Every chunk of the run, in order."""
    count, size = hands or spec.hands, chunk or chunk_size(spec)
    return [Chunk(lo, min(count, lo + size)) for lo in range(0, count, size)]


_WARMED: set = set()  # (game, match mode, strategy files) this process has played already


def _warm_up(spec: Spec, files: tuple[str, ...], lay: st.Layout) -> None:
    """Play one deal, so that compiling (or loading) the engine is not timed as playing: once per
    process for a game, match mode and set of strategy files (the engine's compiled code is the
    same for every lineup and player count of them)."""
    key = (spec.game, spec.match["mode"], files)
    if key not in _WARMED:
        st.reduce_chunk(spec, 0, 1, files, warm_up=True, lay=lay)
        _WARMED.add(key)


def replays(spec: Spec) -> int:
    """How many times each deal is played: once per cell and rotation."""
    return sum(cell.rotations(spec.seating) for cell in spec.cells())


def play_chunk(chunk: Chunk, spec: Spec, strategy_files: tuple[str, ...] = (), keep_rows: bool = False,
               lay: st.Layout | None = None) -> tuple:
    """A chunk's statistics; with `keep_rows` the engine's arrays of each (cell, rotation) for the
    per-hand rows; and the seconds its engine calls took. What a Dask worker runs and sends back."""
    played: list = []
    clock = [0.0]
    stats = st.reduce_chunk(spec, chunk.lo, chunk.hi, strategy_files, clock=clock, lay=lay,
                            on_play=(lambda c, r, arrays: played.append((c, r, arrays))) if keep_rows else None)
    return stats, played, clock[0]


@dataclass
class Results:
    """A finished run: its statistics; its per-hand rows when they were asked for; its folder."""

    stats: st.Statistics
    rows: pd.DataFrame | None = None
    folder: Path | None = None


def run_spec(spec: Spec, out: str, resume: bool = False, hands: int | None = None,
             progress: Callable[[int], None] | None = None, workers: int | None = None,
             scheduler: str | None = None, strategy_files: tuple[str, ...] = (), chunk: int | None = None,
             keep_rows: bool = False, resumed: Callable[[int, int, int], None] | None = None) -> Results:
    """Run every cell of `spec` into folder `out`; returns its statistics (and rows, if kept).

    Chunks run in this process by default, or on Dask with `workers` (a local cluster of that many
    processes) or `scheduler` (an existing cluster's address); the results are the same either way.
    """
    write_results(spec, out, resume, hands, progress, workers, scheduler, strategy_files, chunk, keep_rows, resumed)
    return Results(read_stats(out), read_results(out) if keep_rows else None, Path(out))


def write_results(spec: Spec, out: str, resume: bool = False, hands: int | None = None,
                  progress: Callable[[int], None] | None = None, workers: int | None = None,
                  scheduler: str | None = None, strategy_files: tuple[str, ...] = (), chunk: int | None = None,
                  keep_rows: bool = False, resumed: Callable[[int, int, int], None] | None = None) -> Path:
    """The runner's work: chunks, stats.parquet (and results.parquet with `keep_rows`), meta.json.
    `chunk` (deals per chunk) never changes the results. A resumed run's chunks read back go to
    `progress` like the others, or, with `resumed`, are told to it once before any is played:
    (chunks done, chunks in all, hands done)."""
    if workers is not None:
        check_count(workers, "--workers")
    from simkit.core.sizes import check_run_size  # the plan of chunks is held whole: bounded

    check_run_size(check_count(hands or spec.hands, "hands"), chunk or chunk_size(spec), "hands",
                   games.get(spec.game).unit(spec.match["mode"]))
    with hold(out):
        _check_folder(Path(out), resume)
        return _write_results(spec, out, hands, progress, workers, scheduler, strategy_files, chunk, keep_rows,
                              resumed)


def _write_results(spec: Spec, out: str, hands: int | None, progress: Callable[[int], None] | None,
                   workers: int | None, scheduler: str | None, strategy_files: tuple[str, ...], chunk: int | None,
                   keep_rows: bool, resumed: Callable[[int, int, int], None] | None) -> Path:
    """`write_results` in a folder this process holds."""
    folder = Path(out)
    chunks = folder / "chunks"
    count = hands or spec.hands
    size = chunk or chunk_size(spec)
    if _same_run(folder, spec, count, size, keep_rows):
        return folder / STATS  # complete already: nothing to play
    tasks = plan(spec, count, size)
    per_deal = replays(spec)
    replay_of = [(ci, r) for ci, cell in enumerate(spec.cells()) for r in range(cell.rotations(spec.seating))]
    labels = strategy_labels(spec)
    lay = st.layout(spec)
    files = tuple(str(Path(f).resolve()) for f in strategy_files)
    ready = time.perf_counter()
    if workers is None and scheduler is None:  # compile the engine (or load it) outside the timing
        _warm_up(spec, files, lay)
    start = time.perf_counter()
    writer = None
    if keep_rows:
        writer = ResultsWriter(folder / RESULTS, lambda task, played: measured(task, played, spec),
                               lambda task, chunk_: rows(task, chunk_, spec, labels),
                               {"experiment": spec.name,
                                **{k: v for k, v in spec.rules.items() if k not in spec.swept_rules}})
    total = None
    engine_s = 0.0
    try:
        todo = []
        for index, task in enumerate(tasks):
            path = chunks / f"{task.name}.npy"
            if path.exists():
                part = _read_kept(path, path, out, lambda p: stats_file.read_chunk(p, lay))
                total = part if total is None else total + part
                if writer is not None:
                    olds = _replays_of(replay_of, task)
                    writer.add(index, olds, [_read_kept(chunks / f"{old.name}.arrow", path, out, read_chunk)
                                             for old in olds], [None] * len(olds))
                if progress and not resumed:
                    progress((task.hi - task.lo) * per_deal)
            else:
                todo.append((index, task))
        if resumed:
            resumed(len(tasks) - len(todo), len(tasks), sum(t.hi - t.lo for t in tasks) * per_deal
                    - sum(t.hi - t.lo for _, t in todo) * per_deal)
        order = {task: index for index, task in todo}
        pending = [task for _, task in todo]
        with executors.pool(workers, scheduler) as pool:
            for finished, (task, (part, played, seconds)) in enumerate(
                    pool.map(play_chunk, pending, spec, files, keep_rows, lay), 1):
                engine_s += seconds
                if writer is not None:  # the rows' chunk files first: a chunk's statistics file says it is whole
                    _made(chunks)
                    olds = _replays_of(replay_of, task)  # `played` comes in the same order
                    writer.add(order[task], olds, [arrays for _, _, arrays in played],
                               [chunks / f"{old.name}.arrow" for old in olds])
                    writer.flush()
                if finished < len(pending):  # the last one goes straight into stats.parquet
                    stats_file.write_chunk(part, _made(chunks) / f"{task.name}.npy")
                total = part if total is None else total + part
                if progress:
                    progress((task.hi - task.lo) * per_deal)
        if writer is not None:
            writer.close()
    except BaseException:
        if writer is not None:
            writer.abort()  # every chunk handed over is still written; no half results file
        raise
    elapsed = time.perf_counter() - start
    played_now = sum(t.hi - t.lo for t in pending) * per_deal
    meta = {"simkit": simkit.__version__, "numpy": np.__version__, "pandas": pd.__version__,
            "pyarrow": pa.__version__, "experiment": spec.name, "game": spec.game, "seed": spec.seed,
            "hands": count, "cells": len(spec.cells()), "replays_per_deal": per_deal, "chunks": len(tasks),
            "chunk_deals": size, "match": spec.match, "seating": spec.seating, "rules": spec.rules,
            "baseline": str(spec.baseline), "question": spec.question, "rows": keep_rows,
            "executor": executors.describe(workers, scheduler),
            "played_now": played_now, "duration_s": round(elapsed, 3), "engine_ready_s": round(start - ready, 3),
            "engine_s": round(engine_s, 3),  # in the engine's calls, summed over chunks (and workers)
            "hands_per_s": round(played_now / elapsed) if played_now and elapsed > 0 else None,
            "writer_cpu_s": round(writer.cpu_s, 3) if writer is not None else 0.0,
            "machine": {"python": platform.python_version(), "system": platform.platform(),
                        "cpus": os.cpu_count()}}
    game = games.get(spec.game)
    if game.meta is not None:
        meta.update(game.meta(spec))
    kept = ("experiment", "game", "seed", "hands", "match", "seating", "rules", "baseline")
    stats_file.write(total, folder / STATS, {"run": {k: meta[k] for k in kept}})
    with atomic_path(folder / "meta.json") as tmp:
        tmp.write_text(json.dumps(meta, indent=2))
    _complete(folder)
    if chunks.exists():
        shutil.rmtree(chunks, ignore_errors=True)
    return folder / STATS


def _made(chunks: Path) -> Path:
    """The folder of a run's chunk files, made when the first is written: a run of one chunk
    needs none (nothing of it is kept before its statistics are whole)."""
    try:
        chunks.mkdir(exist_ok=True)
    except OSError as e:
        raise SimkitError(f"cannot create {chunks}: {e.strerror}") from None
    return chunks


PID = "run.pid"  # in a run's folder while a process runs it: which one (the lock is on the folder itself)
_held: dict[str, int] = {}  # folders this process holds, and how many times over


@contextmanager
def hold(out: str) -> Iterator[Path]:
    """The run folder `out`, created if need be and locked for this process (flock on the folder,
    non-blocking): two runs in one folder would write the same chunk and results files and mix two
    runs' statistics, so a second one is refused at once, naming the process that runs it. The
    lock goes when the process does, however it ends; the folder is locked rather than a file in
    it so that a finished run holds only its results. A folder made here and still empty when
    the block fails (its input refused) is removed. Reentrant within a process."""
    created = not Path(out).exists()
    folder = _folder(out)
    key = str(folder.resolve())
    if key in _held:
        _held[key] += 1
        try:
            yield folder
        finally:
            _held[key] -= 1
        return
    fd = _lock(folder, out)
    _held[key] = 1
    pid = folder / PID
    failed = True
    try:
        try:
            pid.write_text(f"{os.getpid()}\n")
        except OSError:
            pass  # only a courtesy to the process refused; the lock is what counts
        yield folder
        failed = False
    finally:
        del _held[key]
        pid.unlink(missing_ok=True)
        if failed and created:  # refused (bad input) before writing anything: no empty folder left behind
            try:
                folder.rmdir()
            except OSError:
                pass  # it holds something: kept
        os.close(fd)


def _folder(out: str) -> Path:
    """`out` as a folder that exists (made if need be), or one error line."""
    folder = Path(out)
    if folder.exists() and not folder.is_dir():
        raise SimkitError(f"--out {out} exists and is not a folder; choose another --out")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SimkitError(f"cannot create {folder}: {e.strerror}") from None
    return folder


def _lock(folder: Path, out: str) -> int:
    """An open descriptor of `folder` holding its exclusive lock. Where the file system cannot lock
    (flock unsupported), the run goes on unlocked rather than not at all."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError as e:
        raise SimkitError(f"cannot open {folder}: {e.strerror}") from None
    if fcntl is None:
        return fd
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        if e.errno not in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            return fd
        os.close(fd)
        try:
            who = f"process {int((folder / PID).read_text().split()[0])}"
        except (OSError, ValueError, IndexError):
            who = "another process"
        raise SimkitError(f"{out} is in use by {who} (another simkit run); wait for it to end, "
                          "or choose another --out") from None
    return fd


def _check_folder(folder: Path, resume: bool) -> None:
    """A fresh run needs a folder with nothing in it, and a resume one with a run in it, so that
    neither replaces what is there; the error says what the folder holds and how to go on."""
    empty = not [p for p in folder.iterdir() if p.name != PID]
    run = folder / "run.json"
    if resume and (empty or (not run.exists() and not (folder / STATS).exists())):
        raise SimkitError(f"{folder} holds no simkit run to resume ({'it is empty' if empty else 'no run.json'}); "
                          f"{'leave out --resume to start one there' if empty else 'choose another --out'}")
    if resume or empty:
        return
    try:
        complete = run.is_file() and bool(json.loads(run.read_text()).get("complete"))
    except (OSError, ValueError, AttributeError):
        complete = False
    if (complete or not run.exists()) and (folder / STATS).is_file():
        raise SimkitError(f"{folder} already holds a run (a finished one); choose another --out")
    if run.exists() or (folder / "chunks").exists():
        raise SimkitError(f"{folder} holds an unfinished run: finish it with --resume, or choose another --out")
    raise SimkitError(f"{folder} is not empty (it holds no simkit run); choose another --out, a new or empty "
                      "folder")


def _replays_of(replay_of: list[tuple[int, int]], chunk: Chunk) -> list[Task]:
    """A chunk's replays (a cell and rotation each), as the rows' tasks."""
    return [Task(ci, r, chunk.lo, chunk.hi) for ci, r in replay_of]


def _read_kept(path: Path, chunk_file: Path, out: str, read: Callable[[Path], object]):
    """A file of a kept chunk read back for a resume; one that cannot be read (cut short by a full
    disk or a crash, copied in part) is one error line saying what to delete to go on: the chunk's
    statistics file, which says the chunk is whole (without it the chunk is played again). Any
    Exception counts: reading a chunk file only parses it, so whatever fails means it is damaged."""
    try:
        return read(path)
    except Exception as e:
        why = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        what = "it" if path == chunk_file else f"{chunk_file}"
        raise SimkitError(f"{path} is damaged and cannot be read ({why}); delete {what} (or the whole folder {out}) "
                          "and run again with --resume") from None


def _same_run(folder: Path, spec: Spec, hands: int, chunk: int, keep_rows: bool) -> bool:
    """Record what this folder's chunks are chunks of; a resume must be of the same run, since a
    chunk file is named only by its deals. True if that run is already complete."""
    what = {"spec": spec_toml(spec), "hands": hands, "chunk": chunk, "rows": keep_rows}
    path = folder / "run.json"
    if path.is_file():
        try:
            before = json.loads(path.read_text())
            if not isinstance(before, dict):
                raise ValueError("not a JSON object")
        except (OSError, ValueError) as e:
            raise SimkitError(f"{path} is damaged and cannot be read ({e}); delete the folder {folder} and run "
                              "again") from None
        for key, label in (("spec", "spec"), ("hands", "--hands"), ("chunk", "chunk size"), ("rows", "--rows")):
            if before.get(key) != what[key]:
                raise SimkitError(f"{folder} holds chunks of another run (its {label} differs); finish it with the "
                                  "same spec and options, or use another --out")
        return bool(before.get("complete")) and (folder / STATS).is_file()
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(what, indent=2))
    return False


def finished_here(spec: Spec, out: str, hands: int | None = None, keep_rows: bool = False) -> bool:
    """Whether folder `out` holds this very run, finished (same spec, hands, chunks, rows and simkit):
    played again it gives the same numbers, bit for bit, so a re-run reads it back."""
    try:
        before = json.loads((Path(out) / "run.json").read_text())
        made_by = json.loads((Path(out) / "meta.json").read_text()).get("simkit")
        what = {"spec": spec_toml(spec), "hands": hands or spec.hands, "chunk": chunk_size(spec), "rows": keep_rows}
        return bool(before["complete"]) and made_by == simkit.__version__ and (Path(out) / STATS).is_file() and all(
            before.get(k) == v for k, v in what.items())
    except (OSError, ValueError, AttributeError, KeyError, TypeError):
        return False


def _complete(folder: Path) -> None:
    path = folder / "run.json"
    what = json.loads(path.read_text())
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps({**what, "complete": True}, indent=2))


def read_stats(out: str) -> st.Statistics:
    """A run's statistics."""
    path = Path(out) / STATS
    if not path.is_file():
        raise SimkitError(f"{out} holds no {STATS} (run `simkit run` first)")
    return stats_file.read(path)


def read_results(out: str) -> pd.DataFrame:
    """A run's per-hand rows (written with --rows; strategy and the text config columns as
    categoricals)."""
    path = Path(out) / RESULTS
    if not path.is_file():
        raise SimkitError(f"{out} holds no {RESULTS} (it is written with `simkit run --rows`)")
    return pd.read_parquet(path)


def copy_spec(path: str, out: str) -> None:
    """Keep the spec beside its results."""
    with atomic_path(Path(out) / "spec.toml") as tmp:
        shutil.copyfile(path, tmp)


def write_spec(spec: Spec, out: str) -> None:
    """Write a spec given as a dict beside its results, as TOML."""
    with atomic_path(Path(out) / "spec.toml") as tmp:
        tmp.write_text(spec_toml(spec), encoding="utf-8")


def kept_chunks(spec: Spec, out: str, hands: int | None = None) -> tuple[int, int]:
    """(chunks finished, chunks in all) of an unfinished run in folder `out`: what --resume keeps."""
    tasks = plan(spec, hands)
    folder = Path(out) / "chunks"
    return sum((folder / f"{task.name}.npy").exists() for task in tasks), len(tasks)

