"""matplotlib figures of a results table (no display needed)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from reports.tables import lineup_names  # noqa: E402


def strategy_comparison(means: pd.DataFrame, value: str):
    """Mean per strategy with its 95% interval, a row per cell (or per player count, pooled)."""
    fig, ax = plt.subplots(figsize=(8, 0.3 * len(means) + 1.5))
    labels = [f"{r.strategy}  ({r.players}p" + (f", cell {r.cell})" if "cell" in means.columns else ")")
              for r in means.itertuples()]
    y = np.arange(len(means))
    ax.errorbar(means["mean"], y, xerr=means["ci95"], fmt="o", capsize=4)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    what = {"penalty": "mean penalty per hand and seat", "total": "mean match total per seat",
            "lost": "share of rounds lost"}.get(value, f"mean {value}")
    ax.set_xlabel(f"{what} (95% interval)")
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
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    return fig


def hand_lengths(table: pd.DataFrame):
    """Tricks per hand (one count per hand and rotation): a line per cell, or per player count
    when there are many cells."""
    fig, ax = plt.subplots(figsize=(8, 3.5))
    per_hand = table[table["seat"] == 0]
    keys = ["cell", "players"] if per_hand["cell"].nunique() <= 8 else ["players"]
    for key, group in per_hand.groupby(keys):
        label = f"cell {key[0]}, {key[1]} players" if len(keys) == 2 else f"{key[0]} players (all cells)"
        ax.hist(group["tricks"], bins=np.arange(0, group["tricks"].max() + 2) - 0.5, histtype="step",
                density=True, label=label)
    ax.set_xlabel("tricks per hand")
    ax.set_ylabel("share")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    return fig


def sweep_curves(curves: pd.DataFrame):
    """One panel per swept parameter: the measure against the parameter value, a line per strategy
    and player count, with its 95% band."""
    params = list(dict.fromkeys(curves["parameter"]))
    fig, axes = plt.subplots(1, len(params), figsize=(6 * len(params), 4), squeeze=False)
    for ax, param in zip(axes[0], params):
        sub = curves[curves["parameter"] == param]
        for (strategy, players), line in sub.groupby(["strategy", "players"], sort=True):
            line = line.sort_values("value")
            ax.plot(line["value"], line["estimate"], "o-", label=f"{strategy}, {players} players")
            ax.fill_between(line["value"], line["estimate"] - line["ci95"], line["estimate"] + line["ci95"], alpha=0.25)
        if sub["measure"].str.startswith("difference").any():
            ax.axhline(0, color="grey", lw=0.8)
        ax.set_xlabel(param)
        ax.set_ylabel(f"{sub['measure'].iloc[0]} (95% band)")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def pairwise_heatmap(pairs: pd.DataFrame):
    """P(row beats column) for every pairing of a tournament, the 95% interval in each square."""
    names = sorted(set(pairs["strategy"]) | set(pairs["opponent"]))
    grid = np.full((len(names), len(names)), np.nan)
    for r in pairs.itertuples():
        grid[names.index(r.strategy), names.index(r.opponent)] = r.beats
    size = 1.1 * len(names) + 2.5
    fig, ax = plt.subplots(figsize=(size + 1.5, size))
    image = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1)
    for r in pairs.itertuples():
        i, j = names.index(r.strategy), names.index(r.opponent)
        ax.text(j, i, f"{r.beats:.2f}\n{r.low:.2f}–{r.high:.2f}", ha="center", va="center", fontsize=7)
    ax.set_xticks(range(len(names)), names, rotation=45, ha="right")
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("opponent")
    ax.set_ylabel("strategy")
    fig.colorbar(image, ax=ax, label="P(strategy beats opponent)")
    fig.tight_layout()
    return fig


def shares(rates: pd.DataFrame, column: str, low: str, high: str, xlabel: str):
    """A share per strategy (match wins, donkeys) with its Wilson interval."""
    fig, ax = plt.subplots(figsize=(8, 0.3 * len(rates) + 1.5))
    labels = [f"{r.strategy}  ({r.players}p, cell {r.cell})" for r in rates.itertuples()]
    y = np.arange(len(rates))
    ax.errorbar(rates[column], y, xerr=[rates[column] - rates[low], rates[high] - rates[column]], fmt="o", capsize=4)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


def loss_causes(causes: pd.DataFrame):
    """Ezelen: each strategy's share of rounds lost as the last to copy and through tempo faults,
    with 95% Wilson intervals."""
    fig, ax = plt.subplots(figsize=(8, 0.4 * len(causes) + 1.5))
    y = np.arange(len(causes))
    labels = [f"{r.strategy}  ({r.players}p, cell {r.cell})" for r in causes.itertuples()]
    for offset, cause in ((-0.15, "last"), (0.15, "tempo")):
        ax.errorbar(causes[cause], y + offset, xerr=[causes[cause] - causes[f"{cause}_low"],
                                                     causes[f"{cause}_high"] - causes[cause]],
                    fmt="o", capsize=3, label=f"lost as {'the last to copy' if cause == 'last' else 'tempo fault'}")
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlabel("share of rounds lost (95% Wilson interval)")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def first_signal_turns(table: pd.DataFrame):
    """Ezelen: how many turns pass before the first signal, as the share of rounds signalled by
    each turn (a line per cell, named by its strategies; log scale, since random passing takes
    a hundred times longer than the others)."""
    fig, ax = plt.subplots(figsize=(8, 4))
    one = table[(table["seat"] == 0) & (table["first_signal"] >= 0)]
    names = lineup_names(table)
    cells = sorted(one["cell"].unique())
    for cell in cells[:12]:
        turns = np.sort(one.loc[one["cell"] == cell, "first_signal"].to_numpy())
        players = int(one.loc[one["cell"] == cell, "players"].iloc[0])
        ax.step(turns + 1, np.arange(1, len(turns) + 1) / len(turns), where="post",
                label=f"cell {cell}: {names[cell]} ({players}p)")
    ax.set_xscale("log")
    ax.set_xlabel("turn of the first signal + 1 (1 = a set dealt; log scale)")
    ax.set_ylabel("share of rounds signalled by then")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig
