"""Eigenwijs strategies (H1) and profiles (H7); importing this package registers them."""

from simkit.strategies.eigenwijs import profiles, readers  # noqa: F401
