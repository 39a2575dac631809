"""A grading's folder: the files it holds (grading.json, the record; moves.parquet, every graded
move; hands.parquet; a trace file per graded strategy) and reading them back."""

import json
from pathlib import Path

import pandas as pd

from simkit.analyses.grading.spec import Grading
from simkit.core.errors import SimkitError

MOVES, HANDS, META = "moves.parquet", "hands.parquet", "grading.json"  # what marks a grading folder
MOVE_COLUMNS = ["strategy", "hand", "trick", "play", "point", "move", "best", "cost", "ci95", "actions", "models"]
HAND_COLUMNS = ["strategy", "hand", "penalty", "moves", "lost"]


def is_grading(folder: str | Path) -> bool:
    """Whether `folder` holds a grading run (its report is the grading report)."""
    return (Path(folder) / META).is_file()


def read_grading(folder: str | Path) -> tuple[Grading, pd.DataFrame, pd.DataFrame, dict]:
    """A grading folder's spec, graded moves, hands and metadata; a damaged one is one error."""
    folder = Path(folder)
    try:
        meta = json.loads((folder / META).read_text())
        spec = Grading(**{**meta["spec"], "graded": tuple(meta["spec"]["graded"])})
        return spec, pd.read_parquet(folder / MOVES), pd.read_parquet(folder / HANDS), meta
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise SimkitError(f"{folder} is not a whole grading run ({type(e).__name__}: {e}); run `simkit grade` "
                          "again") from None
