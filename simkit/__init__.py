"""simkit: Monte Carlo strategy analysis for Who's the Ass? and Ezelen."""

__version__ = "0.1.0"
