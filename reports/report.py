"""`simkit report DIR`: the results table of a run as report.md and a self-contained report.html,
with the figures as PNG files beside them (embedded in the HTML)."""

import base64
import html
import json
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

from reports import figures, tables
from simkit.errors import SimkitError
from simkit.files import atomic_path


def _fmt(frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    for col in out.columns:
        if col in ("mean", "difference"):
            out[col] = [f"{m:+.3f}" if col == "difference" else f"{m:.3f}" for m in out[col]]
        elif col == "ci95":
            out[col] = [f"± {h:.3f}" for h in out[col]]
        elif col == "n":
            out[col] = [f"{n:,}" for n in out[col]]
        elif col == "decisive":
            out[col] = out[col].map({True: "yes", False: "no"})
    return out


def _markdown(frame: pd.DataFrame) -> str:
    return tables.markdown(_fmt(frame))


def _atomic_write(path: Path, data: bytes) -> None:
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def make_report(folder: str, baseline: str = "lowest") -> Path:
    """Write report.md, report.html and the PNG figures into `folder`; returns the HTML path."""
    out = Path(folder)
    results = out / "results.parquet"
    if not results.is_file():
        raise SimkitError(f"{folder} holds no results.parquet (run `simkit run` first)")
    table = pd.read_parquet(results)
    meta = json.loads((out / "meta.json").read_text()) if (out / "meta.json").is_file() else {}
    value = "penalty" if "penalty" in table.columns else "total"
    means = tables.strategy_means(table, value)
    diffs = tables.paired_differences(table, value, baseline)
    seats = tables.seat_effect(table, value)
    figs = {"comparison.png": figures.strategy_comparison(means, value),
            "distribution.png": figures.distributions(table, value)}
    if "tricks" in table.columns:
        figs["hand-length.png"] = figures.hand_lengths(table)
    images = {}
    for name, fig in figs.items():
        fig.savefig(out / name, dpi=110)
        plt.close(fig)
        images[name] = (out / name).read_bytes()
    name = str(table["experiment"].iloc[0])
    sections = [
        (f"Mean {value} per strategy", _markdown(means)),
        (f"Paired difference to {baseline} (same deal, same seat; negative = fewer points)",
         _markdown(diffs) if len(diffs) else f"({baseline} is not in the lineup: no paired differences)"),
        ("Seat position effect", _markdown(seats)),
    ]
    intro = (f"{len(table):,} rows; seed {meta.get('seed', '?')}, {meta.get('hands', '?')} hands per cell, "
             f"seating {meta.get('seating', '?')}, rules {meta.get('rules', '?')}. Every ± is a 95% interval.")
    md = [f"# {name}", "", intro, ""]
    for title, body in sections:
        md += [f"## {title}", "", body, ""]
    md += [f"![{n}]({n})" for n in images]
    _atomic_write(out / "report.md", "\n".join(md).encode())
    body = [f"<h1>{html.escape(name)}</h1>", f"<p>{html.escape(intro)}</p>"]
    for title, text in sections:
        body.append(f"<h2>{html.escape(title)}</h2>")
        body.append(_html_table(text))
    for n, data in images.items():
        body.append(f'<p><img alt="{n}" src="data:image/png;base64,{base64.b64encode(data).decode()}"></p>')
    page = ("<!doctype html><html><head><meta charset='utf-8'><title>" + html.escape(name) +
            "</title><style>body{font-family:sans-serif;max-width:60em;margin:auto}table{border-collapse:collapse}"
            "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}</style></head><body>" +
            "\n".join(body) + "</body></html>")
    _atomic_write(out / "report.html", page.encode())
    return out / "report.html"


def _html_table(markdown: str) -> str:
    lines = [x for x in markdown.splitlines() if x.startswith("|") and not x.startswith("|---")]
    if not lines:
        return f"<p>{html.escape(markdown)}</p>"
    cells = [[html.escape(c.strip()) for c in x.strip("|").split("|")] for x in lines]
    head = "".join(f"<th>{c}</th>" for c in cells[0])
    rows = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in cells[1:])
    return f"<table><tr>{head}</tr>{rows}</table>"
