"""The rule facts of Eigenwijs, declared once (rule ids from docs/rules/eigenwijs.md): players,
the deck's parameters (E2, an assumption: the source gives no card list), the calls, and the
checks of the rule options."""

import numpy as np

from simkit.core.errors import SimkitError, unknown

GAME = "eigenwijs"

MIN_PLAYERS = 2  # E1
MAX_PLAYERS = 6
BEGINNERS_MAX = 4  # the beginners' version: at most 4 players, no chicks
OWN_PILES_MOST = 4  # E13 by default: own piles up to 4 players, rotating piles "with more players"
MAX_COLOURS = 6
MAX_EGGS = 7  # eggs on one card: egg_cards has at most this many entries
MAX_PER_KIND = 16
MAX_BROKEN = 32
MAX_CHICK_CARDS = 16
DECK_MAX = MAX_COLOURS * MAX_EGGS * MAX_PER_KIND + MAX_BROKEN + MAX_CHICK_CARDS
MAX_PILES = MAX_PLAYERS  # own piles: one per player; rotating piles: 3 or 4 (E13)
MAX_TURNS_LIMIT = 1_000_000

# Cards (E2) as codes: a broken egg, a chick, or 8 x (colour + 1) + eggs for a card of `eggs` eggs.
EMPTY = -1  # a pile without cards
BROKEN = 0
CHICK = 1
COLOUR_LETTERS = "rygbpo"  # red, yellow, green, blue, purple, orange: a card is written "r2", "x", "c"

# Responses (E7, E8, E12, E14): what a player calls, or a slap.
NIEMAND, IK, JIJ, WIJ, JULLIE, PRECIES, SLAP = 0, 1, 2, 3, 4, 5, 6
WORDS = ("Niemand", "Ik", "Jij", "Wij", "Jullie", "Precies", "slap")
COUNT = 16  # a count k (E12) is COUNT + k; "Nul" is COUNT + 0
MAX_COUNT = MAX_PILES * MAX_EGGS
NO_CALL = -1  # E14: nothing called before in this round

# How a turn ends (the trace's `why`, by engine code).
ON, WON, TIE, WRONG, HESITATION, FALSE_SLAP = 0, 1, 2, 3, 4, 5
ENDINGS = ("on", "won", "tie", "wrong", "hesitation", "false_slap")
TAKES = ENDINGS[TIE:]  # the ways the cards are taken (E8, E9)

DEFAULT_RULES = {
    "colours": 4, "egg_cards": [5, 4, 3], "broken": 8, "chick_cards": 8,
    "chicks": False, "precies": False, "rotating": "auto", "beginners": False,
    "hesitation": 3.0, "max_turns": 20_000,
}
VARIANTS = ("chicks", "precies", "rotating", "beginners")


def card_code(colour: int, eggs: int) -> int:
    return 8 * (colour + 1) + eggs


def card_name(code: int) -> str:
    """A card as traces write it: "r2" (red, two eggs), "x" (broken egg), "c" (chick)."""
    if code == BROKEN:
        return "x"
    if code == CHICK:
        return "c"
    return f"{COLOUR_LETTERS[code // 8 - 1]}{code % 8}"


def card_of(name: str) -> int:
    """The code of a card written as card_name writes it; a ValueError for anything else."""
    if name == "x":
        return BROKEN
    if name == "c":
        return CHICK
    if len(name) == 2 and name[0] in COLOUR_LETTERS and name[1] in "1234567":
        return card_code(COLOUR_LETTERS.index(name[0]), int(name[1]))
    raise ValueError(f"not a card: {name!r}")


def response_name(response: int) -> str:
    """A response as traces write it: a word, "slap", or a count as digits ("0" is "Nul")."""
    if 0 <= response < len(WORDS):
        return WORDS[response]
    if COUNT <= response <= COUNT + MAX_COUNT:
        return str(response - COUNT)
    return f"invalid response {response}"


def response_of(name: str) -> int:
    if name in WORDS:
        return WORDS.index(name)
    if name.isdigit() and int(name) <= MAX_COUNT:
        return COUNT + int(name)
    raise ValueError(f"not a response: {name!r}")


def deck(rules: dict) -> list[int]:
    """E2 and H8: the deck as laid out before the shuffle: colour by colour, within a colour by
    eggs, then the broken cards, then (with the chicks variant, E12) the chicks."""
    cards = [card_code(c, e + 1) for c in range(rules["colours"]) for e, k in enumerate(rules["egg_cards"])
             for _ in range(k)]
    cards += [BROKEN] * rules["broken"]
    if rules["chicks"]:
        cards += [CHICK] * rules["chick_cards"]
    return cards


def deck_note(rules: dict) -> str:
    """E2: what the deck is assumed to hold, in words, for every report (the source gives no card list)."""
    chicks = f", {rules['chick_cards']} chicks" if rules["chicks"] else ""
    return (f"the deck holds {rules['colours']} hen colours, each with {', '.join(map(str, rules['egg_cards']))} "
            f"cards of 1, 2, ... eggs, {rules['broken']} broken eggs{chicks}: {len(deck(rules))} cards (an assumption, "
            "E2: the rules give no card list)")


def rotating_at(rules: dict, players: int) -> bool:
    """E13: whether a table of `players` plays on rotating piles: as the rule option says, or, by
    default ("auto"), with more than OWN_PILES_MOST players ("wil je met meer spelers spelen, dan
    gebruik je wisselende aflegstapels": the reading in docs/rules/eigenwijs.md)."""
    return players > OWN_PILES_MOST if rules["rotating"] == "auto" else bool(rules["rotating"])


