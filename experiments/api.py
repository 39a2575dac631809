"""Experiments from Python (a notebook): `run(spec)` does what `simkit run` does and returns the
results table."""

import tempfile
from pathlib import Path

import pandas as pd

from experiments.runner import copy_spec, run_spec, write_spec
from experiments.spec import Spec, load_spec, parse_spec_dict
from simkit.plugins import load_strategy_file


def as_spec(spec: Spec | dict | str | Path) -> Spec:
    """A spec given as a Spec, a dict (the TOML file's content) or the path of a TOML file."""
    if isinstance(spec, Spec):
        return spec
    if isinstance(spec, dict):
        return parse_spec_dict(spec)
    return load_spec(str(spec))


def run(spec: Spec | dict | str | Path, out: str | Path | None = None, *, hands: int | None = None,
        resume: bool = False, workers: int | None = None, scheduler: str | None = None,
        strategy_files: tuple[str, ...] = (), report: bool = True) -> pd.DataFrame:
    """Run an experiment and return its tidy results table (one row per hand or match and seat).

    With `out`, the run's folder is kept as `simkit run` leaves it (results.parquet, spec.toml,
    meta.json and, with `report`, the report); without, it runs in a temporary folder that is
    removed afterwards.
    """
    for path in strategy_files:
        load_strategy_file(path)
    parsed = as_spec(spec)
    if out is None:
        with tempfile.TemporaryDirectory(prefix="simkit-") as tmp:
            return run_spec(parsed, str(Path(tmp) / "run"), hands=hands, workers=workers, scheduler=scheduler,
                            strategy_files=strategy_files)
    table = run_spec(parsed, str(out), resume=resume, hands=hands, workers=workers, scheduler=scheduler,
                     strategy_files=strategy_files)
    if isinstance(spec, (str, Path)):
        copy_spec(str(spec), str(out))
    else:
        write_spec(parsed, str(out))
    if report:
        from reports.report import make_report

        make_report(str(out), parsed.baseline)
    return table
