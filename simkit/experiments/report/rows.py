"""The report's tables from a per-hand results table (`simkit run --rows`): for users' own
analyses of the rows, and as an independent check of the tables the report computes from the
run's statistics (report/tables.py), which they equal to rounding.

A mean is taken over rows; its interval over deals (a hand, or a match): the rows of one deal —
its seats, its rotated replays, an Ezelen match's rounds — share the same cards and are not
independent, the deals are. So each deal is one cluster (a ratio estimator: with equal rows per
deal, the plain mean of the deals' means and its standard error), and n counts the deals.
"""

import numpy as np
import pandas as pd

from simkit import games
from simkit.experiments.report.tables import curves
from simkit.stats.intervals import Z95, half_width, share_interval


def deal_key(table: pd.DataFrame) -> str:
    """The independent unit: a hand, a match (its rounds or hands belong together), or a round."""
    return next(key for key in games.deal_columns() if key in table.columns)


def _codes(frame: pd.DataFrame, columns: list[str]) -> tuple[np.ndarray, list]:
    """One int64 code per row for the combination of `columns` (sorted values), and each
    column's values: fast numpy grouping of tens of millions of rows."""
    code = np.zeros(len(frame), dtype=np.int64)
    values = []
    for column in columns:
        codes, uniques = _factor(frame[column])
        code = code * len(uniques) + codes
        values.append(uniques)
    return code, values


