"""The core every layer stands on: randomness, compiled helpers, errors, files, interrupts."""
