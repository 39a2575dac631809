"""Statistics of a results table, each number with its interval and its n."""

import numpy as np
import pandas as pd

from reports.stats import mean_ci, wilson


def strategy_means(table: pd.DataFrame, value: str, by_cell: bool = True) -> pd.DataFrame:
    """Per cell (or, pooled over cells, per player count) and strategy: the mean of `value` per hand
    (or match) and seat, ± 95% CI, n."""
    keys = ["cell", "players", "strategy"] if by_cell else ["players", "strategy"]
    rows = []
    for group_key, group in table.groupby(keys, sort=True, observed=True):
        mean, half = mean_ci(group[value].to_numpy())
        rows.append({**dict(zip(keys, group_key)), "mean": mean, "ci95": half, "n": len(group)})
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
        wide = group.pivot_table(index=[key, "seat"], columns="strategy", values=value, aggfunc="mean", observed=True)
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


def shares(table: pd.DataFrame) -> pd.DataFrame:
    """Per cell and strategy: how often the seat went out (no penalty) and held the ass at the end,
    each with its Wilson interval (single hands only)."""
    rows = []
    for (cell, players, strategy), group in table.groupby(["cell", "players", "strategy"], sort=True, observed=True):
        n = len(group)
        out, out_lo, out_hi = wilson(int((group["penalty"] == 0).sum()), n)
        ass, ass_lo, ass_hi = wilson(int(group["ass_end"].sum()), n)
        rows.append({"cell": cell, "players": players, "strategy": strategy, "out": out, "out_low": out_lo,
                     "out_high": out_hi, "ass": ass, "ass_low": ass_lo, "ass_high": ass_hi, "n": n})
    return pd.DataFrame(rows)


def win_rates(table: pd.DataFrame) -> pd.DataFrame:
    """Per cell and strategy: the share of matches won (a shared win counts its share), with its
    Wilson interval; n counts match-seats."""
    rows = []
    for (cell, players, strategy), group in table.groupby(["cell", "players", "strategy"], sort=True, observed=True):
        p, lo, hi = wilson(float(group["win"].sum()), len(group))
        rows.append({"cell": cell, "players": players, "strategy": strategy, "win": p, "low": lo, "high": hi,
                     "n": len(group)})
    return pd.DataFrame(rows)


def pairwise(table: pd.DataFrame, value: str) -> pd.DataFrame:
    """Head to head, for a tournament (two strategies per cell): how often `a` beats `b` on the same
    deal — fewer points per seat than `b` over the whole table (ties count half) — with its Wilson
    interval. For matches, the share of the match wins that went to `a`."""
    key = "hand" if "hand" in table.columns else "match"
    rows = []
    for (cell, players), group in table.groupby(["cell", "players"], sort=True):
        names = list(group["strategy"].astype(str).unique())
        if len(names) != 2:
            continue
        a, b = names
        strategy = group["strategy"].astype(str)
        if value == "total":  # the share of each match's win that went to a's seats (b has the rest)
            score = group["win"].where(strategy == a, 0.0).groupby([group[key], group["rotation"]]).sum()
        else:
            per = group.groupby([key, "rotation", strategy])[value].mean().unstack()
            score = (per[a] < per[b]) + 0.5 * (per[a] == per[b])
        k, n = float(score.sum()), len(score)
        for x, y, wins in ((a, b, k), (b, a, n - k)):
            p, lo, hi = wilson(wins, n)
            rows.append({"cell": cell, "players": players, "strategy": x, "opponent": y, "beats": p, "low": lo,
                         "high": hi, "n": n})
    return pd.DataFrame(rows)


def sweep_curves(table: pd.DataFrame, value: str, baseline: str) -> pd.DataFrame:
    """For each swept parameter (a column `strategy.parameter`): per value and player count, every
    strategy's paired difference to `baseline` when the baseline plays (else its mean). The swept
    strategy is named without its changing parameter, so its points form one curve."""
    rows = []
    for column in [c for c in table.columns if "." in c]:
        name = column.split(".", 1)[0]
        for (players, x), group in table.groupby(["players", column], sort=True):
            labels = group["strategy"].astype(str)
            has_baseline = baseline in set(labels)
            if has_baseline:
                diffs = paired_differences(group, value, baseline)
                points = [(r.strategy, r.difference, r.ci95, r.n) for r in diffs.itertuples()]
            else:
                points = [(s, *mean_ci(group.loc[labels == s, value].to_numpy()), int((labels == s).sum()))
                          for s in sorted(set(labels))]
            for strategy, y, half, n in points:
                curve = name if strategy == name or str(strategy).startswith(name + "(") else strategy
                rows.append({"parameter": column, "value": x, "players": players, "strategy": curve, "estimate": y,
                             "ci95": half, "n": n,
                             "measure": f"difference to {baseline}" if has_baseline else f"mean {value}"})
    out = pd.DataFrame(rows)
    return out.sort_values(["parameter", "players", "strategy", "value"], ignore_index=True) if len(out) else out
