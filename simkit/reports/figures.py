"""matplotlib figures a report draws from its tables (no display needed): each takes a table with
its intervals and the words for its axes, so that every kind of run can use them."""

import textwrap

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from simkit.strategies.registry import CEILING_MARK  # noqa: E402


def summed(histograms: dict, groups) -> np.ndarray:
    """The counts by value of several groups' histograms together."""
    parts = [np.asarray(histograms[g], dtype=np.float64) for g in groups if g in histograms]
    if not parts:
        return np.zeros(1)
    out = np.zeros(max(len(p) for p in parts))
    for part in parts:
        out[:len(part)] += part
    return out


def step(ax, counts: np.ndarray, label: str) -> None:
    """A histogram of whole values as a density step line (bins centred on the values)."""
    if counts.sum() == 0:
        return
    values = np.arange(len(counts))
    ax.hist(values, bins=np.arange(0, len(counts) + 1) - 0.5, weights=counts / counts.sum(), histtype="step",
            label=label)


def strategy_comparison(means: pd.DataFrame, unit: str):
    """Mean per strategy with its 95% interval, a row per cell (or per player count, pooled);
    `unit`: what a mean is in."""
    fig, ax = plt.subplots(figsize=(8, 0.3 * len(means) + 1.5))
    many = "cell" in means.columns and means["cell"].nunique() > 1
    labels = [f"{r.strategy}" + (f"  (table {r.cell}, {r.players}p)" if many else "") for r in means.itertuples()]
    y = np.arange(len(means))
    ax.errorbar(means["mean"], y, xerr=means["ci95"], fmt="o", capsize=4)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.margins(x=0.1, y=0.1)  # no mark on the frame's edge
    ax.set_xlabel(f"{unit} (95% interval)")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


def sweep_curves(curves: pd.DataFrame, percent: bool = False):
    """One panel per swept parameter: the measure against the parameter value for the strategy
    that is swept (a line per player count), with its 95% band; the baseline as a line at zero.
    `percent`: the measure is a share, drawn in percent (a difference in percentage points)."""
    scale = 100.0 if percent else 1.0
    params = list(dict.fromkeys(curves["parameter"]))
    fig, axes = plt.subplots(1, len(params), figsize=(6 * len(params), 4), squeeze=False)
    for ax, param in zip(axes[0], params):
        sub = curves[curves["parameter"] == param]
        family = [name.split(" (", 1)[0].removesuffix(CEILING_MARK) for name in sub["strategy"]]
        swept = sub[[param.startswith(f"{name}.") for name in family]]
        sub = swept if len(swept) else sub
        for (strategy, players), line in sub.groupby(["strategy", "players"], sort=True):
            line = line.sort_values("value")
            mid, half = scale * line["estimate"], scale * line["ci95"]
            ax.plot(line["value"], mid, "o-", label=f"{strategy}, {players} players")
            ax.fill_between(line["value"], mid - half, mid + half, alpha=0.25)
        if sub["measure"].str.startswith("difference").any():
            baseline = sub["measure"].iloc[0].removeprefix("difference to ")
            ax.axhline(0, color="grey", lw=1, label=f"{baseline} (the baseline)")
        ax.set_xlabel(param)
        what = sub["measure"].iloc[0]
        unit = (", percentage points" if what.startswith("difference") else ", %") if percent else ""
        ax.set_ylabel(f"{what}{unit} (95% band)")
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
    """A share per strategy (match wins, donkeys) with its 95% interval over deals."""
    fig, ax = plt.subplots(figsize=(8, 0.3 * len(rates) + 1.5))
    labels = [f"{r.strategy}  ({r.players}p, table {r.cell})" for r in rates.itertuples()]
    y = np.arange(len(rates))
    ax.errorbar(rates[column], y, xerr=[rates[column] - rates[low], rates[high] - rates[column]], fmt="o", capsize=4)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


