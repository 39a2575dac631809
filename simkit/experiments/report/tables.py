"""The experiment report's tables, from a run's exact statistics (experiments/statistics.py):
each number with its 95% interval over deals and its n.

A deal's rows (its seats, its rotated replays, an Ezelen match's rounds) share the cards, so each
deal is one cluster: means are ratio estimators over deals, intervals their standard errors over
deals; shares the same estimators, their intervals Wilson's for the effective number of trials
(stats.intervals.share_interval), written p ± the interval's longer side like every other
(simkit.stats.notation). The same tables from per-hand rows (`--rows`) are in report/rows.py; the two
agree to rounding (tests/test_statistics.py).
"""

import pandas as pd

from simkit.experiments.statistics import Statistics
from simkit.games import Words
from simkit.stats.intervals import half_width, paired_ratio_ci, ratio_ci, share_ci, share_interval


def _seat(stats: Statistics, name: str) -> int:
    return stats.layout.seat_measures.index(name)


def _table(stats: Statistics, name: str) -> int:
    return stats.layout.table_measures.index(name)


def _order(stats: Statistics) -> dict[str, int]:
    """Strategy labels in order of first appearance in the run (the order of the rows' table)."""
    return {name: k for k, name in enumerate(dict.fromkeys(n for c in stats.layout.cells for n in c["lineup"]))}


def _strategies(stats: Statistics, grouping: str = "strategy") -> list[tuple[int, tuple]]:
    """(group, (grouping, cell, players, label)) of one grouping, by cell then strategy order."""
    order = _order(stats)
    found = [(g, key) for g, key in enumerate(stats.layout.groups) if key[0] == grouping]
    return sorted(found, key=lambda x: (x[1][1], x[1][2], order.get(x[1][3], 0), x[1][3]))


def measure(stats: Statistics) -> str:
    """The main number of a row: penalty points (hands), match totals, or a lost round (Ezelen)."""
    return stats.layout.measures.main


def words(stats: Statistics) -> Words:
    """How the report writes the main measure: its game's words (games.Words)."""
    return stats.layout.measures.said()


def measure_title(stats: Statistics) -> str:
    """A column of the main measure's means, named for people ("mean penalty", "share of rounds lost")."""
    said = words(stats)
    return said.unit if said.share_of else f"mean {measure(stats)}"


def is_share(stats: Statistics) -> bool:
    """Whether the main measure is a share (Ezelen's rounds lost), not points."""
    m = stats.layout.measures
    return (m.main, m.per) in m.shares


def main_ci(stats: Statistics, g: int) -> tuple[float, float, int]:
    """Seat group g's mean of the main measure, the ± of its 95% interval over deals, n deals
    (a share's interval as every share's, `share_ci`)."""
    main, per = _seat(stats, measure(stats)), _seat(stats, stats.layout.measures.per)
    if is_share(stats):
        p, low, high, n = share_ci(stats.seat, g, main, per)
        return p, half_width(p, low, high), n
    return ratio_ci(stats.seat, g, main, per)


def strategy_means(stats: Statistics, by_cell: bool = True) -> pd.DataFrame:
    """Per cell (or, pooled over cells, per player count) and strategy: the mean of the main
    measure per hand (or match) and seat, ± 95% CI over deals, n deals."""
    rows = []
    if by_cell:
        for g, (_, cell, players, name) in _strategies(stats):
            mean, half, n = main_ci(stats, g)
            rows.append({"cell": cell, "players": players, "strategy": name, "mean": mean, "ci95": half, "n": n})
        return pd.DataFrame(rows, columns=["cell", "players", "strategy", "mean", "ci95", "n"])
    pooled = {(key[2], key[3]) for _, key in _strategies(stats, "pooled")}  # a strategy at one table: its own
    groups = _strategies(stats, "pooled") + [x for x in _strategies(stats) if (x[1][2], x[1][3]) not in pooled]
    order = _order(stats)
    for g, (_, _, players, name) in sorted(groups, key=lambda x: (x[1][2], order[x[1][3]])):
        mean, half, n = main_ci(stats, g)
        rows.append({"players": players, "strategy": name, "mean": mean, "ci95": half, "n": n})
    return pd.DataFrame(rows, columns=["players", "strategy", "mean", "ci95", "n"])


