"""matplotlib figures of a run's statistics (no display needed)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from simkit.registry import CEILING_MARK  # noqa: E402
from simkit.reports.tables import DIFFERENCE_UNIT, MEAN_UNIT, SHARES, lineup_names  # noqa: E402


def _summed(histograms: dict, groups) -> np.ndarray:
    """The counts by value of several groups' histograms together."""
    parts = [np.asarray(histograms[g], dtype=np.float64) for g in groups if g in histograms]
    if not parts:
        return np.zeros(1)
    out = np.zeros(max(len(p) for p in parts))
    for part in parts:
        out[:len(part)] += part
    return out


def _step(ax, counts: np.ndarray, label: str) -> None:
    """A histogram of whole values as a density step line (bins centred on the values)."""
    if counts.sum() == 0:
        return
    values = np.arange(len(counts))
    ax.hist(values, bins=np.arange(0, len(counts) + 1) - 0.5, weights=counts / counts.sum(), histtype="step",
            label=label)


def strategy_comparison(means: pd.DataFrame, value: str):
    """Mean per strategy with its 95% interval, a row per cell (or per player count, pooled)."""
    fig, ax = plt.subplots(figsize=(8, 0.3 * len(means) + 1.5))
    many = "cell" in means.columns and means["cell"].nunique() > 1
    labels = [f"{r.strategy}" + (f"  (table {r.cell}, {r.players}p)" if many else "") for r in means.itertuples()]
    y = np.arange(len(means))
    ax.errorbar(means["mean"], y, xerr=means["ci95"], fmt="o", capsize=4)
    ax.set_yticks(y, labels)
    ax.invert_yaxis()
    ax.margins(x=0.1, y=0.1)  # no mark on the frame's edge
    what = {"penalty": "mean penalty per hand and seat", "total": "mean match total per seat",
            **MEAN_UNIT}.get(value, f"mean {value}")
    ax.set_xlabel(f"{what} (95% interval)")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


def distributions(stats, value: str, shown=str):
    """How `value` is spread, per strategy (all cells together), up to its 99.5th percentile. Where
    a value of 0 stands out (a seat that went out scores nothing), its share is a bar of its own
    and the rest is drawn as the spread of the values above 0, so that differences are visible.
    `shown(name)`: a strategy's label as drawn."""
    names = sorted(dict.fromkeys(g[3] for g in stats.layout.groups if g[0] == "strategy"))
    every = _summed(stats.seat_histograms, stats.seat_histograms)
    top = int(np.searchsorted(np.cumsum(every) / max(every.sum(), 1), 0.995)) + 1
    counts = {name: _summed(stats.seat_histograms, [g for g, key in enumerate(stats.layout.groups)
                                                     if key[0] == "strategy" and key[3] == name]) for name in names}
    counts = {k: np.pad(c, (0, max(0, top + 1 - len(c))))[:top + 1] for k, c in counts.items()}
    spike = every[0] / max(every.sum(), 1) > 0.1
    if not spike:
        fig, ax = plt.subplots(figsize=(8, 4))
        for name in names:
            _step(ax, counts[name], shown(name))
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
            _step(ax, rest, shown(name))
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
        _step(ax, _summed(stats.table_histograms, group), label)
    if log:
        ax.set_xscale("log")
        ax.set_xlim(left=max(1.0, ax.get_xlim()[0]))
    ax.set_xlabel(what + (" (logarithmic)" if log else ""))
    ax.set_ylabel("share")
    ax.legend(fontsize=7, ncol=2)
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
    labels = [f"{r.strategy}  ({r.players}p, cell {r.cell})" for r in rates.itertuples()]
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
    labels = [f"{r.strategy}  ({r.players}p, cell {r.cell})" for r in means.itertuples()]
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


def loss_causes(causes: pd.DataFrame):
    """Ezelen: each strategy's share of rounds lost as the last to copy and through tempo faults,
    with 95% intervals over deals."""
    fig, ax = plt.subplots(figsize=(8, 0.4 * len(causes) + 1.5))
    y = np.arange(len(causes))
    labels = [f"{r.strategy}  ({r.players}p, cell {r.cell})" for r in causes.itertuples()]
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
        counts = _summed(stats.table_histograms, [cell["cell"]])
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
    point = _point(cell)
    return f", {point}" if point else ""


def _point(cell: dict) -> str:
    """A table's sweep point, short: 'attention=0.25, reaction_median=0.3'."""
    return ", ".join(f"{k.split('.', 1)[-1]}={v:g}" for k, v in cell.get("sweep", {}).items())


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


def forest(diffs: pd.DataFrame, value: str, baseline: str, cells: list[dict]):
    """The paired difference of every strategy to the baseline with its 95% interval, sorted,
    filled where the interval excludes zero: a panel per table (never pooled over tables), or,
    where every table compares one strategy (a sweep), one panel with a row per table."""
    unit = DIFFERENCE_UNIT.get(value, value)
    scale = 100.0 if value in SHARES else 1.0
    shown = list(dict.fromkeys(diffs["cell"]))
    if diffs.groupby("cell").size().max() == 1 and len(shown) > 1:
        fig, ax = plt.subplots(figsize=(8, 0.32 * len(diffs) + 1.6))
        labels = [f"{r.strategy}, {_point(cells[r.cell]) or f'{r.players} players'}" for r in diffs.itertuples()]
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
            ax.set_title(_point(cells[cell]) or f"table {cell}, {cells[cell]['players']} players", fontsize=9)
        for ax in axes.flat[len(shown):]:
            ax.set_visible(False)
    for column in axes.T:  # the lowest panel of each column carries the axis
        bottom = [ax for ax in column if ax.get_visible()][-1]
        bottom.xaxis.set_tick_params(labelbottom=True)
        bottom.set_xlabel(f"difference, {unit}")
    fig.suptitle(f"Paired difference to {baseline} on the same deals (negative = better)", fontsize=11)
    fig.tight_layout()
    return fig
