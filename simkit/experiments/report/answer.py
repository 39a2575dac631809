"""The run's answer in one sentence: the best strategy, where it did best, and its margins over
the runner-up and over the baseline on the same deals, each with its 95% interval. The report
opens with it and `simkit run` ends with it."""

from simkit.experiments.report.tables import paired_differences, strategy_means, words
from simkit.experiments.statistics import Statistics
from simkit.games import Words
from simkit.stats import notation


def _where(stats: Statistics, cell: int) -> str:
    """A cell for a reader: its players, and its sweep point where the run has several cells."""
    if len(stats.layout.cells) == 1:
        return ""
    described = stats.layout.cells[cell]
    point = ", ".join(f"{k} = {v:g}" for k, v in described.get("sweep", {}).items())
    return f" (table {cell}: {described['players']} players{', ' + point if point else ''})"


def _amount(said: Words, x: float, half: float) -> str:
    if said.share_of:
        return f"{notation.percent(abs(x), half, sign=True)[1:]} percentage points"
    return notation.mean(abs(x), half, 2)


def _margin(said: Words, row, rival: str) -> str:
    fewer = "fewer" if row.difference < 0 else "more"
    sure = "" if row.decisive else ", not decisive"
    return f"{_amount(said, row.difference, row.ci95)} {fewer} than {rival}{sure}"


def _pair(diffs, cell: int, strategy: str):
    """`strategy`'s row at table `cell` of a paired-differences table, or None."""
    found = diffs[(diffs["cell"] == cell) & (diffs["strategy"] == strategy)]
    return next(found.itertuples(), None)


def answer(stats: Statistics, baseline: str) -> str:
    """One sentence. The best is the strategy furthest ahead of the baseline at a table they share
    (paired on the same deals); without the baseline, the lowest mean at a table of several."""
    said = words(stats)
    means = strategy_means(stats)
    means = means[means.groupby("cell")["strategy"].transform("nunique") > 1]
    if not len(means):
        return "Every table plays one strategy: there is nothing to compare."
    diffs = paired_differences(stats, baseline)
    if len(diffs) and (diffs["difference"] < 0).any():  # the strategy furthest ahead of the baseline
        top = diffs.loc[diffs["difference"].idxmin()]
        cell, best = int(top["cell"]), top["strategy"]
    elif len(diffs):  # the baseline does best wherever it plays: how close the nearest rival came
        near = diffs.loc[diffs["difference"].idxmin()]
        return (f"{baseline} (the baseline) does best at every table it plays; the closest rival, "
                f"{near['strategy']}{_where(stats, int(near['cell']))}, "
                f"comes within {_amount(said, near['difference'], near['ci95'])}"
                f"{'' if said.share_of else ' ' + said.unit} of it"
                f"{'' if near['decisive'] else ' (not decisive)'} "
                "(95% interval, paired on the same deals).")
    else:  # the baseline plays nowhere
        shared = means[means["cell"].isin(diffs["cell"])] if len(diffs) else means
        top = shared.loc[shared["mean"].idxmin()]
        cell, best = int(top["cell"]), top["strategy"]
    table = means[means["cell"] == cell].sort_values("mean")
    mine = table[table["strategy"] == best].iloc[0]
    runner_up = table[table["strategy"] != best]["strategy"].iloc[0]
    level = (f"loses {notation.percent(mine['mean'], mine['ci95'])} of its {said.share_of}" if said.share_of
             else f"scores {notation.mean(mine['mean'], mine['ci95'], 2)} {said.unit}")
    margins = []
    for rival, name in ((runner_up, f"the runner-up ({runner_up})"), (baseline, f"the baseline ({baseline})")):
        if rival == best or (rival == baseline and rival == runner_up and margins):
            continue
        row = _pair(diffs if rival == baseline else paired_differences(stats, rival), cell, best)
        if row is not None:
            label = f"the runner-up, the baseline ({rival})" if rival == runner_up == baseline else name
            margins.append(_margin(said, row, label))
    role = " (the baseline)" if best == baseline else ""
    return (f"{best}{role} does best{_where(stats, cell)}: it {level}, " + " and ".join(margins)
            + " (95% intervals, paired on the same deals).")