def _share_columns(stats: Statistics, measures: dict[str, tuple[str, str]]) -> pd.DataFrame:
    """Per strategy group: for each output name, the share ΣS_num / ΣS_den with its 95% interval
    over deals (in the measure's unit: match wins are counted in parts)."""
    scale = stats.layout.measures.scale
    rows = []
    for g, (_, cell, players, name) in _strategies(stats):
        row = {"cell": cell, "players": players, "strategy": name}
        for out, (num, den) in measures.items():
            share, low, high, n = share_ci(stats.seat, g, _seat(stats, num), _seat(stats, den), scale.get(num, 1))
            row.update({out: share, f"{out}_low": low, f"{out}_high": high})
            row.update(_beside_fair(stats, num, out, share, low, high, players))
        row["n"] = n
        rows.append(row)
    return pd.DataFrame(rows)


def _beside_fair(stats: Statistics, measure: str, out: str, share: float, low: float, high: float,
                 players: int) -> dict:
    """A share's fair value beside it, where the game knows it (Measures.fair: exactly one seat of
    each deal counts, so 1/n under no skill at n players), and the share's difference to it with
    the share's interval moved with it; nothing for any other share."""
    if measure not in stats.layout.measures.fair:
        return {}
    fair = 1 / players
    return {f"{out} fair": fair, f"{out} vs fair": share - fair, f"{out} vs fair ±": half_width(share, low, high)}


def shares(stats: Statistics) -> pd.DataFrame:
    """Per cell and strategy: how often the seat went out (no penalty) and held the ass at the end,
    each with its interval over deals (single hands only)."""
    return _share_columns(stats, {"out": ("out", "rows"), "ass": ("ass", "rows")})


def win_rates(stats: Statistics) -> pd.DataFrame:
    """Per cell and strategy: the share of matches won (a shared win counts its share), with its
    interval over deals."""
    out = _share_columns(stats, {"win": ("win", "rows")})
    return out.rename(columns={"win_low": "low", "win_high": "high"})


def paired_differences(stats: Statistics, baseline: str) -> pd.DataFrame:
    """Per cell and strategy: the difference of its mean to `baseline`'s on the same deals (each
    deal's linearised difference over the deal's rows: a paired, ratio-of-means difference), with
    its 95% interval over deals; decisive when the interval excludes 0. Needs rotated seating, so
    that both play every seat of every deal."""
    columns = ["cell", "players", "strategy", "baseline", "difference", "ci95", "decisive", "n"]
    main, per = _seat(stats, measure(stats)), _seat(stats, stats.layout.measures.per)
    groups = stats.layout.groups
    rows = []
    for g, (_, cell, players, name) in _strategies(stats):
        if name == baseline or stats.layout.cells[cell].get("seating", "rotate") != "rotate":
            continue
        for p, (a, b) in enumerate(stats.layout.pairs):
            if a == g and groups[b][3] == baseline:
                diff, half, n = paired_ratio_ci(stats.seat, a, b, p, main, per)
                rows.append({"cell": cell, "players": players, "strategy": name, "baseline": baseline,
                             "difference": diff, "ci95": half, "decisive": abs(diff) > half, "n": n})
    return pd.DataFrame(rows, columns=columns)


def seat_effect(stats: Statistics) -> pd.DataFrame:
    """Per cell and seat: the mean of the main measure, whoever sits there (seat position effect)."""
    rows = []
    for g, (_, cell, _, seat) in sorted(_strategies(stats, "seat"), key=lambda x: (x[1][1], int(x[1][3]))):
        mean, half, n = main_ci(stats, g)
        rows.append({"cell": cell, "seat": int(seat), "mean": mean, "ci95": half, "n": n})
    return pd.DataFrame(rows, columns=["cell", "seat", "mean", "ci95", "n"])


