"""Experiment specs, the runner and its executors. From Python: `experiments.run(spec)`."""

from experiments.api import as_spec, run

__all__ = ["as_spec", "run"]
