"""A tuning's folder: the files it holds (tune.json, the record; race.parquet, every round's
estimates; candidates.parquet; state.npz while it runs) and the candidates as written there."""

import json
from pathlib import Path

import pandas as pd

from simkit.analyses.tune.space import Candidate
from simkit.core.files import atomic_path

META, RACE, STATE, CANDIDATES = "tune.json", "race.parquet", "state.npz", "candidates.parquet"
BEFORE = "state.before.npz"  # the state of the round before, while the next one's is written
RACE_COLUMNS = ["round", "iteration", "candidate", "deals", "mean", "half", "diff", "diff_half", "p", "dropped",
                "leader"]


def write_candidates(folder: Path, cands: list[Candidate]) -> None:
    """The candidates, in the race's order: each one's label and its setting (JSON)."""
    with atomic_path(folder / CANDIDATES) as tmp:
        pd.DataFrame({"label": [c.label for c in cands],
                      "setting": [json.dumps(dict(c.setting)) for c in cands]}).to_parquet(tmp, index=False)


def read_candidates(folder: Path) -> list[dict]:
    """The candidates `_write_candidates` wrote: a label and a setting each."""
    table = pd.read_parquet(Path(folder) / CANDIDATES)
    return [{"label": label, "setting": json.loads(setting)}
            for label, setting in zip(table["label"], table["setting"])]


def is_tuning(folder: Path) -> bool:
    """Whether `folder` holds a tuning (its record beside its race)."""
    return (Path(folder) / META).is_file() and (Path(folder) / RACE).is_file()
