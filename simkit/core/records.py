"""A long run's record in its folder (tune.json, field.json): started in an empty folder, read
back to resume, read once finished; every problem one error line naming the folder."""

import json
from pathlib import Path

from simkit.core.errors import SimkitError


def resumed(folder: Path, name: str, kind: str, noun: str, again: str, resume: bool) -> dict | None:
    """With `resume`, the record `name` of a `kind` run in `folder`; without, None, once the
    folder is known to be empty (a run starts its record there). `noun` names the run ("tuning",
    "field"), `again` what to do when the record is damaged ("tune again")."""
    path = folder / name
    if resume:
        if not path.is_file():
            raise SimkitError(f"{folder} holds no {noun} to resume (no {name}); choose another --out")
        try:
            meta = json.loads(path.read_text())
            if not isinstance(meta, dict) or meta.get("kind") != kind:
                raise ValueError(f"not a {noun}'s record")
        except (OSError, ValueError) as e:
            raise SimkitError(f"{path} is damaged and cannot be read ({e}); delete the folder and {again}") from None
        return meta
    if any(p.name != "run.pid" for p in folder.iterdir()):
        what = "other files"
        if path.exists():
            what = f"a finished {noun}" if _complete(path) else f"a {noun} (finish it with --resume)"
        raise SimkitError(f"{folder} is not empty: it holds {what}; choose another --out")
    return None


def finished(folder: str | Path, name: str, kind: str, noun: str, command: str) -> dict:
    """The record of a finished `kind` run in `folder`; one error line if there is none (`command`:
    the one that finishes it)."""
    path = Path(folder) / name
    try:
        meta = json.loads(path.read_text())
    except (OSError, ValueError):
        raise SimkitError(f"{folder} holds no finished {noun} ({name} is missing or damaged)") from None
    if not isinstance(meta, dict) or meta.get("kind") != kind or not meta.get("complete"):
        raise SimkitError(f"{folder} holds no finished {noun} (finish it with {command} --resume)")
    return meta


def _complete(path: Path) -> bool:
    try:
        meta = json.loads(path.read_text())
    except (OSError, ValueError):
        return False
    return isinstance(meta, dict) and bool(meta.get("complete"))