def piles(rules: dict, players: int) -> int:
    """E5, E13: one pile per player, or 3 rotating piles (4 with 3 players)."""
    if rotating_at(rules, players):
        return 4 if players == 3 else 3
    return players


def check_players(players: int) -> None:
    """E1: 2..6 players, anything else a clear error."""
    if not isinstance(players, (int, np.integer)) or isinstance(players, bool) or not (
        MIN_PLAYERS <= players <= MAX_PLAYERS
    ):
        raise SimkitError(f"Eigenwijs needs {MIN_PLAYERS} to {MAX_PLAYERS} players, got {players!r}")


def check_table(rules: dict, players: int) -> None:
    """What the rules in force allow at a table of `players` (rules checked by check_rules)."""
    check_players(players)
    if rules["beginners"] and players > BEGINNERS_MAX:
        raise SimkitError(f"the beginners' version of Eigenwijs is for at most {BEGINNERS_MAX} players, "
                          f"got {players}")
    if len(deck(rules)) < players:
        raise SimkitError(f"a deck of {len(deck(rules))} cards cannot give each of {players} players a card (E3)")


def _whole(value, name: str, low: int, high: int) -> int:
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
        raise SimkitError(f"rule option {name} must be a whole number from {low} to {high}, got {value!r}")
    return int(value)


def _switch(value, name: str) -> bool:
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "yes", "no", "on", "off", "1", "0"):
        return value.strip().lower() in ("true", "yes", "on", "1")
    if not isinstance(value, (bool, np.bool_)):
        raise SimkitError(f"rule option {name} must be true or false, got {value!r}")
    return bool(value)


def _piles(value) -> bool | str:
    """E13's option: true, false or "auto" (rotating piles with more than OWN_PILES_MOST players)."""
    text = value.strip().lower() if isinstance(value, str) else None
    if text in ("auto", "true", "false"):
        return "auto" if text == "auto" else text == "true"
    if not isinstance(value, (bool, np.bool_)):
        raise SimkitError(f"rule option rotating must be true, false or auto, got {value!r}")
    return bool(value)


def _egg_cards(value) -> list[int]:
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",")] if value.strip() else []
    elif isinstance(value, (int, np.integer)) and not isinstance(value, bool):  # one kind of card: --rule egg_cards=4
        value = [value]
    if not isinstance(value, (list, tuple)) or not 1 <= len(value) <= MAX_EGGS:
        raise SimkitError(f"rule option egg_cards must be a list of 1 to {MAX_EGGS} card counts (cards with 1, 2, … "
                          f"eggs per colour), got {value!r}")
    counts = [_whole(v, "egg_cards", 0, MAX_PER_KIND) for v in value]
    if sum(counts) == 0:
        raise SimkitError("rule option egg_cards must give each colour at least one card with eggs")
    return counts


def check_rules(rules: dict) -> dict:
    """Fill defaults and reject unknown options or values; returns every option in force."""
    for name in sorted(set(rules) - set(DEFAULT_RULES)):
        raise unknown("rule option", name, DEFAULT_RULES, f" for {GAME}")
    full = {**DEFAULT_RULES, **rules}
    out = {
        "colours": _whole(full["colours"], "colours", 2, MAX_COLOURS),
        "egg_cards": _egg_cards(full["egg_cards"]),
        "broken": _whole(full["broken"], "broken", 0, MAX_BROKEN),
        "chick_cards": _whole(full["chick_cards"], "chick_cards", 0, MAX_CHICK_CARDS),
        **{name: _piles(full[name]) if name == "rotating" else _switch(full[name], name) for name in VARIANTS},
    }
    hesitation = full["hesitation"]
    if isinstance(hesitation, str):
        try:
            hesitation = float(hesitation)
        except ValueError:
            pass
    if isinstance(hesitation, bool) or not isinstance(hesitation, (int, float, np.number)) or not (
        0 < hesitation < float("inf")
    ):
        raise SimkitError(f"rule option hesitation must be a positive number of seconds, got {hesitation!r}")
    out["hesitation"] = float(hesitation)
    out["max_turns"] = _whole(full["max_turns"], "max_turns", 0, MAX_TURNS_LIMIT)
    if out["beginners"] and out["chicks"]:
        raise SimkitError("the beginners' version of Eigenwijs has no chicks: set chicks or beginners to false")
    return out


def response_is_legal(response: int, chicks: bool, precies: bool) -> bool:
    """H1: a word, a slap, "Precies" with E14, a count with E12; anything else is no response."""
    return (NIEMAND <= response <= JULLIE or response == SLAP or (precies and response == PRECIES)
            or (chicks and COUNT <= response <= COUNT + MAX_COUNT))


def illegal_text(label: str, origin: str, seat: int, number: int, turn: int, response: int) -> str:
    """The one-line error for a strategy's illegal response, the same from both engines."""
    where = f" ({origin})" if origin else ""
    return (f"strategy {label!r}{where} at seat {seat} made an illegal move in game {number}, turn {turn}: "
            f"response {response} is not one of the responses in use (H1: a word of E7, a slap, Precies with "
            f"the precies variant, a count 0..{MAX_COUNT} with the chicks variant)")
