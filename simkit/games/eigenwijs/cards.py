"""Questions about cards and the open table, compiled inline: what the engine judges calls by
(E6–E8, E12, E14) and what strategies read the table with. No allocation: a table is at most 6
piles and 6 colours, so every question is a small loop."""

import numba as nb

from simkit.games.eigenwijs import view as V
from simkit.games.eigenwijs.rules import CHICK, COUNT, IK, JIJ, JULLIE, MAX_COLOURS, NIEMAND, PRECIES, SLAP, WIJ


@nb.njit(inline="always", cache=True)
def eggs_of(card):
    """The eggs a card shows (a broken egg, a chick or an empty pile: 0)."""
    return card & 7 if card >= 8 else 0


@nb.njit(inline="always", cache=True)
def colour_of(card):
    """The hen colour of a card with eggs, -1 for any other."""
    return (card >> 3) - 1 if card >= 8 else -1


@nb.njit(inline="always", cache=True)
def chick_open(tops, piles):
    """E12: whether a chick is the top card of a pile."""
    for p in range(piles):
        if tops[p] == CHICK:
            return True
    return False


@nb.njit(inline="always", cache=True)
def open_cards(tops, piles):
    """How many piles show a card."""
    k = 0
    for p in range(piles):
        if tops[p] >= 0:
            k += 1
    return k


@nb.njit(inline="always", cache=True)
def majority(tops, piles):
    """E6, E8: (the majority colour, its eggs, whether another colour has as many); colour -1 and
    0 eggs when no open card shows an egg."""
    best = 0
    colour = -1
    tied = False
    for c in range(MAX_COLOURS):
        total = 0
        for p in range(piles):
            if colour_of(tops[p]) == c:
                total += eggs_of(tops[p])
        if total > best:
            best = total
            colour = c
            tied = False
        elif total == best and total > 0:
            tied = True
    return colour, best, tied


@nb.njit(inline="always", cache=True)
def word_of(tops, piles, mine, colour, eggs):
    """E7: the word for a table without a tie whose majority colour is `colour` with `eggs` eggs;
    `mine` is the pile the player's card went onto."""
    if eggs == 0:
        return NIEMAND
    holders = 0
    for p in range(piles):
        if colour_of(tops[p]) == colour:
            holders += 1
    own = colour_of(tops[mine]) == colour
    if holders == 1:
        return IK if own else JIJ
    return WIJ if own else JULLIE


@nb.njit(inline="always", cache=True)
def right_word(tops, piles, mine):
    """The right response before E14: a slap at a tie (E8), the count while a chick is open
    (E12), else the word of E7."""
    colour, eggs, tied = majority(tops, piles)
    if tied:
        return SLAP
    if chick_open(tops, piles):
        return COUNT + eggs
    return word_of(tops, piles, mine, colour, eggs)


@nb.njit(inline="always", cache=True)
def repeat_rule(word, precies, previous):
    """E14: "Precies" instead of repeating the word called just before (and never twice in a row,
    which cannot arise: the word before is then "Precies" itself)."""
    if precies and word != SLAP and word == previous:
        return PRECIES
    return word


@nb.njit(inline="always", cache=True)
def right_response(tops, piles, mine, precies, previous):
    """The right response: right_word, then E14."""
    return repeat_rule(right_word(tops, piles, mine), precies, previous)


@nb.njit(inline="always", cache=True)
def right_of_view(view):
    """The right response on the table a strategy sees."""
    return right_response(view[V.TOPS:], view[V.PILES], view[V.PILE], view[V.PRECIES] == 1, view[V.PREVIOUS])
