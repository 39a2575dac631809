"""What a tuning found, in words and a table: read from its folder (tune.json), so that the
command line, the report and a notebook say the same."""

from collections import Counter
from pathlib import Path

import pandas as pd

from simkit.analyses.tune.record import CANDIDATES, META, read_candidates
from simkit.core.errors import SimkitError
from simkit.core.records import finished
from simkit.stats.notation import value

ROLES = {"winner": "the winner", "runner-up": "the runner-up", "default": "the family's default",
         "built-in": "a built-in at its defaults",
         "best built-in": "the best built-in at its defaults on these deals", "field": "the field's own strategy"}


def read(folder: str | Path) -> dict:
    """A finished tuning's record; one error line if the folder holds none."""
    meta = finished(folder, META, "tuning", "tuning", "simkit tune ...")
    try:
        meta["candidates"] = read_candidates(Path(folder))
    except (OSError, ValueError, KeyError) as e:
        raise SimkitError(f"{folder} holds no readable {CANDIDATES} ({e}); tune again") from None
    return meta


def role(text: str) -> str:
    """A confirmation row's role in words ("default and field": one strategy in two roles)."""
    return " and ".join(ROLES[r] for r in text.split(" and "))


def field_text(meta: dict) -> str:
    """The field as people say it: "3 x greedy", "greedy, 2 x lowest"."""
    return ", ".join(f"{k} x {s}" if k > 1 else s for s, k in Counter(meta["field"]).items())


def figure(meta: dict, x: float) -> float:
    """A per-deal mean or difference (summed over the rotations, in the objective's units) as the
    objective's figure: per hand, or a share."""
    return x / meta["players"] / meta["scale"]


def confirmation(meta: dict) -> pd.DataFrame:
    """The confirmation: each strategy's figure and its difference to the winner (positive: worse
    than the winner), each with its 95% half-width, on the same fresh deals."""
    rows = []
    for c in meta["confirmation"]:
        rows.append({"strategy": c["strategy"], "role": c["role"], "mean": figure(meta, c["mean"]),
                     "ci95": figure(meta, c["half"]), "worse_by": figure(meta, c["diff"]),
                     "worse_ci95": figure(meta, c["diff_half"]), "deals": c["deals"]})
    return pd.DataFrame(rows)


def answer(meta: dict) -> str:
    """One sentence: what was found."""
    table = confirmation(meta)
    share = meta["share"]
    win = table.iloc[0]
    hands = int(win["deals"]) * meta["players"]
    parts = []
    builtins = table.iloc[1:][table.iloc[1:]["role"].str.split(" and ").map(lambda r: "built-in" in r)]
    if "built-in" in win["role"].split(" and "):  # the winner is a family at its defaults: no setting beat it
        parts.append("a built-in at its defaults: no other setting raced beat it")
        table = table[~table.index.isin(builtins.index)]
    elif len(builtins):  # one line for the best of them (on these deals), not one per family
        best = builtins.loc[(builtins["mean"] if meta["lower"] else -builtins["mean"]).idxmin()]
        table = table[~table.index.isin(builtins.index) | (table.index == best.name)].copy()
        table.loc[best.name, "role"] = best["role"].replace("built-in", "best built-in")
    for _, row in table.iloc[1:].iterrows():
        if row["worse_by"] == 0 and row["worse_ci95"] == 0:
            parts.append(f"the same on every fresh deal as {role(row['role'])} ({row['strategy']})")
            continue
        better = "better" if row["worse_by"] > 0 else "worse"
        parts.append(f"{value(abs(row['worse_by']), row['worse_ci95'], share)} {better} than {role(row['role'])} "
                     f"({row['strategy']})")
    found = (f"Against {field_text(meta)} at {meta['players']} players, the best of {len(meta['candidates']):,} "
             f"settings is **{win['strategy']}**: {value(win['mean'], win['ci95'], share)} {meta['label']} on "
             f"{hands:,} fresh {meta['unit']}")
    return found + (", " + "; ".join(parts) if parts else "") + "."


def summary(folder: str | Path) -> str:
    """The command line's lines: the answer, the race in a line, the confirmation table."""
    meta = read(folder)
    rounds = meta["rounds"]
    plural = "s" if len(rounds) != 1 else ""
    its = len(meta.get("iterations", []))
    proposed = f" (proposed by TPE in {its} iterations)" if its > 1 else ""
    race = (f"race: {len(meta['candidates']):,} candidates{proposed}, {len(rounds)} round{plural}, {meta['spent']:,} "
            f"{meta['unit']} ({meta['ended']}); confirmed on {meta['confirmation'][0]['deals']:,} fresh deals "
            "(± = 95% interval)")
    return "\n".join([answer(meta), race, confirmation_table(meta).to_string(index=False), f"folder: {folder}"])


def confirmation_table(meta: dict) -> pd.DataFrame:
    """The confirmation as shown (the command line's and the report's): each strategy, its role,
    its figure and how much worse than the winner, each ± its 95% interval."""
    table = confirmation(meta)
    share = meta["share"]
    return pd.DataFrame({"strategy": table["strategy"], "as": [role(r) for r in table["role"]],
                         meta["label"]: [value(m, h, share) for m, h in zip(table["mean"], table["ci95"])],
                         "worse than the winner by": ["" if i == 0 else value(d, h, share, sign=True) for i, (d, h)
                                                      in enumerate(zip(table["worse_by"], table["worse_ci95"]))]})
