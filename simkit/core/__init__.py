"""The core every layer stands on: counter-based randomness (rng), compiled helpers (lowlevel, blocks),
errors, files written whole (files, records), interrupts, sizes checked where they enter, and
numba's cache (cache)."""
