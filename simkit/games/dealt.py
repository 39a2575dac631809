"""A game's features of the deal (`--by`, a spec's `by`): the names checked against the game,
and a simulated table's hands grouped by what each seat was dealt (the game's `dealt`, dealt
again a chunk at a time: nothing kept per hand beyond the run's own arrays)."""

import numpy as np

from simkit import games
from simkit.core.errors import SimkitError, unknown
from simkit.stats.by_deal import By, Sums

CHUNK = 1 << 20  # hands dealt again at a time


def parse_by(game: str, text: str, where: str = "--by") -> By:
    """`jokers,ass` -> the features, checked: one error line naming an unknown or repeated one."""
    described = games.get(game)
    if not described.features:
        raise SimkitError(f"{where}: {described.title} has no features of the deal to group by")
    names = [x.strip() for x in str(text).split(",")]
    for name in names:
        if name not in described.features:
            raise unknown(f"{where} feature", name, list(described.features))
    if len(set(names)) != len(names):
        raise SimkitError(f"{where} names a feature twice: {text}")
    found = [described.features[name] for name in names]
    return By(game, tuple(names), tuple(f[0] for f in found), tuple(f[2] for f in found))


def grouped_sums(by: By, values: np.ndarray, seed: int, first: int = 0, dealt: np.ndarray | None = None) -> Sums:
    """The sums of hands first.. (values[hand, seat], the seat measure), each seat's hand grouped
    by what it was dealt (`dealt`, where the engine said, or the game's `dealt`, dealt again CHUNK
    hands at a time)."""
    described = games.get(by.game)
    count, n = values.shape
    sums = Sums.zeros(n, by.groups)
    for lo in range(0, count, CHUNK):
        hi = min(count, lo + CHUNK)
        # no features (a row per seat): every hand in group 0, nothing to deal again
        if not by.columns:
            keys = np.zeros((hi - lo, n), int)
        else:
            keys = by.keys(dealt[lo:hi] if dealt is not None else described.dealt(seed, first + lo, hi - lo, n))
        sums.add(keys, values[lo:hi])
    return sums
