"""`simkit report DIR`: the kind of run a folder holds, found by the record that kind writes there
(a grading's grading.json, a tuning's tune.json beside its race, a field's field.json, an
experiment's stats.parquet), and that kind's report, written again from the folder alone."""

from pathlib import Path

from simkit.core.errors import SimkitError


def make_report(folder: str, baseline: str | None = None) -> Path:
    """Write the report of the run in `folder` (report.md, report.html and its figures); returns
    the HTML's path. `baseline`: an experiment's paired differences to another of its strategies."""
    out = Path(folder)
    if not out.is_dir():
        raise SimkitError(f"{folder} is not a folder (give one that `simkit run`, `tune`, `field` or `grade` wrote)")
    from simkit.analyses.grading.record import is_grading

    if is_grading(out):
        from simkit.analyses.grading.report import make_grading_report

        return make_grading_report(folder)
    from simkit.analyses.tune.report import is_tuning, make_tuning_report

    if is_tuning(out):
        return make_tuning_report(folder)
    from simkit.analyses.field.report import is_field, make_field_report

    if is_field(out):  # the analysis redone from the stored payoff table, then its report
        from simkit.analyses.field.analysis import analyse

        analyse(out)
        return make_field_report(folder)
    from simkit.experiments.report import make_report as experiment_report

    return experiment_report(folder, baseline)
