"""Statistics of a results table, each number with its interval and its n."""

import numpy as np
import pandas as pd

from reports.stats import mean_ci


def strategy_means(table: pd.DataFrame, value: str) -> pd.DataFrame:
    """Per cell and strategy: the mean of `value` per hand (or match) and seat, ± 95% CI, n."""
    rows = []
    for (cell, players, strategy), group in table.groupby(["cell", "players", "strategy"], sort=True):
        mean, half = mean_ci(group[value].to_numpy())
        rows.append({"cell": cell, "players": players, "strategy": strategy, "mean": mean, "ci95": half,
                     "n": len(group)})
    return pd.DataFrame(rows)


def paired_differences(table: pd.DataFrame, value: str, baseline: str) -> pd.DataFrame:
    """Per cell and strategy: the mean difference to `baseline` in the same seat on the same deal.

    With rotated seating every deal is played with every strategy in every seat, so each
    (deal, seat) pairs the strategy with the baseline; a strategy in several seats of a lineup is
    averaged first. Decisive when the 95% interval excludes 0.
    """
    key = "hand" if "hand" in table.columns else "match"
    rows = []
    for (cell, players), group in table.groupby(["cell", "players"], sort=True):
        wide = group.pivot_table(index=[key, "seat"], columns="strategy", values=value, aggfunc="mean")
        if baseline not in wide.columns:
            continue
        for strategy in wide.columns:
            if strategy == baseline:
                continue
            diff = (wide[strategy] - wide[baseline]).dropna().to_numpy()
            mean, half = mean_ci(diff)
            rows.append({"cell": cell, "players": players, "strategy": strategy, "baseline": baseline,
                         "difference": mean, "ci95": half, "decisive": bool(abs(mean) > half), "n": len(diff)})
    return pd.DataFrame(rows)


def seat_effect(table: pd.DataFrame, value: str) -> pd.DataFrame:
    """Per cell and seat: the mean of `value`, whoever sits there (seat position effect)."""
    rows = []
    for (cell, seat), group in table.groupby(["cell", "seat"], sort=True):
        mean, half = mean_ci(group[value].to_numpy(dtype=np.float64))
        rows.append({"cell": cell, "seat": seat, "mean": mean, "ci95": half, "n": len(group)})
    return pd.DataFrame(rows)


def markdown(frame: pd.DataFrame) -> str:
    """A table as GitHub Markdown, columns only (reset the index first to show it)."""
    head = "| " + " | ".join(map(str, frame.columns)) + " |\n|" + "---|" * len(frame.columns) + "\n"
    return head + "\n".join("| " + " | ".join(str(v) for v in row) + " |" for row in frame.itertuples(index=False))
