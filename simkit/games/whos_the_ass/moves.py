"""Moves of Who's the Ass? as a person reads and types them (`simkit play`): a hand, the trick on
the table and each legal move written as `simkit show` writes plays (A the ass, J a joker), and a
typed move read back: its number in the list, or its written form."""

import re

import numpy as np

from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.action import PASS, cards_of, short
from simkit.games.whos_the_ass.trace import card_name, cards_list


def hand_text(counts: np.ndarray) -> str:
    """A hand sorted as `show` writes it: the ass first, jokers last."""
    return " ".join(map(card_name, cards_list(counts))) or "(none)"


def play_text(action: int, ass_trick: bool) -> str:
    """A play as `show` writes it: its cards, a lone joker in an ass trick with the value it counts as."""
    if action == PASS:
        return "pass"
    cards, value = cards_of(action)
    return " ".join(map(card_name, cards)) + (f" (as {value})" if cards == [14] and ass_trick else "")


def move_names(actions: list[int], ass_trick: bool) -> list[str]:
    """Each legal move as `show` writes it; where two would read alike (a set of jokers only, which
    may count as several values), with the value it counts as (action.short): one name each."""
    shown = [play_text(a, ass_trick) for a in actions]
    return [short(a) if shown.count(text) > 1 else text for a, text in zip(actions, shown)]


def _normal(text: str) -> str:
    """A move's text compared: upper case, single spaces, no spaces inside the brackets, the
    cards in order (A, 1..13, J)."""
    text = re.sub(r"\(\s*", "(", re.sub(r"\s*\)", ")", text.strip().upper())).replace("PASS", "pass")
    cards, _, rest = text.partition("(")
    order = {"A": 0, "J": 14}
    words = sorted(cards.split(), key=lambda c: order.get(c, int(c) if c.isdigit() else 99))
    return " ".join(words + ([f"({' '.join(rest.split())}"] if rest else []))


def parse_move(text: str, names: list[str], actions: list[int]) -> int:
    """The move typed: a number is its place in the list (1..len); anything else is the written
    form of a legal move, as listed or as `show` or `short` write it. ValueError says why not."""
    typed = text.strip()
    if not typed:
        raise ValueError("an empty line: type a move's number or the move itself")
    if typed.isdigit():
        k = int(typed)
        if 1 <= k <= len(actions):
            return actions[k - 1]
        raise ValueError(f"there is no move {k}: type 1 to {len(actions)}")
    wanted = _normal(typed)
    found = {a for a, name in zip(actions, names) if wanted in (_normal(name), _normal(short(a)))}
    if not found and "(" not in wanted:  # the cards alone: a set of jokers only, its value left out
        found = {a for a, name in zip(actions, names) if _normal(name).split(" (")[0] == wanted}
    if len(found) == 1:
        return found.pop()
    if found:
        alike = " or ".join(names[actions.index(a)] for a in sorted(found))
        raise ValueError(f"{typed!r} is more than one move here: type {alike}, or its number")
    return _unknown(typed, wanted)


def _unknown(typed: str, wanted: str) -> int:
    cards = wanted.split(" (")[0].split()
    if not all(c in ("A", "J", "pass") or (c.isdigit() and 1 <= int(c) <= 13) for c in cards):
        raise ValueError(f"{typed!r} is not a move: cards are A (the ass), 1 to 13 and J (a joker), or pass")
    raise ValueError(f"{typed!r} is not one of your legal moves here")


def trick_text(view: np.ndarray) -> str:
    """The trick on the table so far: each play since the lead, by seat."""
    n, seat, leader = int(view[V.PLAYERS]), int(view[V.SEAT]), int(view[V.LEADER])
    played = (seat - leader) % n
    start = int(view[V.HISTORY_LEN]) - played
    ass_trick = int(view[V.PHASE]) == V.ASS_TRICK
    plays = [f"seat {(leader + i) % n}: {play_text(int(view[V.HISTORY + start + i]), ass_trick)}"
             for i in range(played)]
    return ", ".join(plays) if plays else "nothing (you lead)"
