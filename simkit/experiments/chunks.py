"""The per-hand rows of one replay (`simkit run --rows`): a cell, a seat rotation and a range of
hands (or matches), the engine's arrays made into the columns of the results table. Pure
functions of their task, so they give the same table wherever the hands were played."""

from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from simkit import games
from simkit.experiments.spec import Spec


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


def rotated(lineup: tuple, r: int) -> list:
    """Rotation r puts the strategy of seat s into seat s + r (duplicate deals: every deal is
    replayed with the lineup moved one seat on each time)."""
    n = len(lineup)
    return [lineup[(s - r) % n] for s in range(n)]


def constant(value: str | float | list, rows: int) -> pa.Array:
    """A column with one value: text as a dictionary of one entry, cheap to hold and to write;
    numbers as numbers."""
    if isinstance(value, (list, tuple)):  # a list-valued rule option (Eigenwijs's egg_cards): as its text
        value = ",".join(map(str, value))
    if isinstance(value, str):
        return pa.DictionaryArray.from_arrays(np.zeros(rows, np.int8), [value], safe=False)  # index 0: valid
    return pa.array(np.full(rows, value))


IDS = ("hand", "round", "match")  # columns that number the deals (a game may measure them itself)


def measured(task: Task, played: dict, spec: Spec) -> pa.Table:
    """The measured columns of a chunk, a row per (deal, seat): what a chunk file keeps."""
    return games.get(spec.game).measured(played, spec.cells()[task.cell].players, task.lo)


def rows(task: Task, measured: pa.Table, spec: Spec, labels: tuple[str, ...]) -> pa.Table:
    """A chunk's rows of the results table: its config columns, then what was measured.
    `labels` is the run's list of strategy labels, so every chunk's strategy column shares one
    dictionary."""
    cell = spec.cells()[task.cell]
    game = games.get(spec.game)
    n, size = cell.players, len(measured)
    count = size // n
    codes = [labels.index(label) for label in rotated(tuple(seat_labels(spec, cell)), task.rotation)]
    columns = {"cell": np.full(size, task.cell, np.int16), "players": np.full(size, n, np.int8),
               "rotation": np.full(size, task.rotation, np.int8)}
    ids = [name for name in measured.column_names if name in IDS]
    if not ids:
        key = game.deal if spec.match["mode"] == "single" else "match"
        columns[key] = np.repeat(np.arange(task.lo, task.hi, dtype=np.int64), n)
    table = pa.table(columns)
    for name in ids:
        table = table.append_column(name, measured.column(name))
    table = table.append_column("seat", pa.array(np.tile(np.arange(n, dtype=np.int8), count)))
    table = table.append_column("strategy", pa.DictionaryArray.from_arrays(  # codes index labels: no check
        np.tile(np.array(codes, np.int16 if len(labels) <= 1 << 15 else np.int32), count), list(labels), safe=False))
    for name, value in cell.sweep:
        table = table.append_column(name, pa.array(np.full(size, value)))
    for name, value in cell.rules:  # a swept rule option: its value in this cell (the others are config columns)
        table = table.append_column(name, constant(value, size))
    if game.seat_config is not None:
        seats = game.seats_for(rotated(cell.lineup, task.rotation), n)
        for name, per_seat in game.seat_config(spec, cell, seats).items():
            table = table.append_column(name, pa.array(np.tile(np.array(per_seat), count)))
    for name in measured.column_names:
        if name not in IDS:
            table = table.append_column(name, measured.column(name))
    return table


def seat_labels(spec: Spec, cell) -> list[str]:
    """The strategy label of each seat of a cell, in the lineup's order (rotation 0): a canonical
    spec's text (simkit.strategies.registry.canonical)."""
    return [str(s) for s in cell.lineup]


def strategy_labels(spec: Spec) -> tuple[str, ...]:
    """Every strategy label of the run, in order of first appearance (the shared dictionary)."""
    labels: dict[str, None] = {}  # ordered and unique: a dictionary with a repeated entry is written as text
    for cell in spec.cells():
        labels.update(dict.fromkeys(seat_labels(spec, cell)))
    return tuple(labels)
