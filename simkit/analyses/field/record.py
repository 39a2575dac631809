"""A field's folder: the files it holds (field.json, the record; payoffs.parquet; bootstrap.npz;
analysis.json; state.npz while the profiles play) and its record, written whole and read back."""

import json
from pathlib import Path

from simkit.core.files import atomic_path
from simkit.core.records import finished

META, PAYOFFS, BOOT, STATE = "field.json", "payoffs.parquet", "bootstrap.npz", "state.npz"


def write_meta(folder: Path, meta: dict) -> None:
    with atomic_path(folder / META) as tmp:
        tmp.write_text(json.dumps(meta, indent=2, default=str))


def read_meta(folder: str | Path) -> dict:
    """A finished field's record; one error line if the folder holds none."""
    return finished(folder, META, "field", "field", "simkit field ...")


def is_field(folder: Path) -> bool:
    """Whether `folder` holds a field (its record)."""
    return (Path(folder) / META).is_file()
