"""Experiment specs, the runner and its executors. From Python: `experiments.run(spec)`."""

from simkit.experiments.api import as_spec, run
from simkit.experiments.runner import Results

__all__ = ["Results", "as_spec", "run"]
