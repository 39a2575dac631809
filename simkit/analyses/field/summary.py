"""What a field analysis found, in words and tables: read from its folder (field.json,
analysis.json), so that the command line and the report say the same."""

import json
from pathlib import Path

import pandas as pd

from simkit.analyses.field.record import read_meta
from simkit.core.errors import SimkitError


def read(folder: str | Path) -> tuple[dict, dict]:
    """A finished field's record and analysis; one error line if the folder holds none."""
    meta = read_meta(folder)
    try:
        analysis = json.loads((Path(folder) / "analysis.json").read_text())
    except (OSError, ValueError):
        raise SimkitError(f"{folder} holds no analysis (analysis.json is missing or damaged); "
                          f"write it with: simkit report {folder}") from None
    return meta, analysis


def amount(meta: dict, x: float) -> str:
    """A value or difference in the objective's units: a share in percentage points."""
    return f"{100 * x:.2f} percentage points" if meta["share"] else f"{x:.4g} {meta['label']}"


def small(meta: dict, x: float, spread: float, unit: bool = True) -> str:
    """A regret, however small: "= 3.1e-05 penalty points per hand"; below 10^-9 of the payoffs'
    spread (the arithmetic's rounding) as that bound, "< 2.8e-08 ...", to read the same on every
    machine. Without `unit`, the number alone ("3.1e-05", "< 2.8e-08")."""
    below = x < 1e-9 * spread
    x = max(x, 1e-9 * spread)
    shown = f"{100 * x:.2g}" if meta["share"] else f"{x:.2g}"
    units = (" percentage points" if meta["share"] else f" {meta['label']}") if unit else ""
    return ("< " if below else "= " if unit else "") + shown + units


def number(meta: dict, x: float) -> str:
    """A value in the objective's units as the tables show it: a share in percent."""
    return f"{100 * x:.2f}%" if meta["share"] else f"{x:.3f}"


def weight(w: float, lo: float | None = None, hi: float | None = None) -> str:
    """A weight in percent, with its bootstrap interval."""
    shown = f"{100 * w:.0f}%" if w >= 0.01 or w == 0 else f"{100 * w:.1f}%"
    return shown + (f" ({100 * lo:.0f}–{100 * hi:.0f}%)" if lo is not None and hi is not None else "")


def weights_of(e: dict, i: int) -> tuple:
    """Strategy i's weight in equilibrium e and its interval (None, None without a bootstrap)."""
    if e["weights_lo"] is None:
        return e["weights"][i], None, None
    return e["weights"][i], e["weights_lo"][i], e["weights_hi"][i]


def mix_text(pool: list[str], e: dict, classes: list[list[str]] = ()) -> str:
    """An equilibrium's support in words: "greedy alone", "greedy 71% (58–83%) and spend 29% (…)";
    a strategy that others played alike with, named with them."""
    alike = {c[0]: c[1:] for c in classes}

    def name(i: int) -> str:
        others = alike.get(pool[i])
        return f"{pool[i]} (or {' or '.join(others)}, which played alike)" if others else pool[i]

    support = sorted(e["support"], key=lambda i: -e["weights"][i])
    if len(support) == 1:
        return f"{name(support[0])} alone"
    parts = [f"{name(i)} {weight(*weights_of(e, i))}" for i in support]
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def answer(meta: dict, n: int, found: dict) -> str:
    """One sentence: the stable mix at n players, its regret, how often it was reached and how
    often its support reappeared on resampled deals; and what does worst against it."""
    e = found["equilibria"][0]
    pool = meta["pool"]
    boot = (f"; its support reappeared in {100 * e['support_share']:.0f}% of {e['replicates']} bootstrap resamples "
            "of the deals") if e["support_share"] is not None else ""
    others = len(found["equilibria"]) - 1
    more = f" ({others} other equilibri{'um' if others == 1 else 'a'} found, reached less often)" if others else ""
    worst = found["against"][-1]
    tail = ""
    if worst["regret"] > 0:
        tail = (f" Against it, {worst['label']} does worst: {amount(meta, worst['regret'])} worse than the best "
                "reply.")
    if e.get("approximate"):
        return (f"At {n} players no equilibrium was found within the tolerance: the closest mix, "
                f"**{mix_text(pool, e, found['classes'])}**, has regret ε {small(meta, e['regret'], found['spread'])} "
                f"(more than {meta['analysis']['epsilon']:g} of the payoffs' spread); play more deals or steps.")
    reached = (f"reached from {e['basin']} of {found['starts']} starts" if e["basin"] else
               f"found by checking the pure strategies (none of the {found['starts']} starts reached it)")
    return (f"At {n} players the stable mix is **{mix_text(pool, e, found['classes'])}**: no strategy gains by "
            f"leaving it (its regret ε {small(meta, e['regret'], found['spread'])}); {reached}{boot}{more}.{tail}")


