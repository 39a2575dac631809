"""The answer to a sweep of rule options (docs/reports.md): each rule variant against its reference
(the spec's first value of every swept option), on the same deals, as paired differences: the
table's measures (a game's length first) and each strategy's main measure. Where a swept option
changes the cards dealt (games.Game.deal_rules), the variants share the deals' numbers and random
streams but not their cards, and the report says so."""

import pandas as pd

from simkit import games
from simkit.experiments.report import tables
from simkit.experiments.statistics import Statistics
from simkit.games import Words
from simkit.stats import notation
from simkit.stats.intervals import paired_ratio_ci, ratio_ci, share_ci

COLUMNS = ["cell", "players", "variant", "measure", "strategy", "reference", "value", "difference", "ci95", "decisive",
           "n", "share"]


def rules_text(rules: dict) -> str:
    """Rule values for a reader: "chicks = true, precies = false"."""
    return ", ".join(f"{k} = {_value(v)}" for k, v in rules.items())


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(map(str, v))
    return f"{v:g}" if isinstance(v, float) else str(v)


def swept_rules(stats: Statistics) -> list[str]:
    """The rule options a run sweeps, in the spec's order."""
    return list(dict.fromkeys(k for c in stats.layout.cells for k in c.get("rules", {})))


def variant_name(stats: Statistics, cell: int, reference: int) -> str:
    """A variant by the options where it differs from its reference: "chicks = true"."""
    mine, ref = stats.layout.cells[cell].get("rules", {}), stats.layout.cells[reference].get("rules", {})
    return rules_text({k: v for k, v in mine.items() if ref.get(k) != v})


def cell_names(stats: Statistics) -> dict[int, str]:
    """Each table's rules for a reader where rule options are swept: the options where it differs
    from the reference ("chicks = true"), or "reference"; none otherwise."""
    of = dict(stats.layout.table_pairs)
    if not of:
        return {}
    return {c["cell"]: variant_name(stats, c["cell"], of[c["cell"]]) if c["cell"] in of else "reference"
            for c in stats.layout.cells}


def reference_name(stats: Statistics) -> str:
    """The reference variant, every swept option's first value: "chicks = false, precies = false"."""
    pairs = stats.layout.table_pairs
    return rules_text(stats.layout.cells[pairs[0][1]].get("rules", {})) if pairs else ""


def rule_variants(stats: Statistics) -> pd.DataFrame:
    """Per rule variant: each of the game's table means and shares (`strategy` ""), and each
    strategy's main measure, beside its reference's on the same deals, their paired difference and
    its 95% interval over deals; decisive when the interval excludes 0."""
    lay = stats.layout
    m = lay.measures
    labels = dict(tables.words(stats).labels)
    rows = []
    for p, (ci, ri) in enumerate(lay.table_pairs):
        where = {"cell": ci, "players": lay.cells[ci]["players"], "variant": variant_name(stats, ci, ri)}
        for num, den in m.table_means + m.table_shares:
            a, b = lay.table_measures.index(num), lay.table_measures.index(den)
            rows.append({**where, "measure": labels.get(num, num), "strategy": "",
                         **_compared(stats.table, ci, ri, p, a, b, (num, den) in m.table_shares)})
        main, per = lay.seat_measures.index(m.main), lay.seat_measures.index(m.per)
        for q, (g, r) in enumerate(lay.pairs):
            if lay.groups[g][1] == ci and lay.groups[r][1] == ri:
                rows.append({**where, "measure": tables.measure_title(stats), "strategy": lay.groups[g][3],
                             **_compared(stats.seat, g, r, q, main, per, tables.is_share(stats))})
    return pd.DataFrame(rows, columns=COLUMNS)


