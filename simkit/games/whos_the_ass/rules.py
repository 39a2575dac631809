"""The rule facts of Who's the Ass?, declared once (rule ids from docs/rules/whos-the-ass.md)."""

import numpy as np

from simkit.core.errors import SimkitError, unknown

GAME = "whos-the-ass"

# W2: card codes. A hand is 15 counts indexed by these codes.
ASS = 0
JOKER = 14
N_CODES = 15
NUMBER_VALUES = range(1, 14)

# W1: the deck.
COPIES_PER_NUMBER = 8
N_JOKERS = 5
DECK_SIZE = 13 * COPIES_PER_NUMBER + N_JOKERS + 1  # 110
ASS_WINDOW = 39  # W5: the ass goes among the top 39 cards
# W16 bounds a hand: a normal trick discards a card, ass tricks never come twice in a row.
MAX_TRICKS = 2 * DECK_SIZE + 2

# W4: cards per player by player count.
MIN_PLAYERS = 3
MAX_PLAYERS = 12
CARDS_PER_PLAYER = {3: 13, 4: 13, 5: 13, 6: 13, 7: 13, 8: 13, 9: 12, 10: 11, 11: 10, 12: 9}

# W8 / W11 / W13: set values.
ASS_VALUE = 0
JOKERS_ALONE_VALUE = 14
# W17: penalty points per card code.
PENALTY = np.array([20] + list(range(1, 14)) + [14], dtype=np.int64)

# W13: the rule option ass_joker, by name and engine code.
ASS_JOKER_OPTIONS = ("1or14", "1", "any")
DEFAULT_RULES = {"ass_joker": "1or14"}


def ass_joker_values(option: str) -> tuple[int, ...]:
    """W13: the values a lone joker may be declared as in an ass trick."""
    return {"1or14": (1, 14), "1": (1,), "any": tuple(range(1, 15))}[option]


def cards_per_player(players: int) -> int:
    """W4, with the clear error for an impossible player count."""
    check_players(players)
    return CARDS_PER_PLAYER[players]


def check_players(players: int) -> None:
    if not isinstance(players, (int, np.integer)) or isinstance(players, bool) or not (
        MIN_PLAYERS <= players <= MAX_PLAYERS
    ):
        raise SimkitError(
            f"Who's the Ass? needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players!r}"
        )


def check_rules(rules: dict) -> dict:
    """Fill defaults and reject unknown options or values; returns every option in force."""
    for name in sorted(set(rules) - set(DEFAULT_RULES)):
        raise unknown("rule option", name, DEFAULT_RULES, f" for {GAME}")
    full = {**DEFAULT_RULES, **rules}
    if isinstance(full["ass_joker"], (int, np.integer)) and not isinstance(full["ass_joker"], bool):
        full["ass_joker"] = str(full["ass_joker"])  # 1, as a command line's number or a spec's, is "1"
    if full["ass_joker"] not in ASS_JOKER_OPTIONS:
        raise SimkitError(
            f"unknown value {full['ass_joker']!r} for rule option ass_joker "
            f"(choose from {', '.join(ASS_JOKER_OPTIONS)})"
        )
    return full


def ass_joker_code(option: str) -> int:
    return ASS_JOKER_OPTIONS.index(option)
