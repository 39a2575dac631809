"""Experiments from Python (a notebook): `run(spec)` does what `simkit run` does (the command
calls it) and returns the run's results: its statistics, and its per-hand rows when asked for."""

import tempfile
from collections.abc import Callable
from pathlib import Path

from simkit.experiments.runner import Results, copy_spec, hold, run_spec, write_spec
from simkit.experiments.spec import Spec, load_spec, parse_spec_dict
from simkit.strategies.plugins import load_strategy_files


def as_spec(spec: Spec | dict | str | Path) -> Spec:
    """A spec given as a Spec, a dict (the TOML file's content) or the path of a TOML file."""
    if isinstance(spec, Spec):
        return spec
    if isinstance(spec, dict):
        return parse_spec_dict(spec)
    return load_spec(str(spec))


def run(spec: Spec | dict | str | Path, out: str | Path | None = None, *, hands: int | None = None,
        resume: bool = False, workers: int | None = None, scheduler: str | None = None,
        strategy_files: tuple[str, ...] = (), report: bool = True, rows: bool = False,
        progress: Callable[[int], None] | None = None,
        resumed: Callable[[int, int, int], None] | None = None) -> Results:
    """Run an experiment; returns its Results: `.stats` (the exact statistics every table of the
    report comes from; `report.summary(results)`) and, with `rows`, `.rows`, the tidy per-hand
    table (one row per hand or match and seat) as a pandas DataFrame.

    With `out`, the run's folder is kept as `simkit run` leaves it (stats.parquet, results.parquet
    with `rows`, spec.toml, meta.json and, with `report`, the report), held by this process until
    its report is written; without, it runs in a temporary folder that is removed afterwards.
    `progress(k)`: k more hands played; `resumed(chunks done, chunks in all, hands done)`: told
    once before a resumed run plays on (simkit.experiments.runner.write_results).
    """
    load_strategy_files(strategy_files)
    parsed = as_spec(spec)
    if out is None:
        with tempfile.TemporaryDirectory(prefix="simkit-") as tmp:
            done = run_spec(parsed, str(Path(tmp) / "run"), hands=hands, progress=progress, workers=workers,
                            scheduler=scheduler, strategy_files=strategy_files, keep_rows=rows)
            done.folder = None
            return done
    with hold(str(out)):  # the folder is this run's until its report is written
        done = run_spec(parsed, str(out), resume=resume, hands=hands, progress=progress, workers=workers,
                        scheduler=scheduler, strategy_files=strategy_files, keep_rows=rows, resumed=resumed)
        if isinstance(spec, (str, Path)):
            copy_spec(str(spec), str(out))
        else:
            write_spec(parsed, str(out))
        if report:
            from simkit.experiments.report import make_report

            make_report(str(out), str(parsed.baseline))
    return done
