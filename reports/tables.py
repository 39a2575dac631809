"""Statistics of a results table, each number with its interval and its n.

The unit of every interval is the deal (a hand, or a match): the rows of one deal — its seats and
its rotated replays — share the same cards and are not independent, so each deal's rows are
averaged first and the interval is taken over deals, which are. n counts those deals.
"""

import numpy as np
import pandas as pd

from reports.stats import Z95, wilson


def deal_key(table: pd.DataFrame) -> str:
    """The independent unit: a hand, a match (its rounds or hands belong together), or a round."""
    return next(key for key in ("hand", "match", "round") if key in table.columns)


def _over_deals(per_deal: pd.Series, by: list[str]) -> pd.DataFrame:
    """Mean, 95% half-width and n over the deals (the last index level) for each `by` group."""
    stats = per_deal.groupby(level=by, sort=True, observed=True).agg(["mean", "std", "count"])
    half = Z95 * stats["std"].fillna(np.inf) / np.sqrt(stats["count"])
    return pd.DataFrame({"mean": stats["mean"], "ci95": half, "n": stats["count"]}).reset_index()


def _wilson_over_deals(per_deal: pd.Series, by: list[str], name: str) -> pd.DataFrame:
    """A share with its Wilson interval, from each deal's share (conservative: a deal's averaged
    share varies no more than one Bernoulli trial with the same mean)."""
    stats = per_deal.groupby(level=by, sort=True, observed=True).agg(["sum", "count"])
    rows = [wilson(k, int(n)) for k, n in zip(stats["sum"], stats["count"])]
    out = pd.DataFrame(rows, columns=[name, f"{name}_low", f"{name}_high"], index=stats.index)
    out["n"] = stats["count"]
    return out.reset_index()


def strategy_means(table: pd.DataFrame, value: str, by_cell: bool = True) -> pd.DataFrame:
    """Per cell (or, pooled over cells, per player count) and strategy: the mean of `value` per
    hand (or match) and seat, ± 95% CI over deals, n deals."""
    by = ["cell", "players", "strategy"] if by_cell else ["players", "strategy"]
    # every cell of a run plays the same deals (same seed, same hand numbers): pooled, they are
    # still one deal each
    per_deal = table.groupby(by + [deal_key(table)], sort=True, observed=True)[value].mean()
    return _over_deals(per_deal, by)


def paired_differences(table: pd.DataFrame, value: str, baseline: str) -> pd.DataFrame:
    """Per cell and strategy: the mean difference to `baseline` in the same seat on the same deal.

    With rotated seating every deal is played with every strategy in every seat, so each
    (deal, seat) pairs the strategy with the baseline; a strategy in several seats of a lineup is
    averaged first, then its seats of the deal. Decisive when the 95% interval excludes 0.
    """
    key = deal_key(table)
    parts = []
    for (cell, players), group in table.groupby(["cell", "players"], sort=True):
        wide = group.pivot_table(index=[key, "seat"], columns="strategy", values=value, aggfunc="mean", observed=True)
        if baseline not in wide.columns:
            continue
        for strategy in wide.columns:
            if strategy == baseline:
                continue
            diff = (wide[strategy] - wide[baseline]).dropna().groupby(level=key).mean()
            parts.append(pd.DataFrame({"cell": cell, "players": players, "strategy": strategy, key: diff.index,
                                       "d": diff.to_numpy()}))
    if not parts:
        return pd.DataFrame(columns=["cell", "players", "strategy", "baseline", "difference", "ci95", "decisive", "n"])
    diffs = pd.concat(parts).set_index(["cell", "players", "strategy", key])["d"]
    out = _over_deals(diffs, ["cell", "players", "strategy"]).rename(columns={"mean": "difference"})
    out.insert(3, "baseline", baseline)
    out.insert(6, "decisive", out["difference"].abs() > out["ci95"])
    return out


def seat_effect(table: pd.DataFrame, value: str) -> pd.DataFrame:
    """Per cell and seat: the mean of `value`, whoever sits there (seat position effect)."""
    per_deal = table.groupby(["cell", "seat", deal_key(table)], sort=True)[value].mean()
    return _over_deals(per_deal, ["cell", "seat"])


def shares(table: pd.DataFrame) -> pd.DataFrame:
    """Per cell and strategy: how often the seat went out (no penalty) and held the ass at the end,
    each with its Wilson interval (single hands only)."""
    keys = ["cell", "players", "strategy", "hand"]
    frame = table[keys].assign(out=table["penalty"] == 0, ass=table["ass_end"])
    per_deal = frame.groupby(keys, sort=True, observed=True)[["out", "ass"]].mean()
    by = ["cell", "players", "strategy"]
    out = _wilson_over_deals(per_deal["out"], by, "out")
    ass = _wilson_over_deals(per_deal["ass"], by, "ass")
    return out.merge(ass.drop(columns="n"), on=by)


def win_rates(table: pd.DataFrame) -> pd.DataFrame:
    """Per cell and strategy: the share of matches won (a shared win counts its share), with its
    Wilson interval over matches."""
    by = ["cell", "players", "strategy"]
    per_match = table.groupby(by + ["match"], sort=True, observed=True)["win"].mean()
    out = _wilson_over_deals(per_match, by, "win")
    return out.rename(columns={"win_low": "low", "win_high": "high"})


def pairwise(table: pd.DataFrame, value: str) -> pd.DataFrame:
    """Head to head, for a tournament (two strategies per cell): how often `a` beats `b` on the same
    deal — fewer points per seat than `b` over the whole table (ties count half) — with its Wilson
    interval over deals. For matches, the share of the match wins that went to `a`."""
    key = deal_key(table)
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
        per_deal = score.groupby(level=0).mean()
        k, n = float(per_deal.sum()), len(per_deal)
        for x, y, wins in ((a, b, k), (b, a, n - k)):
            p, lo, hi = wilson(wins, n)
            rows.append({"cell": cell, "players": players, "strategy": x, "opponent": y, "beats": p, "low": lo,
                         "high": hi, "n": n})
    return pd.DataFrame(rows)


