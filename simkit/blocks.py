"""How the parallel drivers split work: block b of `blocks` plays items lo..hi-1 of `count`.
Every item draws from its own seeded stream, so the split never changes a result."""

import numba as nb


@nb.njit(cache=True)
def block_range(b, blocks, count):
    return b * count // blocks, (b + 1) * count // blocks
