"""Ezelen's strength table (simkit.games.strength): each strategy in one seat against `greedy` (the
default strategy) in all others, on the same single rounds as an all-`greedy` table (paired),
rotated through the seats; the measure is whether the seat lost the round (got a letter), so its
mean is the share of rounds lost. A strategy's own model values (an attention profile such as
`watcher`) come with its seat, as in `simkit simulate`."""

from collections.abc import Callable

import numpy as np
import pandas as pd

from simkit.games.ezelen.rules import GAME
from simkit.games.strength import Rating

BASELINE = "greedy"


def play(seats: list, count: int, first: int, seed: int, rules: dict | None, chunks: int,
         progress: Callable[[int], None] | None) -> np.ndarray:
    """Single rounds (round 0 of matches first..first+count-1): 1 where the seat lost the round,
    else 0, [count, players]."""
    from simkit.games.ezelen import batch

    loser = batch.play(seats, count, seed, rules, first=first, chunks=chunks, progress=progress).loser
    return (loser[:, None] == np.arange(len(seats))).astype(np.int8)


RATING = Rating(GAME, BASELINE, "share of rounds lost", "share of rounds lost", play, share=True)


def strength_table(candidates: list, players: int = 4, hands: int = 100_000, seed: int = 0,
                   rules: dict | None = None, progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    """One row per candidate: its share of rounds lost and the paired difference to `greedy` in
    the same seat on the same rounds ("vs greedy"), each with a 95% interval, and n."""
    return RATING(candidates, players, hands, seed, rules, progress)
