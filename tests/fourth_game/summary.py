"""`simkit simulate` for Pig: per seat its share of games won and its mean points short of the
goal, busts and rolls per game; per game its length. Each ± a 95% interval."""

import time

import numpy as np
import pandas as pd

from simkit.core.blocks import spans
from simkit.games.summary import Summary, mean, share

from . import batch
from .engine import BUSTS, ROLLS, SCORE, TURNS, WINNER


def games(seats: list, count: int, seed: int, rules: dict, chunks: int, progress=None) -> Summary:
    n = len(seats)
    batch.play(seats, 1, seed, rules)  # compile or load the engine outside the timing
    parts = []
    start = time.perf_counter()
    for lo, hi in spans(count, chunks, progress):
        parts.append(batch.play(seats, hi - lo, seed, rules, first=lo))
    elapsed = time.perf_counter() - start
    out = np.concatenate(parts)
    goal = rules["goal"]
    short = goal - np.minimum(out[:, SCORE:SCORE + n], goal)
    won = np.bincount(out[:, WINNER][out[:, WINNER] >= 0], minlength=n)
    rows = [{"seat": s, "strategy": seat.label, "win %": share(won[s], count), "short": mean(short[:, s]),
             "busts/game": f"{out[:, BUSTS + s].mean():.2f}", "rolls/game": f"{out[:, ROLLS + s].mean():.2f}"}
            for s, seat in enumerate(seats)]
    lines = (f"mean turns per game: {mean(out[:, TURNS])}",
             f"capped (no winner after {rules['max_turns']:,} turns): {share((out[:, WINNER] < 0).sum(), count)}",
             f"short: points short of the goal ({goal}) at the end, the winner's 0")
    return Summary("games", pd.DataFrame(rows).set_index("seat"), lines, f"{count / elapsed:,.0f} games/s", elapsed)
