"""`simkit simulate` for Ezelen: single rounds (per seat the chance of losing the round, how rounds
end, their length and first signal) or whole matches (Z7: per seat the chance of becoming the
donkey and the letters held), each number with its 95% interval."""

import numpy as np
import pandas as pd

from simkit.games.summary import Summary, mean, rate, share, timed


def _outcomes(counts: np.ndarray, total: int) -> str:
    """How many rounds ended each way (rules.REASONS), with Wilson intervals."""
    from simkit.games.ezelen.rules import REASONS

    return pd.DataFrame({"rounds": [f"{int(k):,}" for k in counts], "%": [share(k, total) for k in counts]},
                        index=pd.Index(REASONS, name="outcome")).to_string()


def rounds(seats: list, count: int, seed: int, rules: dict, model: dict, chunks: int, progress=None) -> Summary:
    from simkit.games.ezelen import batch

    res, elapsed = timed(lambda: batch.play(seats, 1, seed, rules, model),
                         lambda: batch.play(seats, count, seed, rules, model, chunks=chunks, progress=progress))
    rows = [{"seat": s, "strategy": seat.label, "lose the round %": share((res.loser == s).sum(), count)}
            for s, seat in enumerate(seats)]
    signalled = res.first_signal[res.first_signal >= 0]
    lines = (_outcomes(np.bincount(res.reason, minlength=4), count), f"mean turns per round: {mean(res.turns)}",
             f"mean turn of the first signal: {mean(signalled)} (n = {len(signalled):,} rounds with a signal)")
    lost = (res.loser[:, None] == np.arange(len(seats))).astype(np.int8)  # the seat measure `--by` groups
    return Summary("rounds", pd.DataFrame(rows).set_index("seat"), lines, rate(count, "rounds", elapsed), elapsed,
                   values=lost)


def matches(seats: list, count: int, seed: int, rules: dict, model: dict, chunks: int, progress=None) -> Summary:
    from simkit.games.ezelen import batch

    res, elapsed = timed(lambda: batch.matches(seats, 1, seed, rules, model),
                         lambda: batch.matches(seats, count, seed, rules, model, chunks=chunks, progress=progress))
    rows = [{"seat": s, "strategy": seat.label, "donkey %": share((res.donkey == s).sum(), count),
             "mean letters": mean(res.letters[:, s])} for s, seat in enumerate(seats)]
    played = int(res.rounds.sum())
    lines = [f"mean rounds per match: {mean(res.rounds)}", f"all {played:,} rounds of the matches by outcome:",
             _outcomes(res.reasons.sum(axis=0), played)]
    unfinished = int((res.donkey < 0).sum())
    if unfinished:
        lines.append(f"{unfinished:,} matches had no donkey after {batch.DEFAULT_MAX_ROUNDS:,} rounds")
    return Summary("matches", pd.DataFrame(rows).set_index("seat"), tuple(lines),
                   f"{rate(count, 'matches', elapsed)}, {rate(played, 'rounds', elapsed)}", elapsed)