def _factor(column: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Codes 0..k-1 and the k values they stand for (some possibly unused), without hashing where
    the column's type allows: a categorical's own codes, a small integer range as offsets."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        return column.cat.codes.to_numpy().astype(np.int64), np.asarray(column.cat.categories)
    x = column.to_numpy()
    if np.issubdtype(x.dtype, np.integer) and len(x):
        low, high = int(x.min()), int(x.max())
        if high - low < 10_000_000:
            return x.astype(np.int64) - low, np.arange(low, high + 1)
    return pd.factorize(column, sort=True)


def _decode(code: np.ndarray, values: list, columns: list[str]) -> pd.DataFrame:
    out = {}
    for column, uniques in zip(reversed(columns), reversed(values)):
        out[column] = np.asarray(uniques)[code % len(uniques)]
        code = code // len(uniques)
    return pd.DataFrame({c: out[c] for c in columns})


def _deal_means(frame: pd.DataFrame, by: list[str], value: pd.Series | np.ndarray) -> tuple:
    """Each deal's sum of `value` and count of rows within each `by` group: (group codes, sums,
    counts, group values)."""
    group, values = _codes(frame, by)
    deal, deals = _factor(frame[deal_key(frame)])
    size = max(len(deals), 1)
    key = group * size + deal
    x = np.asarray(value, dtype=np.float64)
    slots = int(np.prod([len(v) for v in values])) * size
    if slots <= 50_000_000:  # dense: counting beats hashing
        count = np.bincount(key, minlength=slots)
        present = np.flatnonzero(count)
        return present // size, np.bincount(key, x, minlength=slots)[present], count[present], values
    sums = pd.Series(x).groupby(key, sort=True).agg(["sum", "count"])
    return sums.index.to_numpy() // size, sums["sum"].to_numpy(), sums["count"].to_numpy(), values


def _ratio(group: np.ndarray, sums: np.ndarray, counts: np.ndarray) -> tuple:
    """Per group: the mean over its rows, Σ sums / Σ counts, with the standard error of that ratio
    over deals (each deal one cluster; with equal rows per deal, the usual mean of the deals'
    means and its standard error). Returns (groups present, mean, half-width of 95%, deals)."""
    deals = np.bincount(group)
    present = np.flatnonzero(deals)
    total, rows = np.bincount(group, sums), np.bincount(group, counts)
    mean = total / np.maximum(rows, 1)
    residual = np.bincount(group, (sums - mean[group] * counts) ** 2)
    n = deals[present]
    with np.errstate(divide="ignore", invalid="ignore"):
        se = np.sqrt(n * residual[present] / np.maximum(n - 1, 1)) / rows[present]
    half = np.where(n > 1, Z95 * se, np.inf)
    return present, mean[present], half, n


def _summarise(group: np.ndarray, sums: np.ndarray, counts: np.ndarray, values: list, by: list[str]) -> pd.DataFrame:
    """Mean, 95% half-width and n deals per group."""
    present, mean, half, n = _ratio(group, sums, counts)
    out = _decode(present, values, by)
    out["mean"], out["ci95"], out["n"] = mean, half, n
    return out


def _over_deals(table: pd.DataFrame, by: list[str], value) -> pd.DataFrame:
    """Per `by` group: the mean of `value` (a column name, or one number per row) over its rows,
    the 95% interval taken over deals (a deal's rows share its cards); n deals."""
    group, sums, counts, values = _deal_means(table, by, table[value] if isinstance(value, str) else value)
    return _summarise(group, sums, counts, values, by)


def _share_over_deals(table: pd.DataFrame, by: list[str], flag, name: str) -> pd.DataFrame:
    """A share over the rows of each group, with its 95% interval over deals (a deal's rows share
    its cards): Wilson's for the effective number of trials (stats.intervals.share_interval)."""
    group, sums, counts, values = _deal_means(table, by, flag)
    present, share, half, n = _ratio(group, sums, counts)
    out = _decode(present, values, by)
    trials = np.bincount(group, counts)[present]
    rows = [share_interval(p, (h / Z95) ** 2, t) for p, h, t in zip(share, half, trials)]
    out[name] = share
    out[[f"{name}_low", f"{name}_high"]] = pd.DataFrame(rows, index=out.index)
    out["n"] = n
    return out


def _mean_or_share(table: pd.DataFrame, by: list[str], value: str) -> pd.DataFrame:
    """`_over_deals`, but a share (Ezelen's rounds lost: a flag per row) with a share's interval, as
    its ± (the interval's longer side)."""
    if table[value].dtype != bool:
        return _over_deals(table, by, value)
    out = _share_over_deals(table, by, table[value].to_numpy(), "mean")
    out["ci95"] = [half_width(*r) for r in zip(out["mean"], out["mean_low"], out["mean_high"])]
    return out.drop(columns=["mean_low", "mean_high"])[by + ["mean", "ci95", "n"]]


def strategy_means(table: pd.DataFrame, value: str, by_cell: bool = True) -> pd.DataFrame:
    """Per cell (or, pooled over cells, per player count) and strategy: the mean of `value` per
    hand (or match) and seat, ± 95% CI over deals, n deals."""
    # every cell of a run plays the same deals (same seed, same hand numbers): pooled, they are
    # still one deal each
    return _mean_or_share(table, ["cell", "players", "strategy"] if by_cell else ["players", "strategy"], value)


def paired_differences(table: pd.DataFrame, value: str, baseline: str) -> pd.DataFrame:
    """Per cell and strategy: the difference of its mean to `baseline`'s on the same deals, with
    its 95% interval over deals (delta method: each deal's linearised difference
    (S_a − R_a C_a)/ΣC_a − (S_b − R_b C_b)/ΣC_b, where S and C are the deal's sum and rows of each
    and R = ΣS/ΣC), decisive when it excludes 0. Only where the baseline shares the strategy's
    seats (rotated seating)."""
    columns = ["cell", "players", "strategy", "baseline", "difference", "ci95", "decisive", "n"]
    key = deal_key(table)
    rows = []
    for (cell, players), group in table.groupby(["cell", "players"], sort=True, observed=True):
        strategy = group["strategy"].astype(str)
        if baseline not in set(strategy):
            continue
        base_seats = set(group.loc[strategy == baseline, "seat"])
        per = group.groupby([key, strategy], observed=True)[value].agg(["sum", "count"]).unstack()
        for name in dict.fromkeys(strategy):
            if name == baseline or not set(group.loc[strategy == name, "seat"]) <= base_seats:
                continue
            sa, ca = per[("sum", name)].to_numpy(float), per[("count", name)].to_numpy(float)
            sb, cb = per[("sum", baseline)].to_numpy(float), per[("count", baseline)].to_numpy(float)
            ra, rb = sa.sum() / ca.sum(), sb.sum() / cb.sum()
            e = (sa - ra * ca) / ca.sum() - (sb - rb * cb) / cb.sum()
            n = len(e)
            half = Z95 * np.sqrt(n / (n - 1) * (e ** 2).sum()) if n > 1 else np.inf
            rows.append({"cell": cell, "players": players, "strategy": name, "baseline": baseline,
                         "difference": ra - rb, "ci95": half, "decisive": abs(ra - rb) > half, "n": n})
    return pd.DataFrame(rows, columns=columns)


def seat_effect(table: pd.DataFrame, value: str) -> pd.DataFrame:
    """Per cell and seat: the mean of `value`, whoever sits there (seat position effect)."""
    return _mean_or_share(table, ["cell", "seat"], value)


def shares(table: pd.DataFrame) -> pd.DataFrame:
    """Per cell and strategy: how often the seat went out (no penalty) and held the ass at the end,
    each with its interval over deals (single hands only)."""
    by = ["cell", "players", "strategy"]
    out = _share_over_deals(table, by, (table["penalty"] == 0).to_numpy(), "out")
    ass = _fair(_share_over_deals(table, by, table["ass_end"].to_numpy(), "ass"), "ass")
    return out.drop(columns="n").merge(ass, on=by)


def win_rates(table: pd.DataFrame) -> pd.DataFrame:
    """Per cell and strategy: the share of matches won (a shared win counts its share), with its
    interval over deals."""
    out = _fair(_share_over_deals(table, ["cell", "players", "strategy"], table["win"].to_numpy(), "win"), "win")
    return out.rename(columns={"win_low": "low", "win_high": "high"})


def pairwise(table: pd.DataFrame, value: str) -> pd.DataFrame:
    """Head to head, for a tournament (two strategies per cell): how often `a` beats `b` on the same
    deal — fewer points per seat than `b` over the whole table (ties count half) — with its
    interval over deals. For matches, `a`'s share of the win per seat against `b`'s (with an odd
    table `a` has one seat more, which must not count as skill)."""
    key = deal_key(table)
    rows = []
    for (cell, players), group in table.groupby(["cell", "players"], sort=True):
        names = list(group["strategy"].astype(str).unique())
        if len(names) != 2:
            continue
        a, b = names
        strategy = group["strategy"].astype(str)
        if value == "total" and "win" in group.columns:  # each side's wins per seat over the matches, a's part
            per = group.groupby([key, strategy])["win"].mean().unstack()
            n = len(per)
            p = float(per[a].sum() / (per[a].sum() + per[b].sum()))
            low, high = share_interval(p, p * (1 - p) / n, n)
        else:
            per = group.groupby([key, "rotation", strategy])[value].mean().unstack()
            per_deal = ((per[a] < per[b]) + 0.5 * (per[a] == per[b])).groupby(level=0).mean().to_numpy()
            n, p = len(per_deal), float(per_deal.mean())
            variance = ((per_deal - p) ** 2).sum() / (n - 1) / n if n > 1 else np.inf
            low, high = share_interval(p, variance, len(per))  # trials: the replays
        for x, y, beats, lo, hi in ((a, b, p, low, high), (b, a, 1 - p, 1 - high, 1 - low)):
            rows.append({"cell": cell, "players": players, "strategy": x, "opponent": y, "beats": beats, "low": lo,
                         "high": hi, "n": n})
    return pd.DataFrame(rows)


def sweep_curves(table: pd.DataFrame, value: str, baseline: str) -> pd.DataFrame:
    """For each swept parameter (a column `strategy.parameter`): per value and player count, every
    strategy's paired difference to `baseline` when the baseline plays (else its mean). The swept
    strategy is named without its changing parameter, so its points form one curve; with several
    swept parameters, each setting of the others is a curve of its own. (Each cell is one point.)"""
    swept = [c for c in table.columns if "." in c]
    if not swept:
        return pd.DataFrame()
    points = paired_differences(table, value, baseline).rename(columns={"difference": "estimate"})
    measure = f"difference to {baseline}"
    if not len(points):
        points, measure = strategy_means(table, value).rename(columns={"mean": "estimate"}), f"mean {value}"
    where = table.groupby("cell", sort=True)[swept].first()
    return curves(points, swept, {cell: row.to_dict() for cell, row in where.iterrows()}, measure)


def share_by_strategy(table: pd.DataFrame, column: str, name: str, rows: pd.Series | None = None) -> pd.DataFrame:
    """Per cell and strategy: the share of its rows where `column` holds (e.g. lost the round),
    with its interval over deals; `rows` picks the rows that count."""
    frame = table if rows is None else table[rows]
    return _share_over_deals(frame, ["cell", "players", "strategy"], frame[column].to_numpy(), name)


def donkey_rates(table: pd.DataFrame) -> pd.DataFrame:
    """Ezelen (Z7): per cell and strategy, the share of matches in which its seat became the donkey,
    with its interval over deals."""
    return _fair(share_by_strategy(table, "donkey", "donkey", table["round"] == 0), "donkey")


def _fair(frame: pd.DataFrame, name: str) -> pd.DataFrame:
    """A share of which exactly one seat of each deal counts, with its fair value (1/n) and its
    difference to it beside it, as the statistics' tables have them (report/tables.py)."""
    fair = 1 / frame["players"].astype(float)
    return frame.assign(**{f"{name} fair": fair, f"{name} vs fair": frame[name] - fair,
                           f"{name} vs fair ±": [half_width(*r) for r in zip(frame[name], frame[f"{name}_low"],
                                                                               frame[f"{name}_high"])]})


def lineup_names(table: pd.DataFrame) -> pd.Series:
    """Each cell's strategies, in seat order of its first rotation, as one text."""
    return table[table["rotation"] == 0].groupby("cell", observed=True)["strategy"].agg(
        lambda s: ", ".join(dict.fromkeys(s.astype(str))))


def _with_lineup(frame: pd.DataFrame, table: pd.DataFrame) -> pd.DataFrame:
    """Name each cell's strategies beside a per-cell statistic (a round belongs to the whole table)."""
    frame.insert(2, "strategies", frame["cell"].map(lineup_names(table)))
    return frame


def round_outcomes(table: pd.DataFrame) -> pd.DataFrame:
    """Ezelen: per cell, how rounds end (last copier, tempo, tie, stalled), each share with its
    interval over deals."""
    one = table[table["seat"] == 0]  # a row per round
    parts = []
    for reason in one["reason"].cat.categories if hasattr(one["reason"], "cat") else sorted(set(one["reason"])):
        part = _share_over_deals(one, ["cell", "players"], (one["reason"] == reason).to_numpy(), "share")
        part.insert(2, "ended by", reason)
        parts.append(part)
    return _with_lineup(pd.concat(parts).sort_values(["cell", "ended by"], ignore_index=True), table)


def loss_causes(table: pd.DataFrame) -> pd.DataFrame:
    """Ezelen: per cell and strategy, the share of rounds it lost as the last to copy and through
    tempo faults, with intervals over deals."""
    frame = table.assign(by_last=table["lost"] & (table["reason"] == "last"),
                         by_tempo=table["lost"] & (table["reason"] == "tempo"))
    last = share_by_strategy(frame, "by_last", "last")
    tempo = share_by_strategy(frame, "by_tempo", "tempo")
    return last.drop(columns="n").merge(tempo, on=["cell", "players", "strategy"])


def first_signal(table: pd.DataFrame) -> pd.DataFrame:
    """Ezelen: per cell, the turn of the first signal (rounds with one) ± 95% CI over deals, and
    the share of rounds that ended before any signal."""
    one = table[table["seat"] == 0]
    signalled = one[one["first_signal"] >= 0]
    out = _over_deals(signalled, ["cell", "players"], "first_signal").rename(columns={"n": "n signalled"})
    silent = _share_over_deals(one, ["cell", "players"], (one["first_signal"] < 0).to_numpy(), "no signal")
    return _with_lineup(out.merge(silent, on=["cell", "players"], how="right"), table)
