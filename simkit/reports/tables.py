"""Tables as a report writes them: numbers with their intervals as a reader wants them
(simkit.stats.notation), and a table as GitHub Markdown."""

import pandas as pd

from simkit.stats import notation


def markdown(frame: pd.DataFrame) -> str:
    """A table as GitHub Markdown, columns only (reset the index first to show it)."""
    head = "| " + " | ".join(map(str, frame.columns)) + " |\n|" + "---|" * len(frame.columns) + "\n"
    return head + "\n".join("| " + " | ".join(str(v) for v in row) + " |" for row in frame.itertuples(index=False))


def written(frame: pd.DataFrame, percent: bool = False) -> pd.DataFrame:
    """Numbers as a reader wants them: ± intervals, shares in percent with theirs; `percent`: the
    table's means and differences are shares (Ezelen's rounds lost)."""
    out = frame.copy()
    for prefix in [c for c in out.columns if c.endswith(" vs fair") and f"{c} ±" in out.columns]:  # percentage points
        out[prefix] = [f"{notation.percent(d, h, sign=True)} pp" for d, h in zip(out[prefix], out[f"{prefix} ±"])]
        out = out.drop(columns=[f"{prefix} ±"])
    for col in [c for c in out.columns if c.endswith(" fair") and not c.endswith(" vs fair")]:
        out[col] = [f"{100 * v:.1f}%" for v in out[col]]
    for prefix in [c for c in out.columns if f"{c}_low" in out.columns and f"{c}_high" in out.columns]:
        out[prefix] = [notation.share(*r) for r in zip(out[prefix], out[f"{prefix}_low"], out[f"{prefix}_high"])]
        out = out.drop(columns=[f"{prefix}_low", f"{prefix}_high"])
    for prefix in [c for c in out.columns if f"{c} ±" in out.columns]:  # a mean and its interval: one column
        out[prefix] = [notation.mean(m, h, 2) for m, h in zip(out[prefix], out[f"{prefix} ±"])]
        out = out.drop(columns=[f"{prefix} ±"])
    for col in ("win", "beats"):
        if col in out.columns:
            out[col] = [notation.share(*r) for r in zip(out[col], out["low"], out["high"])]
            out = out.drop(columns=["low", "high"])
    for col in out.columns:
        if col in ("mean", "difference", "estimate"):
            sign = "+" if col != "mean" else ""
            out[col] = [f"{100 * m:{sign}.2f}{'%' if not sign else ''}" if percent else f"{m:{sign}.3f}"
                        for m in out[col]]
        elif col == "ci95":
            out[col] = [f"± {100 * h:.2f}" if percent else f"± {h:.3f}" for h in out[col]]
        elif col in ("n", "n signalled"):
            out[col] = [f"{n:,}" if n == n else "0" for n in out[col]]
        elif col == "decisive":
            out[col] = out[col].map({True: "yes", False: "no"})
    if percent:  # the means carry their %, the differences are in percentage points
        out = out.rename(columns={"difference": "difference, pp", "estimate": "estimate, pp"}
                         if "measure" not in frame.columns or frame["measure"].iloc[0].startswith("difference")
                         else {"difference": "difference, pp"})
    if "n" in out.columns:  # n last, beside the numbers it belongs to
        out = out[[c for c in out.columns if c != "n"] + ["n"]]
    return out
