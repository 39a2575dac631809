"""The parts of a report's page, for every kind of run alike: the page itself (its answer box,
sections and HTML shell, simkit.reports.page), tables as a reader wants them
(simkit.reports.tables) and figures of tables with intervals (simkit.reports.figures). A kind of
run (an experiment, a tuning, a field, a grading) writes its own report from these parts; nothing
here imports a kind."""
