"""Who's the Ass?'s strength table (simkit.games.strength): each strategy in one seat against `lowest`
in all others, on the same deals as an all-`lowest` table (paired), rotated through the seats; the
measure is the seat's penalty points per hand."""

from collections.abc import Callable

import numpy as np
import pandas as pd

from simkit.games.strength import Rating
from simkit.games.whos_the_ass.rules import GAME

BASELINE = "lowest"


def play(seats: list, count: int, first: int, seed: int, rules: dict | None, chunks: int,
         progress: Callable[[int], None] | None) -> np.ndarray:
    """Hands first..first+count-1: every seat's penalty points per hand, [count, players]."""
    from simkit.games.whos_the_ass import batch

    return batch.play(seats, count, seed, rules, first=first, chunks=chunks, progress=progress).penalties


RATING = Rating(GAME, BASELINE, "mean penalty", "mean penalty per hand", play)


def strength_table(candidates: list, players: int = 4, hands: int = 1_000_000, seed: int = 0,
                   rules: dict | None = None, progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    """One row per candidate: its mean penalty per hand and the paired difference to `lowest`
    in the same seat on the same deals ("vs lowest"), each with a 95% interval, and n."""
    return RATING(candidates, players, hands, seed, rules, progress)
