"""How the parallel drivers split work: block b of `blocks` plays items lo..hi-1 of `count`.
Every item draws from its own seeded stream, so the split never changes a result."""

from collections.abc import Callable, Iterator

import numba as nb

BLOCKS_PER_THREAD = 4  # several blocks per thread even out hands of uneven length


def most_blocks() -> int:
    """The most blocks a parallel driver splits one call into (fewer for fewer items)."""
    return BLOCKS_PER_THREAD * nb.get_num_threads()


def blocks_for(count: int) -> int:
    return max(1, min(count, most_blocks()))


@nb.njit(cache=True)
def block_range(b, blocks, count):
    return b * count // blocks, (b + 1) * count // blocks


def spans(count: int, chunks: int, progress: Callable[[int], None] | None = None) -> Iterator[tuple[int, int]]:
    """A batch of `count` items in `chunks` engine calls (for a progress bar): (lo, hi) of each,
    reporting hi - lo to `progress` once the caller is done with it."""
    parts = min(chunks, count)
    for k in range(parts):
        lo, hi = k * count // parts, (k + 1) * count // parts
        yield lo, hi
        if progress:
            progress(hi - lo)
