"""W4–W6: the deal, compiled. Card k of the stack goes to seat k mod n; the ass seat leads."""

import numba as nb
import numpy as np

from simkit.core.rng import GOLDEN, mix64
from simkit.games.deal import deal_round
from simkit.games.whos_the_ass.rules import (
    ASS_WINDOW,
    CARDS_PER_PLAYER,
    COPIES_PER_NUMBER,
    JOKER,
    N_CODES,
    N_JOKERS,
)

_S32 = np.uint64(32)
_LOW32 = np.uint64(0xFFFFFFFF)

# The 109 cards without the ass, in code order: the stack before shuffling (W5). Card codes fit
# a byte; unsigned, so indexing a hand by a card needs no negative-index fix-up.
STACK_DTYPE = np.uint8
FRESH_STACK = np.array(
    [v for v in range(1, 14) for _ in range(COPIES_PER_NUMBER)] + [JOKER] * N_JOKERS,
    dtype=STACK_DTYPE,
)
STACK_SIZE = FRESH_STACK.shape[0]  # 109
CARDS_BY_PLAYERS = np.zeros(13, dtype=np.int64)
for _n, _c in CARDS_PER_PLAYER.items():
    CARDS_BY_PLAYERS[_n] = _c


@nb.njit(cache=True, _nrt=False)  # allocates nothing: no reference counting needed
def deal(hands, stack, n, state):
    """Deal into hands[:n] (15 counts each) and return the seat dealt the ass (W5, W6).

    A partial Fisher–Yates shuffle draws the top n*c - 1 cards of the 109, then the ass goes
    to position p, uniform in 0..38; cards below the dealt ones are never looked at. Each draw
    maps a 32-bit word w to 0..m-1 as (w * m) >> 32.
    `stack` is STACK_SIZE scratch of STACK_DTYPE.
    """
    dealt = n * CARDS_BY_PLAYERS[n]
    for k in range(STACK_SIZE):  # a loop, not stack[:] = ..., so no temporary is needed (no NRT)
        stack[k] = FRESH_STACK[k]
    x = state[0]  # a local copy lets the compiler keep the state in a register
    # Each 64 random bits serve two draws: the high 32 bits first, then the low 32 bits.
    bits = np.uint64(0)
    for i in range(dealt - 1):
        if i & 1 == 0:
            x += GOLDEN
            bits = mix64(x)
            word = bits >> _S32
        else:
            word = bits & _LOW32
        j = i + np.int64((word * np.uint64(STACK_SIZE - i)) >> _S32)
        tmp = stack[i]
        stack[i] = stack[j]
        stack[j] = tmp
    if (dealt - 1) & 1 == 0:
        x += GOLDEN
        word = mix64(x) >> _S32
    else:
        word = bits & _LOW32
    p = np.int64((word * np.uint64(ASS_WINDOW)) >> _S32)
    state[0] = x
    for s in range(n):
        for c in range(N_CODES):
            hands[s, c] = 0
    # Card k of the dealt stack goes to seat k mod n. The ass is card p: stack[k] is card k
    # before it and card k + 1 after it. Two runs instead of a test per card.
    ass_seat = deal_round(hands, stack, 0, p, n, 0)
    hands[ass_seat, 0] += 1
    deal_round(hands, stack, p, dealt - 1, n, ass_seat + 1 if ass_seat + 1 < n else 0)
    return ass_seat
