"""Ezelen passing strategies (M1); importing this package registers them."""

from simkit.strategies.ezelen import greedy, memory, profiles, random_play, sticky  # noqa: F401
