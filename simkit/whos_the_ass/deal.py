"""W4–W6: the deal, compiled. Card k of the stack goes to seat k mod n; the ass seat leads."""

import numba as nb
import numpy as np

from simkit.rng import GOLDEN, draw_below, mix64
from simkit.whos_the_ass.rules import (
    ASS_WINDOW,
    CARDS_PER_PLAYER,
    COPIES_PER_NUMBER,
    JOKER,
    N_JOKERS,
)

# The 109 cards without the ass, in code order: the stack before shuffling (W5).
FRESH_STACK = np.array(
    [v for v in range(1, 14) for _ in range(COPIES_PER_NUMBER)] + [JOKER] * N_JOKERS, dtype=np.int64
)
STACK_SIZE = FRESH_STACK.shape[0]  # 109
CARDS_BY_PLAYERS = np.zeros(13, dtype=np.int64)
for _n, _c in CARDS_PER_PLAYER.items():
    CARDS_BY_PLAYERS[_n] = _c


@nb.njit(cache=True)
def deal(hands, stack, n, state):
    """Deal into hands[:n] (15 counts each) and return the seat dealt the ass (W5, W6).

    A partial Fisher–Yates shuffle draws the top n*c - 1 cards of the 109, then the ass goes
    to position p, uniform in 0..38; cards below the dealt ones are never looked at.
    """
    dealt = n * CARDS_BY_PLAYERS[n]
    stack[:] = FRESH_STACK
    x = state[0]  # a local copy lets the compiler keep the state in a register
    for i in range(dealt - 1):
        x += GOLDEN
        j = i + draw_below(mix64(x), STACK_SIZE - i)
        tmp = stack[i]
        stack[i] = stack[j]
        stack[j] = tmp
    x += GOLDEN
    p = draw_below(mix64(x), ASS_WINDOW)
    state[0] = x
    hands[:n, :] = 0
    seat = 0
    for k in range(dealt):
        if k < p:
            card = stack[k]
        elif k == p:
            card = 0
            ass_seat = seat
        else:
            card = stack[k - 1]
        hands[seat, card] += 1
        seat += 1
        if seat == n:
            seat = 0
    return ass_seat
