"""Experiment specs, the runner and its executors. From Python: `experiments.run(spec)`."""

from experiments.api import as_spec, run
from experiments.runner import Results

__all__ = ["Results", "as_spec", "run"]
