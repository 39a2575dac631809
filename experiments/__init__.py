"""Experiment specs and runner (filled by the experiments issue)."""