def seat_means(means: pd.DataFrame, measures: list[str], unit: str):
    """The game's seat means per strategy and table (e.g. Eigenwijs: how often a seat took the
    cards per game, and for which fault), a marker per measure with its 95% interval over deals."""
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(means) + 1.6))
    y = np.arange(len(means))
    labels = [f"{r.strategy}  ({r.players}p, table {r.cell})" for r in means.itertuples()]
    step = 0.7 / max(len(measures), 1)
    for k, name in enumerate(measures):
        offset = -0.35 + step * (k + 0.5)
        ax.errorbar(means[name], y + offset, xerr=means[f"{name} ±"], fmt="o", ms=4, capsize=2,
                    label=name.replace("_", " "))
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.set_xlabel(f"{unit} (95% interval over deals)")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(fontsize=8, ncol=min(len(measures), 5), loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    fig.tight_layout()
    return fig


def point(cell: dict) -> str:
    """A table's sweep point, short: 'attention=0.25, reaction_median=0.3', and its swept rule
    options' values: 'chicks=True'."""
    return ", ".join([f"{k.split('.', 1)[-1]}={v:g}" for k, v in cell.get("sweep", {}).items()]
                     + [f"{k}={v}" for k, v in cell.get("rules", {}).items()])


def variants(frame: pd.DataFrame, reference: str):
    """Each rule variant's paired difference to the reference rules with its 95% interval, a panel
    per measure of the table (`frame`: experiments' report/variants.rule_variants) that varies,
    filled where the interval excludes zero; shares in percentage points. The variants keep one
    order in every panel: the largest change of the first measure first (top). None where no
    measure varies."""
    frame = frame[frame["strategy"] == ""]  # the table's measures, not each strategy's
    spread = (frame["difference"].abs() + frame["ci95"]).groupby(frame["measure"]).max()
    measures = [m for m in dict.fromkeys(frame["measure"]) if spread[m] > 0][:6]  # not those that never vary
    if not measures:
        return None
    several = frame["players"].nunique() > 1
    first = frame[frame["measure"] == measures[0]]
    order = list(first.iloc[np.argsort(-first["difference"].abs().to_numpy(), kind="stable")]["cell"])[::-1]
    cols = min(3, len(measures))
    rows = -(-len(measures) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.6 * cols + 3.2, (0.32 * len(order) + 1.3) * rows + 0.7),
                             squeeze=False, sharey=True)
    for ax, measure in zip(axes.flat, measures):
        part = frame[frame["measure"] == measure].set_index("cell").loc[order]
        scale = 100.0 if bool(part["share"].iloc[0]) else 1.0
        for y, r in enumerate(part.itertuples()):
            ax.errorbar(scale * r.difference, y, xerr=scale * r.ci95, fmt="o", capsize=3, color="C0",
                        markerfacecolor="C0" if r.decisive else "white")
        ax.axvline(0, color="0.3", lw=1)
        ax.margins(x=0.15)
        ax.grid(axis="x", alpha=0.3)
        title = measure + (" (percentage points)" if scale == 100.0 else "")
        ax.set_title(textwrap.fill(title, 38), fontsize=9)
    labels = [f"{r.variant}{f' ({r.players}p)' if several else ''}"
              for r in first.set_index("cell").loc[order].itertuples()]
    for row in axes:
        row[0].set_yticks(range(len(order)), labels)
        row[0].set_ylim(-0.7, len(order) - 0.3)
    for ax in axes.flat[len(measures):]:
        ax.set_visible(False)
    fig.suptitle(f"Each rule variant against {reference}, on the same deals (95% intervals)", fontsize=11)
    fig.tight_layout()
    return fig


def _forest_panel(ax, part: pd.DataFrame, labels: list[str], scale: float) -> None:
    order = np.argsort(-part["difference"].to_numpy(), kind="stable")
    part, labels = part.iloc[order], [labels[i] for i in order]
    y = np.arange(len(part))
    for yi, r in zip(y, part.itertuples()):
        ax.errorbar(scale * r.difference, yi, xerr=scale * r.ci95, fmt="o", capsize=3, color="C0",
                    markerfacecolor="C0" if r.decisive else "white")
    ax.axvline(0, color="0.3", lw=1)
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.7, len(part) - 0.3)
    ax.margins(x=0.15)
    ax.grid(axis="x", alpha=0.3)


def forest(diffs: pd.DataFrame, unit: str, percent: bool, baseline: str, cells: list[dict]):
    """The paired difference of every strategy to the baseline with its 95% interval, sorted,
    filled where the interval excludes zero: a panel per table (never pooled over tables), or,
    where every table compares one strategy (a sweep), one panel with a row per table. `unit`:
    what a difference is in; `percent`: the measure is a share, drawn in percentage points."""
    scale = 100.0 if percent else 1.0
    shown = list(dict.fromkeys(diffs["cell"]))
    if diffs.groupby("cell").size().max() == 1 and len(shown) > 1:
        fig, ax = plt.subplots(figsize=(8, 0.32 * len(diffs) + 1.6))
        labels = [f"{r.strategy}, {point(cells[r.cell]) or f'{r.players} players'}" for r in diffs.itertuples()]
        _forest_panel(ax, diffs, labels, scale)
        axes = np.array([[ax]])
    else:
        shown = shown[:24]
        cols = min(3, len(shown))
        rows = -(-len(shown) // cols)
        tall = max(len(diffs[diffs["cell"] == c]) for c in shown)
        fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols + 1.5, (0.35 * tall + 1.1) * rows + 0.6),
                                 squeeze=False, sharex=True)
        for ax, cell in zip(axes.flat, shown):
            part = diffs[diffs["cell"] == cell]
            _forest_panel(ax, part, list(part["strategy"]), scale)
            ax.set_title(point(cells[cell]) or f"table {cell}, {cells[cell]['players']} players", fontsize=9)
        for ax in axes.flat[len(shown):]:
            ax.set_visible(False)
    for column in axes.T:  # the lowest panel of each column carries the axis
        bottom = [ax for ax in column if ax.get_visible()][-1]
        bottom.xaxis.set_tick_params(labelbottom=True)
        bottom.set_xlabel(f"difference, {unit}")
    fig.suptitle(f"Paired difference to {baseline} on the same deals (negative = better)", fontsize=11)
    fig.tight_layout()
    return fig
