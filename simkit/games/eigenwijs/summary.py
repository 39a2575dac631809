"""`simkit simulate` for Eigenwijs: per seat the chance of winning and what cost it the cards (E8,
E9); per game how it ended, its length, its ties; each number with its 95% interval. The games
are counted span by span (sums of integers); kept per game are only whether each seat lost and
where it sat from the start (a few bytes a seat, for `--by`; `simulate` checks that its games
fit in memory, as for the other games' rows)."""


import time

import numpy as np
import pandas as pd

from simkit.core.blocks import spans
from simkit.games.eigenwijs.engine import (
    FALSE_SLAPS,
    HESITATIONS,
    LAST_SLAPS,
    START,
    TAKEN,
    TAKES,
    TIES,
    TURNS,
    WINNER,
    WRONGS,
)
from simkit.games.eigenwijs.features import FEATURES, dealt_of
from simkit.games.eigenwijs.rules import deck_note
from simkit.games.summary import Summary, share
from simkit.stats.intervals import mean_half
from simkit.stats.notation import mean as written_mean

SPAN = 50_000  # games per engine call: what one call keeps, whatever the run's length


def _mean(total: int, squares: int, n: int) -> str:
    """A mean ± the half-width of its 95% interval, from the sum and the sum of squares."""
    mean, half = mean_half(np.array([total]), np.array([squares]), n, np.ones(1))
    return written_mean(float(mean[0]), float(half[0]), 2)


def games(seats: list, count: int, seed: int, rules: dict, model: dict, chunks: int, progress=None) -> Summary:
    from simkit.games.eigenwijs import batch

    n = len(seats)
    batch.play(seats, 1, seed, rules, model)  # compile or load the engine outside the timing
    per_seat = {k: np.zeros(n, np.int64) for k in ("won", "takes", "wrong", "hesitations", "false", "last")}
    table = {k: 0 for k in ("turns", "turns2", "ties", "ties2", "capped", "taken")}
    lost = np.zeros((count, n), np.int8)  # per game and seat, for `--by`: lost, and where it sat from the start
    dealt = np.zeros((count, n, len(FEATURES)), np.int16)
    start = time.perf_counter()
    for lo, hi in spans(count, max(chunks, -(-count // SPAN)), progress):
        out = batch.play(seats, hi - lo, seed, rules, model, first=lo)
        per_seat["won"] += np.bincount(out[:, WINNER][out[:, WINNER] >= 0], minlength=n)[:n]
        lost[lo:hi] = out[:, WINNER][:, None] != np.arange(n)
        dealt[lo:hi] = dealt_of(out[:, START], n)
        for key, at in (("takes", TAKES), ("wrong", WRONGS), ("hesitations", HESITATIONS), ("false", FALSE_SLAPS),
                        ("last", LAST_SLAPS)):
            per_seat[key] += out[:, at:at + n].sum(axis=0)
        turns, ties = out[:, TURNS], out[:, TIES]
        table["turns"] += int(turns.sum())
        table["turns2"] += int((turns * turns).sum())
        table["ties"] += int(ties.sum())
        table["ties2"] += int((ties * ties).sum())
        table["capped"] += int((out[:, WINNER] < 0).sum())
        table["taken"] += int(out[:, TAKEN].sum())
    elapsed = time.perf_counter() - start
    rows = [{"seat": s, "strategy": seat.label, "win %": share(per_seat["won"][s], count),
             "takes/game": f"{per_seat['takes'][s] / count:.2f}", "wrong": f"{per_seat['wrong'][s] / count:.2f}",
             "hesitations": f"{per_seat['hesitations'][s] / count:.2f}",
             "false slaps": f"{per_seat['false'][s] / count:.2f}", "last at ties": f"{per_seat['last'][s] / count:.2f}"}
            for s, seat in enumerate(seats)]
    lines = (f"mean turns per game: {_mean(table['turns'], table['turns2'], count)}",
             f"mean ties per game: {_mean(table['ties'], table['ties2'], count)}",
             f"capped (no winner after {rules['max_turns']:,} turns): {share(table['capped'], count)}",
             "per seat: times per game it took the cards (any reason), and for a wrong word, a hesitation "
             "over the limit, a false slap, the last slap at a tie (E8, E9)", deck_note(rules))
    return Summary("games", pd.DataFrame(rows).set_index("seat"), lines, f"{count / elapsed:,.0f} games/s, "
                   f"{table['turns'] / elapsed:,.0f} turns/s", elapsed, lost, dealt)
