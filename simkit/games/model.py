"""A model of the human side of a game (Ezelen's M-rules, Eigenwijs's H-rules): named numbers,
each with a default and a range, one row per seat.

A seat's row is built in three layers, each overriding the one before: the defaults, the model
values its strategy brings along (a registered profile), and the caller's overrides (a number for
every seat, or a list with one number per seat). Every value in force is written into results
and traces.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from simkit.core.errors import SimkitError, unknown


@dataclass(frozen=True)
class Model:
    """`parameters`: name -> (column, default, low, high, what it means); `per_seat`: the names a
    trace always writes per seat."""

    parameters: dict
    columns: int
    max_players: int
    per_seat: tuple[str, ...] = ()

    @property
    def defaults(self) -> dict[str, float]:
        return {name: p[1] for name, p in self.parameters.items()}

    def check_values(self, values: Mapping[str, object], players: int | None, where: str
                     ) -> dict[str, list[float] | float]:
        """Check names and ranges: each value a number, or (when `players` is given) one number per seat."""
        out = {}
        for name, value in values.items():
            if name not in self.parameters:
                raise SimkitError(f"{where}: {unknown('model parameter', name, self.parameters)}")
            _, _, low, high, _ = self.parameters[name]
            per_seat = isinstance(value, (list, tuple, np.ndarray))
            if per_seat and players is None:
                raise SimkitError(f"{where}: model parameter {name} needs one number")
            numbers = list(value) if per_seat else [value]
            if per_seat and len(numbers) != players:
                raise SimkitError(f"{where}: model parameter {name} has {len(numbers)} values for {players} players")
            for v in numbers:
                if isinstance(v, bool) or not isinstance(v, (int, float, np.number)) or not low <= v <= high:
                    raise SimkitError(f"{where}: model parameter {name}={v!r} is outside {low:g}..{high:g}")
            out[name] = [float(v) for v in numbers] if per_seat else float(value)
        return out

    def matrix(self, bundled: Sequence[Mapping[str, float]], overrides: Mapping[str, object] | None = None
               ) -> np.ndarray:
        """The engine's per-seat matrix (max_players x columns): defaults, then each seat's bundled
        values (its strategy's profile), then `overrides` (a number, or one per seat)."""
        n = len(bundled)
        overrides = self.check_values(overrides or {}, n, "model")
        matrix = np.zeros((self.max_players, self.columns), dtype=np.float64)
        for s in range(n):
            row = {**self.defaults, **bundled[s]}
            for name, value in overrides.items():
                row[name] = value[s] if isinstance(value, list) else value
            for name, value in row.items():
                matrix[s, self.parameters[name][0]] = value
        return matrix

    def cell_overrides(self, spec, cell, seats: list) -> dict:
        """The model overrides of an experiment cell's seats: the spec's `model` table (a number for
        every seat, or one per seat), then swept model values (`strategy.slip`) on that strategy's
        seats."""
        n = len(seats)
        overrides = {k: (list(v) if isinstance(v, list) else [v] * n) for k, v in spec.model.items()}
        for key, value in cell.sweep:
            name, param = key.split(".", 1)
            if param in self.parameters:
                row = overrides.setdefault(param, [None] * n)
                for s, seat in enumerate(seats):
                    if seat.label.split("(", 1)[0] == name:
                        row[s] = value
        if not overrides:
            return {}
        base = self.matrix([dict(seat.model) for seat in seats])  # defaults and profiles: what None keeps
        return {k: [base[s, self.parameters[k][0]] if v is None else v for s, v in enumerate(row)]
                for k, row in overrides.items()}

    def seat_config(self, spec, cell, seats: list) -> dict[str, list[float]]:
        """Every model value of every seat of an experiment cell, written beside its results."""
        matrix = self.matrix([dict(seat.model) for seat in seats], self.cell_overrides(spec, cell, seats))
        return {name: [float(matrix[s, p[0]]) for s in range(len(seats))] for name, p in self.parameters.items()}

    def record(self, matrix: np.ndarray, players: int) -> dict:
        """A trace's `model` entry: a number where every seat agrees, else one per seat."""
        record = {}
        for name, (column, *_) in self.parameters.items():
            values = [float(matrix[s, column]) for s in range(players)]
            same = all(v == values[0] for v in values)
            record[name] = values if name in self.per_seat or not same else values[0]
        return record
