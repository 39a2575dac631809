"""The strength table: each strategy in one seat against `lowest` in all others, on the same deals
as an all-`lowest` table (paired), rotated through the seats so no seat is favoured."""

from collections.abc import Callable

import numpy as np
import pandas as pd

from simkit.reports.stats import mean_ci
from simkit.whos_the_ass import batch
from simkit.whos_the_ass.strategy import seats_for

BASELINE = "lowest"


def strength_table(candidates: list[str], players: int = 4, hands: int = 1_000_000, seed: int = 0,
                   rules: dict | None = None, progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    """One row per candidate: its mean penalty per hand and the paired difference to `lowest`
    in the same seat on the same deals, each with a 95% interval and n."""
    block = np.linspace(0, hands, players + 1).astype(np.int64)  # hands of block k: candidate in seat k
    seat_of_hand = np.repeat(np.arange(players), np.diff(block))
    rows = np.arange(hands)
    base = batch.play(seats_for([BASELINE], players), hands, seed, rules, chunks=20, progress=progress)
    base_pen = base.penalties[rows, seat_of_hand].astype(np.float64)
    out = []
    for spec in candidates:
        mine = np.empty(hands, dtype=np.float64)
        for k in range(players):
            lineup = [BASELINE] * players
            lineup[k] = spec
            seats = seats_for(lineup, players)
            res = batch.play(seats, int(block[k + 1] - block[k]), seed, rules, first=int(block[k]), chunks=5,
                             progress=progress)
            mine[block[k]:block[k + 1]] = res.penalties[:, k]
            label = seats[k].label
        mean, half = mean_ci(mine)
        diff, diff_half = mean_ci(mine - base_pen)
        out.append({"strategy": label, "mean penalty": mean, "±": half, "vs lowest": diff, "± ": diff_half,
                    "decisive": abs(diff) > diff_half, "n": hands})
    base_mean, base_half = mean_ci(base_pen)
    out.append({"strategy": BASELINE, "mean penalty": base_mean, "±": base_half, "vs lowest": 0.0, "± ": 0.0,
                "decisive": False, "n": hands})
    return pd.DataFrame(out).set_index("strategy").sort_values("vs lowest")