def pairwise(stats: Statistics) -> pd.DataFrame:
    """Head to head, for a tournament (two strategies per cell): how often `a` beats `b` on the same
    deal — fewer points per seat than `b` over the whole table in a replay (ties count half),
    averaged over the deal's replays — with its interval over deals. For matches, `a`'s
    share of the win per seat against `b`'s (with an odd table `a` has one seat more, which must
    not count as skill)."""
    rows = []
    for cell in stats.layout.cells:
        names = cell["strategies"]
        if len(names) != 2:
            continue
        ci = cell["cell"]
        n = int(stats.table.present[ci, _table(stats, "rows")])
        if "match wins" in stats.layout.measures.sections:  # matches: their wins
            per = {key[3]: stats.seat.total[g, _seat(stats, "win")] / stats.seat.total[g, _seat(stats, "rows")]
                   for g, key in _strategies(stats) if key[1] == ci}
            a, b = (float(per[x]) for x in names)
            p = a / (a + b)
            low, high = share_interval(p, p * (1 - p) / n, n)  # a ratio of two groups' shares: n trials
        else:
            p, low, high, _ = share_ci(stats.table, ci, _table(stats, "beats2"), _table(stats, "replays"), 2)
        for x, y, beats, lo, hi in ((names[0], names[1], p, low, high), (names[1], names[0], 1 - p, 1 - high, 1 - low)):
            rows.append({"cell": ci, "players": cell["players"], "strategy": x, "opponent": y, "beats": beats,
                         "low": lo, "high": hi, "n": n})
    return pd.DataFrame(rows)


def sweep_curves(stats: Statistics, baseline: str) -> pd.DataFrame:
    """For each swept parameter (`strategy.parameter`): per value and player count, every
    strategy's paired difference to `baseline` when the baseline plays (else its mean). The swept
    strategy is named without its changing parameter, so its points form one curve; with several
    swept parameters, each setting of the others is a curve of its own. (Each cell is one point.)"""
    swept = list(dict.fromkeys(k for c in stats.layout.cells for k in c["sweep"]))
    if not swept:
        return pd.DataFrame()
    points = paired_differences(stats, baseline).rename(columns={"difference": "estimate"})
    what = f"difference to {baseline}"
    if not len(points):
        points, what = strategy_means(stats).rename(columns={"mean": "estimate"}), f"mean {measure(stats)}"
    return curves(points, swept, {c["cell"]: c["sweep"] for c in stats.layout.cells}, what)


def curves(points: pd.DataFrame, swept: list[str], where: dict, what: str) -> pd.DataFrame:
    """Sweep curves from one estimate per cell and strategy (`points`): `where[cell]` holds the
    cell's swept values; each point joins the curve of its strategy under each parameter."""
    rows = []
    for r in points.itertuples():
        for column in swept:
            name = column.split(".", 1)[0]
            others = [c for c in swept if c != column]
            setting = ", ".join(f"{c.split('.', 1)[1]}={where[r.cell][c]:g}" for c in others)
            curve = name if r.strategy == name or str(r.strategy).startswith(name + "(") else str(r.strategy)
            rows.append({"parameter": column, "value": where[r.cell][column], "players": r.players,
                         "strategy": f"{curve} ({setting})" if setting else curve, "estimate": r.estimate,
                         "ci95": r.ci95, "n": r.n, "measure": what})
    out = pd.DataFrame(rows)
    return out.sort_values(["parameter", "players", "strategy", "value"], ignore_index=True)


def donkey_rates(stats: Statistics) -> pd.DataFrame:
    """Ezelen (Z7): per cell and strategy, the share of matches in which its seat became the donkey,
    with its interval over deals."""
    return _share_columns(stats, {"donkey": ("donkey", "matches")})


def loss_causes(stats: Statistics) -> pd.DataFrame:
    """Ezelen: per cell and strategy, the share of rounds it lost as the last to copy and through
    tempo faults, with intervals over deals."""
    return _share_columns(stats, {"last": ("lost_last", "rows"), "tempo": ("lost_tempo", "rows")})


def seat_means(stats: Statistics) -> pd.DataFrame:
    """Per cell and strategy: each of the game's seat means (Measures.means: a measure summed over
    the rows, per row), ± 95% CI over deals (Eigenwijs: how often a seat took the cards per game,
    and why)."""
    rows = []
    for g, (_, cell, players, name) in _strategies(stats):
        row = {"cell": cell, "players": players, "strategy": name}
        for num, den in stats.layout.measures.means:
            mean, half, n = ratio_ci(stats.seat, g, _seat(stats, num), _seat(stats, den))
            row.update({num: mean, f"{num} ±": half})
        row["n"] = n
        rows.append(row)
    return pd.DataFrame(rows)


