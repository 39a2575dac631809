"""Low-card reserve: `keep_low(k)` never spends its k lowest cards in normal tricks while another
player holds the ass, to have them for ass tricks (where a low card dodges the ass)."""

import numba as nb
import numpy as np

from simkit.games.whos_the_ass import view as V
from simkit.strategies.whos_the_ass import slots as P


@nb.njit(inline="always", cache=True)
def reserved(hand, view, params):
    """The reserve as (t, r): all number cards below value t and r cards of value t are kept."""
    if params[P.RESERVE] != P.KEEP_LOW:
        return np.int64(0), np.int64(0)
    holder = view[V.ASS_HOLDER]
    if holder == view[V.SEAT] or holder < 0:
        return np.int64(0), np.int64(0)
    left = np.int64(params[P.KEEP])
    for u in range(np.uint64(1), np.uint64(14)):
        if hand[u] >= left:
            return np.int64(u), left
        left -= hand[u]
    return np.int64(14), np.int64(0)


@nb.njit(inline="always", cache=True)
def usable(hand, v, t, r):
    """Number cards of value v the player may spend in a normal trick, given the reserve (t, r)."""
    if v < t:
        return np.int64(0)
    if v == t:
        return hand[v] - r
    return hand[v]
