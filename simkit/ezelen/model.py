"""M2–M4, M8: the model of the human side, one row of numbers per seat.

Every number has a documented default and range. A seat's row is built in three layers, each
overriding the one before: the defaults, the model values its strategy brings along (a
registered attention profile, e.g. `watcher`), and the caller's overrides (a number for every
seat, or a list with one number per seat).
"""

from collections.abc import Mapping, Sequence

import numpy as np

from simkit.errors import SimkitError
from simkit.ezelen.rules import MAX_PLAYERS

# column of each parameter in the engine's per-seat matrix
ATTENTION = 0        # M2: scales the chance of noticing
BASE_NOTICE = 1      # M2: chance per beat of noticing with nobody copied yet
CASCADE = 2          # M2: added chance per player already copied
REACTION_MEDIAN = 3  # M3: median seconds from noticing to copying (log-normal)
REACTION_SIGMA = 4   # M3: sigma of the log of the reaction time
TEMPO_FAULT = 5      # M4: chance per beat of a tempo fault
COLUMNS = 8

# name -> (column, default, low, high, what it means)
PARAMETERS = {
    "base_notice": (BASE_NOTICE, 0.35, 0.0, 1.0, "chance per beat of noticing a signal with nobody copied yet (M2)"),
    "cascade": (CASCADE, 0.15, 0.0, 1.0, "added chance of noticing per player already copied (M2)"),
    "reaction_median": (REACTION_MEDIAN, 0.6, 1e-6, 60.0, "median seconds from noticing to copying (M3)"),
    "reaction_sigma": (REACTION_SIGMA, 0.35, 0.0, 5.0, "log-normal sigma of the reaction time (M3)"),
    "attention": (ATTENTION, 1.0, 0.0, 100.0, "multiplies the chance of noticing (M2)"),
    "tempo_fault": (TEMPO_FAULT, 0.0005, 0.0, 1.0, "chance per beat of a tempo fault (M4)"),
}
DEFAULT_MODEL = {name: p[1] for name, p in PARAMETERS.items()}
PER_SEAT = ("attention", "tempo_fault")  # always written per seat in traces, as in the spec's example


def check_values(values: Mapping[str, object], players: int | None, where: str) -> dict[str, list[float] | float]:
    """Check names and ranges: each value a number, or (when `players` is given) one number per seat."""
    out = {}
    for name, value in values.items():
        if name not in PARAMETERS:
            raise SimkitError(f"{where}: unknown model parameter {name!r} (known: {', '.join(PARAMETERS)})")
        _, _, low, high, _ = PARAMETERS[name]
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


def model_matrix(bundled: Sequence[Mapping[str, float]], overrides: Mapping[str, object] | None = None
                 ) -> np.ndarray:
    """The engine's per-seat matrix (MAX_PLAYERS x COLUMNS): defaults, then each seat's bundled
    values (its strategy's profile), then `overrides` (a number, or one per seat)."""
    n = len(bundled)
    overrides = check_values(overrides or {}, n, "model")
    matrix = np.zeros((MAX_PLAYERS, COLUMNS), dtype=np.float64)
    for s in range(n):
        row = {**DEFAULT_MODEL, **bundled[s]}
        for name, value in overrides.items():
            row[name] = value[s] if isinstance(value, list) else value
        for name, value in row.items():
            matrix[s, PARAMETERS[name][0]] = value
    return matrix


def model_record(matrix: np.ndarray, players: int) -> dict:
    """The trace's `model` entry: a number where every seat agrees, else one per seat (M8)."""
    record = {}
    for name, (column, *_) in PARAMETERS.items():
        values = [float(matrix[s, column]) for s in range(players)]
        same = all(v == values[0] for v in values)
        record[name] = values if name in PER_SEAT or not same else values[0]
    return record