def sweep_curves(table: pd.DataFrame, value: str, baseline: str) -> pd.DataFrame:
    """For each swept parameter (a column `strategy.parameter`): per value and player count, every
    strategy's paired difference to `baseline` when the baseline plays (else its mean). The swept
    strategy is named without its changing parameter, so its points form one curve; with several
    swept parameters, each setting of the others is a curve of its own."""
    rows = []
    swept = [c for c in table.columns if "." in c]
    for column in swept:
        name = column.split(".", 1)[0]
        others = [c for c in swept if c != column]
        for key, group in table.groupby(["players", *others, column], sort=True):
            players, *fixed, x = key
            setting = ", ".join(f"{c.split('.', 1)[1]}={v:g}" for c, v in zip(others, fixed))
            has_baseline = baseline in set(group["strategy"].astype(str))
            if has_baseline:
                points = paired_differences(group, value, baseline).rename(columns={"difference": "estimate"})
            else:
                points = strategy_means(group, value).rename(columns={"mean": "estimate"})
            for r in points.itertuples():
                curve = name if r.strategy == name or str(r.strategy).startswith(name + "(") else str(r.strategy)
                rows.append({"parameter": column, "value": x, "players": players,
                             "strategy": f"{curve} ({setting})" if setting else curve, "estimate": r.estimate,
                             "ci95": r.ci95, "n": r.n,
                             "measure": f"difference to {baseline}" if has_baseline else f"mean {value}"})
    out = pd.DataFrame(rows)
    return out.sort_values(["parameter", "players", "strategy", "value"], ignore_index=True) if len(out) else out


def share_by_strategy(table: pd.DataFrame, column: str, name: str, rows: pd.Series | None = None) -> pd.DataFrame:
    """Per cell and strategy: the share of its rows where `column` holds (e.g. lost the round),
    with its Wilson interval over deals; `rows` picks the rows that count."""
    frame = table if rows is None else table[rows]
    by = ["cell", "players", "strategy"]
    per_deal = frame.groupby(by + [deal_key(frame)], sort=True, observed=True)[column].mean()
    return _wilson_over_deals(per_deal, by, name)


def donkey_rates(table: pd.DataFrame) -> pd.DataFrame:
    """Ezelen (Z7): per cell and strategy, the share of matches in which its seat became the donkey,
    with its Wilson interval over matches."""
    return share_by_strategy(table, "donkey", "donkey", table["round"] == 0)


def _with_lineup(frame: pd.DataFrame, table: pd.DataFrame) -> pd.DataFrame:
    """Name each cell's strategies beside a per-cell statistic (a round belongs to the whole table)."""
    names = table[table["rotation"] == 0].groupby("cell", observed=True)["strategy"].agg(
        lambda s: ", ".join(dict.fromkeys(s.astype(str))))
    frame.insert(2, "strategies", frame["cell"].map(names))
    return frame


def round_outcomes(table: pd.DataFrame) -> pd.DataFrame:
    """Ezelen: per cell, how rounds end (last copier, tempo, tie, stalled), each share with its
    Wilson interval over deals."""
    one = table[table["seat"] == 0]  # a row per round
    key = deal_key(one)
    parts = []
    for reason in one["reason"].cat.categories if hasattr(one["reason"], "cat") else sorted(set(one["reason"])):
        per_deal = (one["reason"] == reason).groupby([one["cell"], one["players"], one[key]]).mean()
        part = _wilson_over_deals(per_deal, ["cell", "players"], "share")
        part.insert(2, "ended by", reason)
        parts.append(part)
    return _with_lineup(pd.concat(parts).sort_values(["cell", "ended by"], ignore_index=True), table)


def loss_causes(table: pd.DataFrame) -> pd.DataFrame:
    """Ezelen: per cell and strategy, the share of rounds it lost as the last to copy and through
    tempo faults, with Wilson intervals over deals."""
    frame = table.assign(by_last=table["lost"] & (table["reason"] == "last"),
                         by_tempo=table["lost"] & (table["reason"] == "tempo"))
    last = share_by_strategy(frame, "by_last", "last")
    tempo = share_by_strategy(frame, "by_tempo", "tempo")
    return last.drop(columns="n").merge(tempo, on=["cell", "players", "strategy"])


def first_signal(table: pd.DataFrame) -> pd.DataFrame:
    """Ezelen: per cell, the turn of the first signal (rounds with one) ± 95% CI over deals, and
    the share of rounds that ended before any signal."""
    one = table[table["seat"] == 0]
    key = deal_key(one)
    signalled = one[one["first_signal"] >= 0]
    per_deal = signalled.groupby(["cell", "players", key], sort=True)["first_signal"].mean()
    out = _over_deals(per_deal, ["cell", "players"])
    none = (one["first_signal"] < 0).groupby([one["cell"], one["players"], one[key]]).mean()
    silent = _wilson_over_deals(none, ["cell", "players"], "no signal")
    return _with_lineup(out.merge(silent.drop(columns="n"), on=["cell", "players"]), table)


def markdown(frame: pd.DataFrame) -> str:
    """A table as GitHub Markdown, columns only (reset the index first to show it)."""
    head = "| " + " | ".join(map(str, frame.columns)) + " |\n|" + "---|" * len(frame.columns) + "\n"
    return head + "\n".join("| " + " | ".join(str(v) for v in row) + " |" for row in frame.itertuples(index=False))
