"""Experiments from Python (a notebook): `run(spec)` does what `simkit run` does and returns the
run's results: its statistics, and its per-hand rows when asked for."""

import tempfile
from pathlib import Path

from simkit.experiments.runner import Results, copy_spec, run_spec, write_spec
from simkit.experiments.spec import Spec, load_spec, parse_spec_dict
from simkit.strategies.plugins import load_strategy_file


def as_spec(spec: Spec | dict | str | Path) -> Spec:
    """A spec given as a Spec, a dict (the TOML file's content) or the path of a TOML file."""
    if isinstance(spec, Spec):
        return spec
    if isinstance(spec, dict):
        return parse_spec_dict(spec)
    return load_spec(str(spec))


def run(spec: Spec | dict | str | Path, out: str | Path | None = None, *, hands: int | None = None,
        resume: bool = False, workers: int | None = None, scheduler: str | None = None,
        strategy_files: tuple[str, ...] = (), report: bool = True, rows: bool = False) -> Results:
    """Run an experiment; returns its Results: `.stats` (the exact statistics every table of the
    report comes from; `reports.summary(results)`) and, with `rows`, `.rows`, the tidy per-hand
    table (one row per hand or match and seat) as a pandas DataFrame.

    With `out`, the run's folder is kept as `simkit run` leaves it (stats.parquet, results.parquet
    with `rows`, spec.toml, meta.json and, with `report`, the report); without, it runs in a
    temporary folder that is removed afterwards.
    """
    for path in strategy_files:
        load_strategy_file(path)
    parsed = as_spec(spec)
    if out is None:
        with tempfile.TemporaryDirectory(prefix="simkit-") as tmp:
            done = run_spec(parsed, str(Path(tmp) / "run"), hands=hands, workers=workers, scheduler=scheduler,
                            strategy_files=strategy_files, keep_rows=rows)
            done.folder = None
            return done
    done = run_spec(parsed, str(out), resume=resume, hands=hands, workers=workers, scheduler=scheduler,
                    strategy_files=strategy_files, keep_rows=rows)
    if isinstance(spec, (str, Path)):
        copy_spec(str(spec), str(out))
    else:
        write_spec(parsed, str(out))
    if report:
        from simkit.experiments.report import make_report

        make_report(str(out), str(parsed.baseline))
    return done
