"""The experiment report's figures drawn from a run's statistics themselves: the histograms of
its measures (a seat's penalties, a hand's length, Ezelen's first signal) and Ezelen's causes of
a lost round. The figures of its tables are the page parts' (simkit.reports.figures)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from simkit.experiments.report.tables import lineup_names  # noqa: E402
from simkit.reports.figures import point, step, summed  # noqa: E402


def distributions(stats, value: str, shown=str):
    """How `value` is spread, per strategy (all cells together), up to its 99.5th percentile. Where
    a value of 0 stands out (a seat that went out scores nothing), its share is a bar of its own
    and the rest is drawn as the spread of the values above 0, so that differences are visible.
    `shown(name)`: a strategy's label as drawn."""
    names = sorted(dict.fromkeys(g[3] for g in stats.layout.groups if g[0] == "strategy"))
    every = summed(stats.seat_histograms, stats.seat_histograms)
    top = int(np.searchsorted(np.cumsum(every) / max(every.sum(), 1), 0.995)) + 1
    counts = {name: summed(stats.seat_histograms, [g for g, key in enumerate(stats.layout.groups)
                                                     if key[0] == "strategy" and key[3] == name]) for name in names}
    counts = {k: np.pad(c, (0, max(0, top + 1 - len(c))))[:top + 1] for k, c in counts.items()}
    spike = every[0] / max(every.sum(), 1) > 0.1
    if not spike:
        fig, ax = plt.subplots(figsize=(8, 4))
        for name in names:
            step(ax, counts[name], shown(name))
    else:
        fig, (bars, ax) = plt.subplots(1, 2, figsize=(10, 4), gridspec_kw={"width_ratios": [1, 3]})
        y = np.arange(len(names))
        bars.barh(y, [100 * counts[k][0] / max(counts[k].sum(), 1) for k in names],
                  color=[f"C{i}" for i in range(len(names))])
        bars.set_yticks(y, [shown(name) for name in names])
        bars.invert_yaxis()
        bars.set_xlabel(f"% of seat rows with {value} 0")
        bars.margins(x=0.1)
        for i, name in enumerate(names):
            rest = counts[name].astype(np.float64)
            rest[0] = 0
            step(ax, rest, shown(name))
        ax.set_title(f"the rest: {value} above 0", fontsize=9)
    ax.set_xlabel(value)
    ax.set_ylabel("share")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    return fig


def hand_lengths(stats, shown=str, what: str = "tricks per hand", log: bool = False):
    """Tricks per hand (one count per hand and rotation; or `what` the table histogram counts): a
    line per cell, or per player count when there are many cells; `shown(text)`: a lineup as drawn;
    `log`: a logarithmic length axis (lengths over a decade or two, as games of 2 to 6 players)."""
    fig, ax = plt.subplots(figsize=(8, 3.5))
    cells = stats.layout.cells
    names = lineup_names(stats)
    if len(cells) <= 8:
        lines = [(f"table {c['cell']}: {shown(names[c['cell']])} ({c['players']}p){_sweep_label(c)}", [c["cell"]])
                 for c in cells]
    else:
        players = sorted({c["players"] for c in cells})
        lines = [(f"{n} players (all cells)", [c["cell"] for c in cells if c["players"] == n]) for n in players]
    for label, group in lines:
        step(ax, summed(stats.table_histograms, group), label)
    if log:
        ax.set_xscale("log")
        ax.set_xlim(left=max(1.0, ax.get_xlim()[0]))
    ax.set_xlabel(what + (" (logarithmic)" if log else ""))
    ax.set_ylabel("share")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    return fig


def loss_causes(causes: pd.DataFrame):
    """Ezelen: each strategy's share of rounds lost as the last to copy and through tempo faults,
    with 95% intervals over deals."""
    fig, ax = plt.subplots(figsize=(8, 0.4 * len(causes) + 1.5))
    y = np.arange(len(causes))
    labels = [f"{r.strategy}  ({r.players}p, table {r.cell})" for r in causes.itertuples()]
    for offset, cause in ((-0.15, "last"), (0.15, "tempo")):
        ax.errorbar(causes[cause], y + offset, xerr=[causes[cause] - causes[f"{cause}_low"],
                                                     causes[f"{cause}_high"] - causes[cause]],
                    fmt="o", capsize=3, label=f"lost as {'the last to copy' if cause == 'last' else 'tempo fault'}")
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlabel("share of rounds lost (95% interval over deals)")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def first_signal_turns(stats):
    """Ezelen: how many turns pass before the first signal, as the share of rounds signalled by
    each turn (a line per cell, named by its strategies, each in a style of its own so that equal
    curves stay visible; turns linear to 10, logarithmic beyond, since random passing takes a
    hundred times longer than the others)."""
    fig, ax = plt.subplots(figsize=(8, 4))
    names = lineup_names(stats)
    styles = ["-", "--", ":", "-."]
    for k, cell in enumerate(stats.layout.cells[:12]):
        counts = summed(stats.table_histograms, [cell["cell"]])
        if counts.sum() == 0:
            continue
        turns = np.flatnonzero(counts)
        ax.step(np.concatenate([[0], turns]), np.concatenate([[0], np.cumsum(counts[turns]) / counts.sum()]),
                where="post", lw=2.2 - 0.25 * (k // 4), ls=styles[k % 4], color=f"C{k % 10}",
                label=f"table {cell['cell']}: {names[cell['cell']]} ({cell['players']}p)")
    ax.set_xscale("symlog", linthresh=10, linscale=1.5)
    ax.set_xlim(left=0)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("turn of the first signal (0: a set was dealt; linear to 10, logarithmic beyond)")
    ax.set_ylabel("share of rounds with a signal\nsignalled by this turn")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def _sweep_label(cell: dict) -> str:
    where = point(cell)
    return f", {where}" if where else ""
