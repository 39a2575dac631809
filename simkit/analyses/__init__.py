"""The analyses built on many runs: tune, field, grading."""
