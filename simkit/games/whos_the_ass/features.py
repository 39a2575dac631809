"""What each seat was dealt, as whole numbers a run can group its results by (`--by`, a spec's
`by`): jokers, the ass, the hand's size and its low cards. Dealt again from each hand's own
random state exactly as the engine deals it (W4-W6), so that the groups are those of the hands
played, and a run's grouping costs a deal per hand, not a row per hand kept."""

import numba as nb
import numpy as np

from simkit.core.blocks import most_blocks
from simkit.core.rng import hand_state
from simkit.games.whos_the_ass.deal import STACK_DTYPE, STACK_SIZE, deal
from simkit.games.whos_the_ass.hand import HAND_WIDTH
from simkit.games.whos_the_ass.rules import ASS, JOKER, MAX_PLAYERS, N_CODES

LOW = 3  # the lowest values counted by `low`


FEATURE_COUNT = 4  # the columns: jokers, ass, size, low


@nb.njit(inline="always", cache=True)
def count_features(hands, n, out):
    """out[s, :] = what seat s holds in `hands` as dealt: jokers, the ass, cards, low cards. The
    engine's driver calls it on each deal it plays (a spec's `by`), `dealt` on each deal again."""
    for s in range(n):
        size = 0
        for c in range(N_CODES):
            size += hands[s, c]
        low = 0
        for v in range(1, LOW + 1):
            low += hands[s, v]
        out[s, 0] = hands[s, JOKER]
        out[s, 1] = hands[s, ASS]
        out[s, 2] = size
        out[s, 3] = low


@nb.njit(cache=True, parallel=True)
def _dealt(seed, first, count, n, out, blocks):
    for b in nb.prange(blocks):
        hands = np.zeros((MAX_PLAYERS, HAND_WIDTH), np.int64)  # as the engine's, so `deal` is compiled once
        stack = np.zeros(STACK_SIZE, STACK_DTYPE)
        rng = np.zeros(1, np.uint64)
        for h in range(b * count // blocks, (b + 1) * count // blocks):
            rng[0] = hand_state(seed, first + h)
            deal(hands, stack, n, rng)
            count_features(hands, n, out[h])


def dealt(seed: int, first: int, count: int, n: int) -> np.ndarray:
    """[hand, seat, feature]: what each seat of hands first..first+count-1 was dealt (the columns
    of simkit.games.whos_the_ass.game.FEATURES: jokers, ass, size, low)."""
    out = np.zeros((count, n, FEATURE_COUNT), np.int16)
    _dealt(np.uint64(seed), first, count, n, out, max(1, min(count, most_blocks())))
    return out
