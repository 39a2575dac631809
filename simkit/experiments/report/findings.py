"""The experiment report's "In short": its answer in a few sentences, read off its own tables."""

import pandas as pd

from simkit.experiments.report.summary import paired_table, title_of
from simkit.games import Words
from simkit.stats import notation


def findings(stats: dict[str, pd.DataFrame], baseline: str, said: Words) -> list[str]:
    """The report's answer in a few sentences, read off its own tables (`said`: the main
    measure's words)."""
    lines = []
    means = stats[title_of(stats)]
    noun = said.share_of
    pairs = stats.get("Head to head (tournament)")
    if pairs is not None:  # each cell is another pairing: rank by head-to-head results instead
        for players, group in pairs.groupby("players"):
            rank = group.groupby("strategy").agg(beats=("beats", "mean"), opponents=("opponent", "count"),
                                                 decisive=("low", lambda low: int((low > 0.5).sum())))
            best = rank["beats"].idxmax()
            lines.append(f"{players} players, head to head: {best} beats its opponents on "
                         f"{100 * rank.loc[best, 'beats']:.1f}% of deals on average, decisively more than half "
                         f"against {rank.loc[best, 'decisive']} of {rank.loc[best, 'opponents']}.")
        means = means.iloc[0:0]
    mixed = means.groupby("cell")["strategy"].transform("nunique") > 1
    if mixed.any():  # a table of one strategy says nothing about which is better
        means = means[mixed]
    donkey = stats.get("Became the donkey (E-Z-E-L)")
    if noun and 0 < means["cell"].nunique() <= 6 and "Parameter sweep" not in stats:
        for cell, group in means.groupby("cell"):  # Ezelen, a few tables: each ranked
            ranked = group.sort_values("mean")
            text = ", ".join(f"{r.strategy} {notation.percent(r.mean, r.ci95)}" for r in ranked.itertuples())
            line = f"Table {cell} ({group['players'].iloc[0]} players), {noun} lost: {text}"
            if donkey is not None and len(donkey):
                d = donkey[donkey["cell"] == cell].sort_values("donkey")
                line += "; the donkey: " + ", ".join(
                    f"{r.strategy} {notation.share(r.donkey, r.donkey_low, r.donkey_high)}" for r in d.itertuples())
            lines.append(line + ".")
        means = means.iloc[0:0]
    for players, group in means.groupby("players"):
        best = group.loc[group["mean"].idxmin()]
        where = f" (cell {best['cell']})" if group["cell"].nunique() > 1 else ""
        if not noun:
            lines.append(f"{players} players: {said.fewest} for {best['strategy']}{where}, "
                         f"{best['mean']:.2f} ± {best['ci95']:.2f} per {said.deal} and seat.")
        else:
            lines.append(f"{players} players: fewest {noun} lost by {best['strategy']}{where}, "
                         f"{notation.percent(best['mean'], best['ci95'])}.")
    diffs = paired_table(stats)
    if diffs is not None and len(diffs):
        better = diffs[diffs["decisive"] & (diffs["difference"] < 0)]
        worse = diffs[diffs["decisive"] & (diffs["difference"] > 0)]
        lines.append(f"Against {baseline} on the same deals: {len(better)} of {len(diffs)} comparisons decisively "
                     f"better, {len(worse)} decisively worse, {len(diffs) - len(better) - len(worse)} undecided"
                     + (f" ({_named(diffs, better, worse, bool(noun))})." if len(diffs) <= 8 else "."))
    sweep = stats.get("Parameter sweep")
    if sweep is not None and len(sweep):
        for (param, players, strategy), curve in sweep.groupby(["parameter", "players", "strategy"]):
            if curve["value"].nunique() < 2 or not param.startswith(f"{strategy.split(' (', 1)[0]}."):
                continue
            best = curve.loc[curve["estimate"].idxmin()]
            rivals = curve[(curve["estimate"] - curve["ci95"] <= best["estimate"] + best["ci95"])
                           & (curve["value"] != best["value"])]
            tie = (f"; intervals overlapping it: {', '.join(f'{v:g}' for v in rivals['value'])}" if len(rivals)
                   else "; no other value's interval overlaps it")
            amount = (notation.percent(best["estimate"], best["ci95"], sign=best["measure"].startswith("difference"))
                      if noun else notation.difference(best["estimate"], best["ci95"]))
            lines.append(f"{strategy}, {players} players: best at {param} = {best['value']:g} "
                         f"({best['measure']} {amount}){tie}.")
    return lines


def _named(diffs: pd.DataFrame, better: pd.DataFrame, worse: pd.DataFrame, percent: bool) -> str:
    """Each comparison by name: better, worse, undecided, with its difference ± its interval
    (`percent`: in percentage points)."""
    many = diffs["cell"].nunique() > 1

    def name(r) -> str:
        return (f"{r.strategy}{f' at table {r.cell}' if many else ''} "
                f"{notation.value(r.difference, r.ci95, percent, sign=True)}")

    rest = diffs[~diffs.index.isin(better.index) & ~diffs.index.isin(worse.index)]
    parts = [(f"{word}: " + ", ".join(name(r) for r in frame.sort_values("difference").itertuples()))
             for word, frame in (("better", better), ("worse", worse), ("undecided", rest)) if len(frame)]
    return "; ".join(parts)
