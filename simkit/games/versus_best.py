"""Strategies against the best heuristic of each table (`simkit search-strength`): for every player
count and field, each candidate (the search bots) and every built-in strategy that is no search sit
in one seat, rotated, on the same deals (simkit.games.strength), and each candidate is compared,
paired on those deals, with the best of them at that table.

The rule of the verdict (docs/strategies.md): a candidate is "at least as good" as the best
heuristic where its mean is at most MARGIN worse, and "decisively better" where the 95% interval
of the paired difference lies below 0. The best heuristic is picked on the same deals it is
compared on, which flatters it, so both verdicts are if anything too strict.
"""

from collections.abc import Callable

import numpy as np
import pandas as pd

MARGIN = 0.5  # points per hand: "at least as good" allows the candidate's mean this much above the best's


def versus_best(game: str, candidates: list[str], players: list[int], fields: list[str], hands: int,
                seed: int = 0, rules: dict | None = None,
                progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    """One row per player count, field and candidate: the candidate's and the best heuristic's
    paired difference to the field's own table ('vs field'), the candidate less the best (paired),
    each with its 95% half-width, the candidate less the first candidate (the ceiling's check:
    cheat less pimc), and the verdict."""
    from simkit.games.strength import baseline_values, rating_of, seat_values
    from simkit.stats.intervals import mean_ci
    from simkit.strategies import registry

    rows = []
    for n in players:
        for field in fields:
            rating = rating_of(game, field)
            seats_for, _, base = baseline_values(rating, n, hands, seed, rules, progress)
            heuristics = {seats_for([rating.baseline], n)[0].label: base}
            for spec in builtin_heuristics(game):
                label = seats_for([spec], n)[0].label
                if label not in heuristics:
                    heuristics[label] = seat_values(rating, spec, n, hands, seed, rules, progress)
            best = min(heuristics, key=lambda label: heuristics[label].mean())
            searched = {}
            for spec in candidates:
                label = str(registry.canonical(game, spec))
                searched[label] = seat_values(rating, spec, n, hands, seed, rules, progress)
            first = next(iter(searched))
            best_diff, best_half = mean_ci(heuristics[best] - base)
            for label, values in searched.items():
                diff, half = mean_ci(values - base)
                gap, gap_half = mean_ci(values - heuristics[best])
                over, over_half = mean_ci(values - searched[first]) if label != first else (np.nan, np.nan)
                rows.append({"players": n, "field": field, "strategy": label, "vs field": diff, "±": half,
                             "best heuristic": best, "best vs field": best_diff, "± ": best_half,
                             "vs best": gap, "±  ": gap_half, "vs first": over, "±   ": over_half,
                             "verdict": verdict(gap, gap_half), "n": hands})
    return pd.DataFrame(rows)


def builtin_heuristics(game: str) -> list[str]:
    """The built-in strategies that are no search (a user's, loaded or registered, is left out; so
    is compose() at its defaults, `lowest`'s twin)."""
    from simkit.strategies import registry

    return [i.name for i in registry.available(game) if not i.search and not i.origin and not i.composer]


def verdict(gap: float, half: float) -> str:
    """The rule of docs/strategies.md for a candidate's paired difference to the best heuristic."""
    if gap + half < 0:
        return "decisively better"
    if gap <= MARGIN:
        return "at least as good"
    return "worse"
