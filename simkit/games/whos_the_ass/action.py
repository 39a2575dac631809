"""Action encoding: what a strategy returns, one int64.

A play is a set: `value` (what it counts as), `numbers` (number cards of that value) and
`jokers`. The ass is the set (0, 1, 0): one card of code 0. A lone joker in an ass trick is
(declared value, 0, 1). `PASS` is the only other action.
    action = value | numbers << 4 | jokers << 8
"""

import numba as nb
import numpy as np

PASS = np.int64(-1)


@nb.njit(inline="always", cache=True)
def make_set(value, numbers, jokers):
    """Encode a set: `numbers` cards of `value` plus `jokers` jokers, counting as `value`."""
    return np.int64(value) | (np.int64(numbers) << 4) | (np.int64(jokers) << 8)


@nb.njit(inline="always", cache=True)
def set_value(action):
    return action & 15


@nb.njit(inline="always", cache=True)
def set_numbers(action):
    return (action >> 4) & 15


@nb.njit(inline="always", cache=True)
def set_jokers(action):
    return (action >> 8) & 15


@nb.njit(inline="always", cache=True)
def set_size(action):
    return ((action >> 4) & 15) + ((action >> 8) & 15)


LEAD_ASS = make_set(0, 1, 0)


def describe(action: int) -> str:
    """A person's reading of an action, for error messages."""
    if action == PASS:
        return "pass"
    v, m, j = action & 15, (action >> 4) & 15, (action >> 8) & 15
    if action < 0 or action >= 1 << 12 or v > 14 or m > 8 or j > 5 or m + j == 0 or (v == 14 and m > 0):
        return f"invalid action code {action}"
    if (v, m, j) == (0, 1, 0):
        return "the ass"
    cards = [str(v)] * m + ["J"] * j
    return f"[{' '.join(cards)}] as value {v}"


def short(action: int) -> str:
    """An action as `simkit show` writes a play (A the ass, J a joker; a set of jokers only says
    its value): what grading names moves by, one name per distinct action."""
    if action == PASS:
        return "pass"
    v, m, j = action & 15, (action >> 4) & 15, (action >> 8) & 15
    if (v, m, j) == (0, 1, 0):
        return "A"
    return " ".join([str(v)] * m + ["J"] * j) + ("" if m else f" (as {v})")


def cards_of(action: int) -> tuple[list[int], int]:
    """The cards an action puts on the table (sorted, W2 codes) and the value they count as."""
    v, m, j = action & 15, (action >> 4) & 15, (action >> 8) & 15
    return [v] * m + [14] * j, v
