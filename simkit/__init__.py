"""simkit: Monte Carlo strategy analysis for Who's the Ass?, Ezelen and Eigenwijs (docs/architecture.md)."""

from simkit.core.cache import configure as _configure_cache

__version__ = "0.1.0"
CACHE_DIR = _configure_cache()
