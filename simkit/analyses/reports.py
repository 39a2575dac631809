"""`simkit report DIR`: the kind of run a folder holds, found by the record that kind writes there
(a grading's grading.json, a tuning's tune.json beside its race, a field's field.json, an
experiment's stats.parquet), and that kind's report, written again from the folder alone."""

from pathlib import Path

from simkit.core.errors import SimkitError


def kind_of(folder: Path) -> str:
    """The kind of run whose record `folder` holds: "grading", "tuning", "field" or "experiment"."""
    from simkit.analyses.field.record import is_field
    from simkit.analyses.grading.record import is_grading
    from simkit.analyses.tune.record import is_tuning
    from simkit.experiments.report.write import is_experiment

    for kind, holds in (("grading", is_grading), ("tuning", is_tuning), ("field", is_field),
                        ("experiment", is_experiment)):
        if holds(folder):
            return kind
    raise SimkitError(f"{folder} holds no stats.parquet (run `simkit run` first), nor the record of a tuning, "
                      "a field or a grading")


def make_report(folder: str, baseline: str | None = None) -> Path:
    """Write the report of the run in `folder` (report.md, report.html and its figures); returns
    the HTML's path. `baseline`: an experiment's paired differences to another of its strategies."""
    out = Path(folder)
    if not out.is_dir():
        raise SimkitError(f"{folder} is not a folder (give one that `simkit run`, `tune`, `field` or `grade` wrote)")
    kind = kind_of(out)
    if baseline is not None and kind != "experiment":
        raise SimkitError(f"--baseline applies to an experiment's report; {folder} holds a {kind}")
    if kind == "grading":
        from simkit.analyses.grading.report import make_grading_report

        return make_grading_report(folder)
    if kind == "tuning":
        from simkit.analyses.tune.report import make_tuning_report

        return make_tuning_report(folder)
    if kind == "field":  # the analysis redone from the stored payoff table, then its report
        from simkit.analyses.field.analysis import analyse
        from simkit.analyses.field.report import make_field_report

        analyse(out)
        return make_field_report(folder)
    from simkit.experiments.report import make_report as experiment_report

    return experiment_report(folder, baseline)
