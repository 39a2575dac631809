"""What each seat was dealt in a round of Ezelen (`--by`, a spec's `by`): the pairs in its first
hand and the most cards of one value, dealt again from each round's own random state exactly as
the engine deals it (Z1, Z2)."""

import numba as nb
import numpy as np

from simkit.core.blocks import most_blocks
from simkit.core.rng import hand_state, match_seed
from simkit.games.ezelen.deal import DECK_MAX, STACK_DTYPE, deal
from simkit.games.ezelen.rules import MAX_PLAYERS, N_VALUES


@nb.njit(cache=True, parallel=True)
def _dealt(seed, first, count, n, out, blocks):
    for b in nb.prange(blocks):
        hands = np.zeros((MAX_PLAYERS, N_VALUES), np.int64)  # as the engine's, so `deal` is compiled once
        stack = np.zeros(DECK_MAX, STACK_DTYPE)
        rng = np.zeros(1, np.uint64)
        for i in range(b * count // blocks, (b + 1) * count // blocks):
            rng[0] = hand_state(match_seed(seed, first + i), 0)
            deal(hands, stack, n, rng)
            for s in range(n):
                pairs, most = 0, 0
                for v in range(N_VALUES):
                    pairs += hands[s, v] // 2
                    most = max(most, hands[s, v])
                out[i, s, 0] = pairs
                out[i, s, 1] = most


def dealt(seed: int, first: int, count: int, n: int) -> np.ndarray:
    """[round, seat, feature]: each seat's first hand in single rounds first..first+count-1 (the
    columns of simkit.games.ezelen.game.FEATURES: pairs, most)."""
    out = np.zeros((count, n, 2), np.int16)
    _dealt(np.uint64(seed), first, count, n, out, max(1, min(count, most_blocks())))
    return out
