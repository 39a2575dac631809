"""Worked examples of users' strategy files (load one with --strategy-file)."""