def _compared(moments, g: int, r: int, p: int, num: int, den: int, share: bool) -> dict:
    """Group g's ratio beside group r's, and their paired difference (pair p)."""
    if share:
        value, _, _, _ = share_ci(moments, g, num, den)
        reference, _, _, _ = share_ci(moments, r, num, den)
    else:
        value, _, _ = ratio_ci(moments, g, num, den)
        reference, _, _ = ratio_ci(moments, r, num, den)
    diff, half, n = paired_ratio_ci(moments, g, r, p, num, den)
    return {"reference": reference, "value": value, "difference": diff, "ci95": half, "decisive": abs(diff) > half,
            "n": n, "share": share}


def shown(frame: pd.DataFrame) -> pd.DataFrame:
    """The table as the report writes it: shares in percent, differences of shares in percentage
    points, each estimate with its ±, a strategy's measure named with it ("share of games lost: right")."""
    out = frame.copy()
    out["measure"] = [f"{m}: {s}" if s else m for m, s in zip(frame["measure"], frame["strategy"])]
    for column in ("reference", "value"):
        out[column] = [f"{100 * x:.2f}%" if s else f"{x:.3f}" for x, s in zip(frame[column], frame["share"])]
    out["difference"] = [notation.percent(d, h, sign=True) + " pp" if s else notation.difference(d, h)
                         for d, h, s in zip(frame["difference"], frame["ci95"], frame["share"])]
    out["decisive"] = frame["decisive"].map({True: "yes", False: "no"})
    out["n"] = [f"{n:,}" for n in frame["n"]]
    return out.drop(columns=["strategy", "ci95", "share"])


def deal_note(stats: Statistics, game: str) -> str:
    """Where a swept option changes the cards dealt: what the pairing then shares."""
    changed = [k for k in swept_rules(stats) if k in games.get(game).deal_rules]
    if not changed:
        return "every variant is played on the same deals (the same cards, seats and random streams)"
    return (f"{' and '.join(changed)} {'changes' if len(changed) == 1 else 'change'} the cards dealt, so those "
            "variants share the deals' numbers and random streams but not their cards: the pairing is still "
            "sound, and gains less")


def variant_findings(stats: Statistics, baseline: str, said: Words, game: str) -> list[str]:
    """A line per rule variant: against the reference, the game's first table measure (its length,
    where it has one) and the baseline's main measure, paired on the same deals; the variants that
    change the first of them most come first."""
    frame = rule_variants(stats)
    if not len(frame):
        return []
    m = stats.layout.measures
    labels = dict(said.labels)
    first = labels.get(m.table_means[0][0], m.table_means[0][0]) if m.table_means else None
    lines = []
    several = frame["players"].nunique() > 1
    size = {ci: abs(rows["difference"].iloc[0]) for ci, rows in frame.groupby("cell", sort=False)}
    for ci, rows in sorted(frame.groupby("cell", sort=False), key=lambda item: -size[item[0]]):
        picked = [r for r in rows.itertuples() if r.measure == first and not r.strategy]
        picked += [r for r in rows.itertuples() if r.strategy == baseline]
        if not picked:
            picked = list(rows.itertuples())[:1]
        said_of = "; ".join(_said(r) for r in picked)
        lines.append(f"{rows['variant'].iloc[0]}{f' at {rows.players.iloc[0]} players' if several else ''}: "
                     f"{said_of}.")
    return lines


def _said(row) -> str:
    """A paired difference with the two values it is between: "turns per game +22.18 ± 0.58 (107.97
    against 85.80)"."""
    sure = ", not decisive" if not row.decisive else ""
    measure = f"{row.strategy}'s {row.measure}" if row.strategy else row.measure  # "right's share of games lost"
    if row.share:
        return (f"{measure} {notation.percent(row.difference, row.ci95, sign=True)} percentage points "
                f"({100 * row.value:.2f}% against {100 * row.reference:.2f}%{sure})")
    change = notation.difference(row.difference, row.ci95, 2)
    return f"{measure} {change} ({row.value:.2f} against {row.reference:.2f}{sure})"
