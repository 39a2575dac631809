"""Eigenwijs's strength table (simkit.games.strength): each strategy in one seat against `right` (the
default strategy) in all others, on the same games as an all-`right` table (paired), rotated
through the seats; the measure is whether the seat did not win the game, so its mean is the
share of games not won. A strategy's own model values (a profile such as `quick`) come with its
seat, as in `simkit simulate`."""

from collections.abc import Callable

import numpy as np

from simkit.games.eigenwijs.rules import GAME
from simkit.games.strength import Rating

BASELINE = "right"


def play(seats: list, count: int, first: int, seed: int, rules: dict | None, chunks: int,
         progress: Callable[[int], None] | None) -> np.ndarray:
    """Games first..first+count-1: 1 where the seat did not win, else 0, [count, players]."""
    from simkit.games.eigenwijs import batch
    from simkit.games.eigenwijs.engine import WINNER

    winner = batch.play(seats, count, seed, rules, first=first, chunks=chunks, progress=progress)[:, WINNER]
    return (winner[:, None] != np.arange(len(seats))).astype(np.int8)


RATING = Rating(GAME, BASELINE, "share of games not won", "share of games not won", play, share=True)
