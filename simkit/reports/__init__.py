"""Statistics and reports over results tables. From Python: `summary(table)` (the tables),
`figures_for(table)` (matplotlib figures), `make_report(folder)` (report.md and report.html)."""

from simkit.reports.answer import answer
from simkit.reports.report import figures_for, make_report, summary

__all__ = ["answer", "figures_for", "make_report", "summary"]
