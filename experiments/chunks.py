"""One chunk of an experiment: a cell, a seat rotation and a range of hands (or matches), played
into the columns of the results table. A pure function of its task, so it gives the same table
wherever it runs: in this process, or on a Dask worker (which imports it from the package)."""

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from experiments.spec import Spec
from simkit.plugins import load_strategy_file
from simkit.whos_the_ass import batch
from simkit.whos_the_ass.strategy import seats_for


@dataclass(frozen=True)
class Task:
    """Hands (or matches) lo..hi-1 of cell `cell` with the lineup rotated `rotation` seats on."""

    cell: int
    rotation: int
    lo: int
    hi: int

    @property
    def name(self) -> str:
        return f"cell{self.cell}-rot{self.rotation}-{self.lo}-{self.hi}"


def rotated(lineup: tuple[str, ...], r: int) -> list[str]:
    """Rotation r puts the strategy of seat s into seat s + r (duplicate deals: every deal is
    replayed with the lineup moved one seat on each time)."""
    n = len(lineup)
    return [lineup[(s - r) % n] for s in range(n)]


def play_chunk(task: Task, spec: Spec, labels: tuple[str, ...], strategy_files: tuple[str, ...] = ()) -> pa.Table:
    """Play one chunk; one row per (hand or match, seat). `labels` is the run's list of strategy
    labels, so that every chunk's strategy column shares one dictionary."""
    for path in strategy_files:  # a Dask worker has not seen the user's files yet
        load_strategy_file(path)
    cell = spec.cells()[task.cell]
    seats = seats_for(rotated(cell.lineup, task.rotation), cell.players)
    n, count, lo = cell.players, task.hi - task.lo, task.lo
    if spec.match["mode"] == "single":
        res = batch.play(seats, count, spec.seed, spec.rules, first=lo)
        measured = {"hand": np.repeat(np.arange(lo, task.hi, dtype=np.int64), n),
                    "penalty": res.penalties.ravel(),
                    "ass_end": (res.ass_end[:, None] == np.arange(n)).ravel(),
                    "tricks": np.repeat(res.tricks, n)}
    else:
        res = batch.matches(seats, count, spec.seed, spec.rules, hands=spec.match.get("hands", 0),
                            threshold=spec.match.get("threshold", 0), first=lo)
        measured = {"match": np.repeat(np.arange(lo, task.hi, dtype=np.int64), n),
                    "total": res.totals.ravel().astype(np.int32),
                    "win": res.win_shares().ravel(),
                    "hands": np.repeat(res.hands.astype(np.int32), n)}
    rows = count * n
    codes = np.array([labels.index(s.label) for s in seats], dtype=np.int16)
    columns = {"cell": np.full(rows, task.cell, np.int16), "players": np.full(rows, n, np.int8),
               "rotation": np.full(rows, task.rotation, np.int8)}
    key = next(iter(measured))
    columns[key] = measured.pop(key)
    columns["seat"] = np.tile(np.arange(n, dtype=np.int8), count)
    table = pa.table(columns)
    table = table.append_column("strategy", pa.DictionaryArray.from_arrays(np.tile(codes, count), list(labels)))
    for name, value in cell.sweep:
        table = table.append_column(name, pa.array(np.full(rows, value)))
    for name, values in measured.items():
        table = table.append_column(name, pa.array(values))
    return table


def strategy_labels(spec: Spec) -> tuple[str, ...]:
    """Every strategy label of the run, in order of first appearance (the shared dictionary)."""
    labels: list[str] = []
    for cell in spec.cells():
        for s in seats_for(list(cell.lineup), cell.players):
            if s.label not in labels:
                labels.append(s.label)
    return tuple(labels)
