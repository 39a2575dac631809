"""Z1, Z2: the deal, compiled. A Fisher–Yates shuffle of the 4n cards, then card k goes to seat
k mod n."""

import numba as nb
import numpy as np

from simkit.core.rng import below
from simkit.games.deal import deal_round
from simkit.games.ezelen.rules import CARDS_PER_VALUE, MAX_PLAYERS, N_VALUES

DECK_MAX = CARDS_PER_VALUE * MAX_PLAYERS
STACK_DTYPE = np.uint8


@nb.njit(cache=True, _nrt=False)  # allocates nothing
def deal(hands, stack, n, state):
    """Deal into hands[:n] (13 counts each). The stack starts in value order (0,0,0,0,1,…);
    swap i (i = 0..4n-2) exchanges card i with card i + below(4n - i), one draw each."""
    size = CARDS_PER_VALUE * n
    for k in range(size):
        stack[k] = k // CARDS_PER_VALUE
    for i in range(size - 1):
        j = i + below(state, size - i)
        tmp = stack[i]
        stack[i] = stack[j]
        stack[j] = tmp
    for s in range(n):
        for v in range(N_VALUES):
            hands[s, v] = 0
    deal_round(hands, stack, 0, size, n, 0)
