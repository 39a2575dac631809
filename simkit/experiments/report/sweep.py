"""The answer to a sweep (docs/reports.md): for each swept strategy and player count, its best
point (the lowest paired difference to the baseline on the same deals, or the lowest mean where
the baseline does not play beside it), that estimate with its interval, the points whose
intervals overlap it, and its worst point (how much the parameter matters): the question a sweep
asks. The strategies it does not sweep follow, each
against the baseline over the sweep's tables."""

import pandas as pd

from simkit.experiments.report import tables
from simkit.experiments.report.wording import amount, listed, margin
from simkit.experiments.statistics import Statistics
from simkit.games import Words
from simkit.stats import notation


def swept_families(stats: Statistics) -> list[str]:
    """The strategies a sweep varies (the part of each sweep key before its dot), in the spec's order."""
    return list(dict.fromkeys(key.split(".", 1)[0] for c in stats.layout.cells for key in c["sweep"]))


def _family(label: str, family: str) -> bool:
    return label == family or label.startswith(f"{family}(")


def _point(cell: dict, family: str, alone: bool) -> str:
    """A table's sweep point for a reader: its family's values, or (`alone` false: other swept
    strategies vary too) every swept value."""
    values = [(k, v) for k, v in cell["sweep"].items() if alone and k.startswith(f"{family}.") or not alone]
    return ", ".join(f"{k.split('.', 1)[1] if alone else k} = {v:g}" for k, v in values)


def _estimates(stats: Statistics, baseline: str, family: str, players: int) -> tuple[pd.DataFrame, bool]:
    """The family's estimate at each table of `players` it plays: its paired difference to the
    baseline where the baseline plays beside it, else its mean; and whether they are differences."""
    cells = [c["cell"] for c in stats.layout.cells if c["players"] == players]
    diffs = tables.paired_differences(stats, baseline)
    mine = diffs[diffs["cell"].isin(cells) & diffs["strategy"].map(lambda s: _family(s, family))]
    if len(mine) and family != baseline:
        return mine.rename(columns={"difference": "estimate"}), True
    means = tables.strategy_means(stats)
    mine = means[means["cell"].isin(cells) & means["strategy"].map(lambda s: _family(s, family))]
    return mine.rename(columns={"mean": "estimate"}), False


def sweep_findings(stats: Statistics, baseline: str, said: Words) -> list[str]:
    """A line per swept strategy and player count, then one per strategy not swept."""
    families = swept_families(stats)
    players = sorted({c["players"] for c in stats.layout.cells})
    keys = list(dict.fromkeys(k for c in stats.layout.cells for k in c["sweep"]))
    alone = len({k.split(".", 1)[0] for k in keys}) == 1
    lines = []
    for family in families:
        for n in players:
            found, paired = _estimates(stats, baseline, family, n)
            if len(found) < 2:
                continue
            best, worst = found.loc[found["estimate"].idxmin()], found.loc[found["estimate"].idxmax()]
            cell = stats.layout.cells[int(best["cell"])]
            rivals = found[(found["estimate"] - found["ci95"] <= best["estimate"] + best["ci95"])
                           & (found["cell"] != best["cell"])]
            where = f" at {n} players" if len(players) > 1 else ""
            what = _estimate(said, best, paired, baseline)
            others = [_point(stats.layout.cells[int(c)], family, alone) for c in rivals["cell"]]
            low = _point(stats.layout.cells[int(worst["cell"])], family, alone)
            lines.append(f"{family}'s best point{where} is {_point(cell, family, alone)}: {what}; "
                         f"{_overlapping(others)}; its worst, {low}: {_estimate(said, worst, paired, baseline)}.")
    return lines


def _estimate(said: Words, row, paired: bool, baseline: str) -> str:
    """A sweep point's estimate in words: its paired difference to the baseline, or its mean."""
    if paired:
        d, h = row["estimate"], row["ci95"]
        size = notation.percent(abs(d), h, sign=True)[1:] if said.share_of else notation.mean(abs(d), h, 2)
        sure = "" if abs(d) > h else ", not decisive"
        return f"{size} {_fewer(said, d)} than {baseline}{sure} (paired on the same deals)"
    if said.share_of:
        return f"it loses {notation.percent(row['estimate'], row['ci95'])} of its {said.share_of}"
    return f"it scores {amount(said, row['estimate'], row['ci95'])} {said.unit}"


def _overlapping(points: list[str]) -> str:
    """The points whose intervals overlap the best's: "the intervals at delay_until = 8 and 10 overlap it"."""
    if not points:
        return "no other point's interval overlaps it"
    names = {p.split(" = ", 1)[0] for p in points}
    if len(names) == 1 and all(p.count(" = ") == 1 for p in points):  # one parameter: its values
        name = names.pop()
        return f"the intervals at {name} = {listed([p.split(' = ', 1)[1] for p in points])} overlap it"
    return f"the intervals at {listed(points)} overlap it"


def not_swept_findings(stats: Statistics, baseline: str, said: Words) -> list[str]:
    """The sweep's other strategies against the baseline (`_not_swept`)."""
    return _not_swept(stats, baseline, said, swept_families(stats))


def _fewer(said: Words, d: float) -> str:
    """What a difference is, in the game's words: "penalty points per hand and seat fewer",
    "percentage points more rounds lost"."""
    if not said.share_of:
        return f"{said.unit} {'fewer' if d < 0 else 'more'}"
    fewer = said.fewer if d < 0 else "more " + said.fewer.split(" ", 1)[-1] if said.fewer.startswith("fewer ") \
        else "more"
    return f"percentage points {fewer}"


def _not_swept(stats: Statistics, baseline: str, said: Words, families: list[str]) -> list[str]:
    """Each strategy the sweep does not vary (the baseline aside): its paired difference to the
    baseline over the sweep's tables, the least and the most, and where it is decisive."""
    diffs = tables.paired_differences(stats, baseline)
    fixed = diffs[~diffs["strategy"].map(lambda s: any(_family(s, f) for f in families))]
    lines = []
    for strategy, rows in fixed.groupby("strategy", sort=False):
        low, high = rows.loc[rows["difference"].idxmin()], rows.loc[rows["difference"].idxmax()]
        better = int((rows["decisive"] & (rows["difference"] < 0)).sum())
        worse = int((rows["decisive"] & (rows["difference"] > 0)).sum())
        span = (margin(said, low["difference"], low["ci95"], baseline) if len(rows) == 1 else
                f"from {margin(said, low['difference'], low['ci95'], baseline)} to "
                f"{margin(said, high['difference'], high['ci95'], baseline)}")
        lines.append(f"{strategy} (not swept), over the {len(rows)} tables: {span}; decisively better at {better}, "
                     f"worse at {worse} (paired on the same deals).")
    return lines
