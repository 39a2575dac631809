"""Statistics and reports over results tables."""
