"""An experiment's report, written from the page parts of simkit.reports: its tables from the
run's statistics (`summary`), its figures (`figures_for`), its answer in one sentence (`answer`)
and the whole report in the run's folder (`make_report`)."""

from simkit.experiments.report.answer import answer
from simkit.experiments.report.summary import figures_for, summary
from simkit.experiments.report.write import make_report

__all__ = ["answer", "figures_for", "make_report", "summary"]