def table_summary(stats: Statistics) -> pd.DataFrame:
    """Per cell: each of the game's table shares and means (Measures.table_shares, table_means), with
    their 95% intervals over deals (Eigenwijs: how many games end with a winner, turns per game)."""
    names = lineup_names(stats)
    m = stats.layout.measures
    rows = []
    for cell in stats.layout.cells:
        ci = cell["cell"]
        row = {"cell": ci, "players": cell["players"], "strategies": names[ci]}
        for num, den in m.table_shares:
            share, low, high, n = share_ci(stats.table, ci, _table(stats, num), _table(stats, den))
            row.update({num: share, f"{num}_low": low, f"{num}_high": high})
            row.update(_beside_fair(stats, num, num, share, low, high, cell["players"]))
        for num, den in m.table_means:
            mean, half, n = ratio_ci(stats.table, ci, _table(stats, num), _table(stats, den))
            row.update({num: mean, f"{num} ±": half})
        row["n"] = n
        rows.append(row)
    return pd.DataFrame(rows)


def lineup_names(stats: Statistics) -> dict[int, str]:
    """Each cell's strategies, in seat order of its first rotation, as one text."""
    return {c["cell"]: ", ".join(c["strategies"]) for c in stats.layout.cells}


def round_outcomes(stats: Statistics) -> pd.DataFrame:
    """Ezelen: per cell, how rounds end (last copier, tempo, tie, stalled), each share with its
    interval over deals."""
    rows_ = _table(stats, "rows")
    names = lineup_names(stats)
    rows = []
    for cell in stats.layout.cells:
        for reason in sorted(("last", "tempo", "tie", "stalled")):
            share, low, high, n = share_ci(stats.table, cell["cell"], _table(stats, reason), rows_)
            rows.append({"cell": cell["cell"], "players": cell["players"], "strategies": names[cell["cell"]],
                         "ended by": reason, "share": share, "share_low": low, "share_high": high, "n": n})
    return pd.DataFrame(rows)


def first_signal(stats: Statistics) -> pd.DataFrame:
    """Ezelen: per cell, the turn of the first signal (rounds with one) ± 95% CI over deals, and
    the share of rounds that ended before any signal."""
    rows_, signalled, turn = _table(stats, "rows"), _table(stats, "signalled"), _table(stats, "first_signal")
    names = lineup_names(stats)
    rows = []
    for cell in stats.layout.cells:
        ci = cell["cell"]
        mean, half, k = ratio_ci(stats.table, ci, turn, signalled)
        some, low, high, n = share_ci(stats.table, ci, signalled, rows_)
        rows.append({"cell": ci, "players": cell["players"], "strategies": names[ci], "mean": mean, "ci95": half,
                     "n signalled": k, "no signal": 1 - some, "no signal_low": 1 - high, "no signal_high": 1 - low,
                     "n": n})
    return pd.DataFrame(rows)


def played(stats: Statistics) -> int:
    """How many deals were played, counting each replay (every cell and rotation)."""
    return sum(int(stats.table.total[c["cell"], _table(stats, "replays")]) for c in stats.layout.cells)


def rows_played(stats: Statistics) -> int:
    """How many rows a per-hand table of the run has (a seat in a hand, round or match)."""
    return sum(int(stats.seat.total[g, 0]) for g, _ in _strategies(stats))



def means_shown(stats: Statistics) -> pd.DataFrame:
    """The strategies' means as `simkit run` prints them: each with its 95% interval (a share in
    percent), indexed by cell, players and strategy."""
    from simkit.stats import notation

    means = strategy_means(stats)
    return pd.DataFrame({"table": means["cell"], "players": means["players"], "strategy": means["strategy"],
                         measure_title(stats): [notation.value(m, h, is_share(stats))
                                                for m, h in zip(means["mean"], means["ci95"])],
                         "n": [f"{n:,}" for n in means["n"]]}).set_index(["table", "players", "strategy"])
