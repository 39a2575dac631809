"""Grading moves with the search bot (Who's the Ass?)."""