def equilibria_table(meta: dict, found: dict) -> pd.DataFrame:
    """Every equilibrium found: its weights with intervals, regret, starts reaching it, how often
    its support reappeared."""
    rows = []
    for j, e in enumerate(found["equilibria"]):
        rows.append({"#": j + 1, "mix (95% interval of each weight)": mix_text(meta["pool"], e, found["classes"]),
                     "regret ε": small(meta, e["regret"], found["spread"], unit=False),
                     "value of the mix": number(meta, e["value"]),
                     "reached from": f"{e['basin']} of {found['starts']}",
                     "support reappeared": "" if e["support_share"] is None else
                     f"{100 * e['support_share']:.0f}% of {e['replicates']}"})
    return pd.DataFrame(rows)


def against_table(meta: dict, found: dict) -> pd.DataFrame:
    """The ranking: each strategy's weight in the stable mix, its value against it and its regret
    (how much worse than the best reply), each with the bootstrap's 95% interval."""
    def interval(row: dict, key: str, points: bool = False) -> str:
        """A value (a share in percent), or with `points` a difference of shares in percentage points."""
        def shown(x: float) -> str:
            return f"{100 * x:.2f}" if points and meta["share"] else number(meta, x)

        return shown(row[key]) if f"{key}_lo" not in row else \
            f"{shown(row[key])} ({shown(row[f'{key}_lo'])} to {shown(row[f'{key}_hi'])})"

    e = found["equilibria"][0]
    rows = []
    for rank, row in enumerate(found["against"], 1):
        i = row["strategy"]
        copy = f" (plays as {meta['pool'][row['copy_of']]})" if row["copy_of"] is not None else ""
        rows.append({"rank": rank, "strategy": row["label"] + copy,
                     "weight": weight(*weights_of(e, i)),
                     f"{meta['label']} against the mix": interval(row, "value"),
                     "regret (percentage points)" if meta["share"] else "regret": interval(row, "regret", True)})
    return pd.DataFrame(rows)


def intervals(meta: dict) -> str:
    """Where the intervals come from, in words."""
    count = meta["analysis"]["bootstrap"]
    if not count:
        return "no bootstrap (analysis.bootstrap = 0): no intervals"
    few = "; with fewer than 40 they are the extremes seen, not a 95% interval" if count < 40 else ""
    return f"intervals (95%) from {count} bootstrap resamples of the deals{few}"


def summary(folder: str | Path) -> str:
    """The command line's lines: the answer at each player count and its ranking."""
    meta, analysis = read(folder)
    lines = []
    for n in meta["players"]:
        found = analysis["players"][str(n)]
        lines += [answer(meta, n, found).replace("**", ""), against_table(meta, found).to_string(index=False), ""]
    lines.append(f"({meta['hands_played']:,} {meta['unit']} played: every profile on {meta['hands']:,} shared "
                 f"{meta['unit']} in every seating; {intervals(meta)})")
    return "\n".join(lines)
