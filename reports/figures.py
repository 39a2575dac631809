"""matplotlib figures of a results table (no display needed)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402


def strategy_comparison(means: pd.DataFrame, value: str):
    """Mean per strategy with its 95% interval, one panel row per cell."""
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(means) + 1.5))
    labels = [f"{r.strategy}  ({r.players}p, cell {r.cell})" for r in means.itertuples()]
    y = np.arange(len(means))
    ax.errorbar(means["mean"], y, xerr=means["ci95"], fmt="o", capsize=4)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlabel(f"mean {value} per hand and seat (95% interval)")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


def distributions(table: pd.DataFrame, value: str):
    """How `value` is spread, per strategy (all cells together)."""
    fig, ax = plt.subplots(figsize=(8, 4))
    top = int(np.percentile(table[value], 99.5)) + 1
    for strategy, group in table.groupby("strategy"):
        ax.hist(group[value], bins=np.arange(0, top + 2) - 0.5, histtype="step", density=True, label=strategy)
    ax.set_xlabel(value)
    ax.set_ylabel("share")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def hand_lengths(table: pd.DataFrame):
    """Tricks per hand (one count per hand and rotation)."""
    fig, ax = plt.subplots(figsize=(8, 3.5))
    per_hand = table.drop_duplicates(["cell", "rotation", "hand"])
    for (cell, players), group in per_hand.groupby(["cell", "players"]):
        ax.hist(group["tricks"], bins=np.arange(0, group["tricks"].max() + 2) - 0.5, histtype="step",
                density=True, label=f"cell {cell}, {players} players")
    ax.set_xlabel("tricks per hand")
    ax.set_ylabel("share")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig
