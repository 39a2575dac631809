"""Run a spec: cells x seat rotations x chunks of hands, each chunk kept on disk as it finishes
(so an interrupted run resumes without recomputing), then one tidy results table.

A step of the experiments issue: single hands and matches, rotation, resume, atomic files. The
Dask executor and the reports come next.
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

import simkit
from experiments.spec import Cell, Spec
from simkit.errors import SimkitError
from simkit.files import atomic_path
from simkit.whos_the_ass import batch
from simkit.whos_the_ass.strategy import seats_for

CHUNK = 100_000  # hands (or matches) per chunk file: the unit of resume and, later, of Dask


def _rotations(spec: Spec, cell: Cell) -> int:
    return cell.players if spec.seating == "rotate" else 1


def _rotated(lineup: tuple[str, ...], r: int) -> list[str]:
    """Rotation r puts the strategy of seat s into seat s + r (duplicate deals: every deal is
    replayed with the lineup moved one seat on each time)."""
    n = len(lineup)
    return [lineup[(s - r) % n] for s in range(n)]


def _chunk_frame(spec: Spec, ci: int, cell: Cell, r: int, lo: int, hi: int) -> pd.DataFrame:
    """Play one chunk and return its rows: one per (hand or match, seat)."""
    labels = _rotated(cell.lineup, r)
    seats = seats_for(labels, cell.players)
    n = cell.players
    mode = spec.match["mode"]
    if mode == "single":
        res = batch.play(seats, hi - lo, spec.seed, spec.rules, first=lo)
        cols = {"hand": np.repeat(np.arange(lo, hi), n), "penalty": res.penalties.ravel().astype(np.int32),
                "out": (res.penalties == 0).ravel(), "ass_end": (res.ass_end[:, None] == np.arange(n)).ravel(),
                "tricks": np.repeat(res.tricks, n).astype(np.int16)}
    else:
        res = batch.matches(seats, hi - lo, spec.seed, spec.rules, hands=spec.match.get("hands", 0),
                            threshold=spec.match.get("threshold", 0), first=lo)
        cols = {"match": np.repeat(np.arange(lo, hi), n), "total": res.totals.ravel().astype(np.int32),
                "win": res.win_shares().ravel(), "hands": np.repeat(res.hands, n).astype(np.int32)}
    frame = pd.DataFrame({"cell": np.int32(ci), "players": np.int8(n), "rotation": np.int8(r), **cols,
                          "seat": np.tile(np.arange(n, dtype=np.int8), hi - lo),
                          "strategy": np.tile(np.array([s.label for s in seats]), hi - lo)})
    for key, value in cell.sweep:
        frame[key] = value
    return frame


def _atomic_parquet(frame: pd.DataFrame, path: Path) -> None:
    with atomic_path(path) as tmp:
        frame.to_parquet(tmp, index=False)


def run_spec(spec: Spec, out: str, resume: bool = False, hands: int | None = None,
             progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    """Run every cell of `spec` into folder `out`; returns the results table."""
    folder = Path(out)
    chunks = folder / "chunks"
    if folder.exists() and any(folder.iterdir()) and not resume:
        raise SimkitError(f"{out} already holds a run; use --resume to finish it, or another --out")
    chunks.mkdir(parents=True, exist_ok=True)
    count = hands or spec.hands
    start = time.perf_counter()
    parts, played = [], 0
    for ci, cell in enumerate(spec.cells()):
        for r in range(_rotations(spec, cell)):
            for lo in range(0, count, CHUNK):
                hi = min(count, lo + CHUNK)
                path = chunks / f"cell{ci}-rot{r}-{lo}-{hi}.parquet"
                if path.exists():
                    frame = pd.read_parquet(path)
                else:
                    frame = _chunk_frame(spec, ci, cell, r, lo, hi)
                    _atomic_parquet(frame, path)
                    played += hi - lo
                parts.append(frame)
                if progress:
                    progress(hi - lo)
    table = pd.concat(parts, ignore_index=True)
    table.insert(0, "experiment", spec.name)
    for key, value in spec.rules.items():
        table[key] = value
    _atomic_parquet(table, folder / "results.parquet")
    elapsed = time.perf_counter() - start
    meta = {"simkit": simkit.__version__, "numpy": np.__version__, "pandas": pd.__version__,
            "seed": spec.seed, "hands": count, "cells": len(spec.cells()), "match": spec.match,
            "seating": spec.seating, "rules": spec.rules, "played_now": played, "duration_s": round(elapsed, 3),
            "hands_per_s": round(played / elapsed) if played and elapsed > 0 else None,
            "machine": {"python": platform.python_version(), "system": platform.platform(),
                        "cpus": os.cpu_count()}}
    with atomic_path(folder / "meta.json") as tmp:
        tmp.write_text(json.dumps(meta, indent=2))
    return table


def copy_spec(path: str, out: str) -> None:
    """Keep the spec beside its results."""
    shutil.copyfile(path, Path(out) / "spec.toml")
