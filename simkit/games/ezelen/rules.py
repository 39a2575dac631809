"""The rule facts of Ezelen, declared once (rule ids from docs/rules/ezelen.md)."""

import numpy as np

from simkit.core.errors import SimkitError, unknown

GAME = "ezelen"

# Z1: one set of four cards per player, values 0..n-1; a 52-card deck has 13 values.
CARDS_PER_VALUE = 4
MIN_PLAYERS = 2  # 2 is the edge case of Z1 (both sets always complete together, Z5)
MAX_PLAYERS = 13
N_VALUES = 13  # a hand is 13 counts, one per value; values >= n are never dealt
HAND_SIZE = 4  # Z2, Z3

# Z7: the letters, and the count that makes the donkey.
LETTERS = "EZEL"
DONKEY_AT = len(LETTERS)

# How a round ends (the trace's loss_reason, by engine code).
LAST, TEMPO, TIE, STALLED = 0, 1, 2, 3
REASONS = ("last", "tempo", "tie", "stalled")

DEFAULT_RULES = {"beat": 3.0, "max_turns": 1000}
MAX_TURNS_LIMIT = 1_000_000


def check_players(players: int) -> None:
    """Z1: 2..13 players, anything else a clear error."""
    if not isinstance(players, (int, np.integer)) or isinstance(players, bool) or not (
        MIN_PLAYERS <= players <= MAX_PLAYERS
    ):
        raise SimkitError(f"Ezelen needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players!r}")


def check_rules(rules: dict) -> dict:
    """Fill defaults and reject unknown options or values; returns every option in force."""
    for name in sorted(set(rules) - set(DEFAULT_RULES)):
        raise unknown("rule option", name, DEFAULT_RULES, f" for {GAME}")
    full = {**DEFAULT_RULES, **rules}
    beat, max_turns = full["beat"], full["max_turns"]
    if isinstance(beat, bool) or not isinstance(beat, (int, float, np.number)) or not 0 < beat < float("inf"):
        raise SimkitError(f"rule option beat must be a positive number of seconds, got {beat!r}")
    if isinstance(max_turns, float) and max_turns.is_integer():
        max_turns = int(max_turns)
    if isinstance(max_turns, bool) or not isinstance(max_turns, (int, np.integer)) or not (
        0 <= max_turns <= MAX_TURNS_LIMIT
    ):
        raise SimkitError(f"rule option max_turns must be a whole number from 0 to {MAX_TURNS_LIMIT}, "
                          f"got {max_turns!r}")
    return {"beat": float(beat), "max_turns": int(max_turns)}
