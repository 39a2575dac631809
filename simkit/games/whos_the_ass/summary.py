"""`simkit simulate` for Who's the Ass?: per seat the mean penalty, how often it went out and held
the ass at the end, then the mean length of a hand, each with its 95% interval."""

import pandas as pd

from simkit.games.summary import Summary, mean, rate, share, timed
from simkit.games.whos_the_ass.alone import ALONE_FROM


def simulate(seats: list, count: int, seed: int, rules: dict, chunks: int, progress=None) -> Summary:
    from simkit.games.whos_the_ass import batch

    # a long run plays a one-strategy table with the strategy written into the loop: compiled here
    res, elapsed = timed(lambda: batch.play(seats, 1, seed, rules, alone=count >= ALONE_FROM),
                         lambda: batch.play(seats, count, seed, rules, chunks=chunks, progress=progress))
    rows = [{"seat": s, "strategy": seat.label, "mean penalty": mean(res.penalties[:, s]),
             "out %": share((res.penalties[:, s] == 0).sum(), count),
             "ass at end %": share((res.ass_end == s).sum(), count)} for s, seat in enumerate(seats)]
    return Summary("hands", pd.DataFrame(rows).set_index("seat"), (f"mean tricks per hand: {mean(res.tricks)}",),
                   rate(count, "hands", elapsed), elapsed, values=res.penalties)
