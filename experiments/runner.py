"""Run a spec: cells x seat rotations x chunks of hands, each chunk kept on disk as it finishes
(so an interrupted run resumes without recomputing), then one tidy results table.

Chunk files are Arrow IPC (a memory copy to write and read back); results.parquet is fed as
chunks finish (experiments/results.py). Both are written beside and renamed into place.
"""

import json
import os
import platform
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa

import simkit
from experiments import executors, games
from experiments.chunks import Task, measured, play_chunk, rows, strategy_labels
from experiments.results import ResultsWriter, read_chunk
from experiments.spec import Spec, spec_toml
from simkit.errors import SimkitError
from simkit.files import atomic_path

CHUNK = 100_000  # hands (or matches) per chunk: the unit of resume, progress and Dask work
RESULTS = "results.parquet"


def plan(spec: Spec, hands: int | None = None, chunk: int | None = None) -> list[Task]:
    """Every chunk of the run, in the order of the results table."""
    count, size = hands or spec.hands, chunk or CHUNK
    tasks = []
    for ci, cell in enumerate(spec.cells()):
        for r in range(cell.rotations(spec.seating)):
            tasks += [Task(ci, r, lo, min(count, lo + size)) for lo in range(0, count, size)]
    return tasks


def run_spec(spec: Spec, out: str, resume: bool = False, hands: int | None = None,
             progress: Callable[[int], None] | None = None, workers: int | None = None,
             scheduler: str | None = None, strategy_files: tuple[str, ...] = (), chunk: int | None = None
             ) -> pd.DataFrame:
    """Run every cell of `spec` into folder `out`; returns the results table.

    Chunks run in this process by default, or on Dask with `workers` (a local cluster of that many
    processes) or `scheduler` (an existing cluster's address); the table is the same either way.
    """
    write_results(spec, out, resume, hands, progress, workers, scheduler, strategy_files, chunk)
    return read_results(out)


def write_results(spec: Spec, out: str, resume: bool = False, hands: int | None = None,
                  progress: Callable[[int], None] | None = None, workers: int | None = None,
                  scheduler: str | None = None, strategy_files: tuple[str, ...] = (), chunk: int | None = None
                  ) -> Path:
    """The runner's work without reading the table back: chunks, results.parquet, meta.json.
    `chunk` (default CHUNK) is the hands (or matches) per chunk; it never changes the results."""
    folder = Path(out)
    chunks = folder / "chunks"
    if folder.exists() and any(folder.iterdir()) and not resume:
        raise SimkitError(f"{out} already holds a run; use --resume to finish it, or another --out")
    if workers is not None and workers < 1:
        raise SimkitError(f"--workers must be at least 1, got {workers}")
    try:
        chunks.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SimkitError(f"cannot create {chunks}: {e.strerror}") from None
    _same_run(folder, spec, hands or spec.hands, chunk or CHUNK)
    tasks = plan(spec, hands, chunk)
    labels = strategy_labels(spec)
    files = tuple(str(Path(f).resolve()) for f in strategy_files)
    ready = time.perf_counter()
    if workers is None and scheduler is None:  # compile the engine (or load it) outside the timing
        play_chunk(Task(0, 0, 0, 1), spec, files)
    start = time.perf_counter()
    writer = ResultsWriter(folder / RESULTS, lambda task, played: measured(task, played, spec),
                           lambda task, chunk: rows(task, chunk, spec, labels),
                           {"experiment": spec.name, **spec.rules})
    try:
        todo = []
        for index, task in enumerate(tasks):
            path = chunks / f"{task.name}.arrow"
            if path.exists():
                writer.add(index, task, read_chunk(path), None)
                if progress:
                    progress(task.hi - task.lo)
            else:
                todo.append((index, task))
        order = {task: index for index, task in todo}
        pending = [task for _, task in todo]
        if workers is None and scheduler is None:
            done = executors.in_process(play_chunk, pending, spec, files)
        else:
            done = executors.on_dask(play_chunk, pending, spec, files, workers=workers, scheduler=scheduler)
        for task, played in done:
            writer.add(order[task], task, played, chunks / f"{task.name}.arrow")
            if progress:
                progress(task.hi - task.lo)
        writer.close()
    except BaseException:
        writer.abort()  # every chunk handed over is still written; no half results file
        raise
    elapsed = time.perf_counter() - start
    played = sum(t.hi - t.lo for t in pending)
    meta = {"simkit": simkit.__version__, "numpy": np.__version__, "pandas": pd.__version__,
            "pyarrow": pa.__version__, "experiment": spec.name, "game": spec.game, "seed": spec.seed,
            "hands": hands or spec.hands, "cells": len(spec.cells()), "chunks": len(tasks), "match": spec.match,
            "seating": spec.seating, "rules": spec.rules, "baseline": spec.baseline,
            "executor": "in-process" if workers is None and scheduler is None else
            (f"dask {scheduler}" if scheduler else f"dask local cluster, {workers} workers"),
            "played_now": played, "duration_s": round(elapsed, 3), "engine_ready_s": round(start - ready, 3),
            "hands_per_s": round(played / elapsed) if played and elapsed > 0 else None,
            "writer_cpu_s": round(writer.cpu_s, 3),
            "machine": {"python": platform.python_version(), "system": platform.platform(),
                        "cpus": os.cpu_count()}}
    game = games.get(spec.game)
    if game.meta is not None:
        meta.update(game.meta(spec))
    with atomic_path(folder / "meta.json") as tmp:
        tmp.write_text(json.dumps(meta, indent=2))
    return folder / RESULTS


def _same_run(folder: Path, spec: Spec, hands: int, chunk: int) -> None:
    """Record what this folder's chunks are chunks of; a resume must be of the same run, since a
    chunk file is named only by its cell, rotation and hands."""
    what = {"spec": spec_toml(spec), "hands": hands, "chunk": chunk}
    path = folder / "run.json"
    if path.is_file():
        before = json.loads(path.read_text())
        for key, label in (("spec", "spec"), ("hands", "--hands"), ("chunk", "chunk size")):
            if before.get(key) != what[key]:
                raise SimkitError(f"{folder} holds chunks of another run (its {label} differs); finish it with the "
                                  "same spec and options, or use another --out")
        return
    with atomic_path(path) as tmp:
        tmp.write_text(json.dumps(what, indent=2))


def read_results(out: str) -> pd.DataFrame:
    """A run's results table (strategy and the text config columns as categoricals)."""
    path = Path(out) / RESULTS
    if not path.is_file():
        raise SimkitError(f"{out} holds no {RESULTS} (run `simkit run` first)")
    return pd.read_parquet(path)


def copy_spec(path: str, out: str) -> None:
    """Keep the spec beside its results."""
    with atomic_path(Path(out) / "spec.toml") as tmp:
        shutil.copyfile(path, tmp)


def write_spec(spec: Spec, out: str) -> None:
    """Write a spec given as a dict beside its results, as TOML."""
    with atomic_path(Path(out) / "spec.toml") as tmp:
        tmp.write_text(spec_toml(spec), encoding="utf-8")
