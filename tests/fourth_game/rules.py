"""Pig's rules, as the engine and the description take them.

P1. Two to six players sit in a ring; a drawn seat begins, then turns go round.
P2. A turn is rolls of one die: a 1 busts (the turn's total is lost and the turn ends); any other
    face adds to the turn's total, and the player then holds (banks the total) or rolls again.
P3. The first to bank `goal` points wins at once: reaching it ends the turn and the game.
P4. After `max_turns` turns without a winner the game is capped: nobody wins.
"""

from simkit.core.errors import SimkitError

NAME = "pig"
MIN_PLAYERS, MAX_PLAYERS = 2, 6
FACES = 6
HOLD, ROLL = 0, 1  # a decision: bank the turn's total, or roll again
DEFAULT_RULES = {"goal": 50, "max_turns": 1_000}
_RANGES = {"goal": (2, 1_000), "max_turns": (1, 1_000_000)}


def check_players(n: int) -> None:
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise SimkitError(f"Pig is played by {MIN_PLAYERS}..{MAX_PLAYERS} players, got {n}")


def check_rules(given: dict) -> dict:
    """Every rule in force: the defaults, then the given values (whole numbers in their ranges)."""
    rules = dict(DEFAULT_RULES)
    for name, value in given.items():
        if name not in _RANGES:
            raise SimkitError(f"unknown rule option {name!r} of Pig (known: {', '.join(_RANGES)})")
        low, high = _RANGES[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise SimkitError(f"Pig rule {name} must be a whole number {low}..{high}, got {value!r}")
        rules[name] = value
    return rules


def illegal_text(label: str, seat: int, game: int, said: int) -> str:
    return (f"strategy {label} at seat {seat} answered {said} in game {game}: "
            f"a Pig decision is {HOLD} (hold) or {ROLL} (roll)")
