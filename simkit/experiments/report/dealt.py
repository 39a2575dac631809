"""The report's "What the deal is worth" (a spec's `by`): for each strategy, what one more of each
feature of its dealt hand goes with (the least-squares slope of the seat measure on the feature
over its seat rows: for a feature of 0 or 1, the difference of the two groups' means), each with
its 95% interval over deals from the grouped moments (simkit.stats.deal_groups); the groups' own
means; a forest plot per feature. Observational: hands with more jokers differ in other ways too
(a hand's size is fixed by the player count, so a joker comes with one other card fewer)."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

TITLE = "What the deal is worth"
WORDS = {"jokers": "one more joker", "ass": "being dealt the ass", "size": "one more card dealt",
         "low": "one more card of the lowest three values", "pairs": "one more pair in the first hand",
         "most": "one more card of the first hand's commonest value", "first": "flipping first",
         "turn": "one place later in the order of flipping"}
# why a feature's value is not what adding it to a given hand would do (beyond "hands differ in other ways")
CAVEATS = {"jokers": "a hand's size is fixed by the player count, so a joker comes with one other card fewer",
           "low": "a hand's size is fixed by the player count, so a low card comes with one other card fewer",
           "ass": "the seat dealt the ass leads the first trick (W6)",
           "pairs": "a hand of four cards with a pair holds fewer values to collect"}
# features drawn at random apart from the cards: their values are what they do, not only what goes with them
DRAWN = {"first": "the seat that flips first is drawn at random, apart from the cards (E4, H8)",
         "turn": "the seat that flips first is drawn at random, apart from the cards (E4, H8)"}


def caveat(names: tuple[str, ...]) -> str:
    """The report's sentence on what the values are not (or, for features drawn at random, are)."""
    if all(n in DRAWN for n in names):
        return (f"Not observational: {DRAWN[names[0]]}, so a value is what the feature does under each strategy, "
                "not only what goes with it.")
    said = [CAVEATS[n] for n in names if n in CAVEATS]
    more = f" ({'; '.join(said)})" if said else ""
    return ("It is observational: hands that differ in a feature differ in other ways too" + more + "; the values "
            "say what such hands scored under each strategy, not what changing one card of a hand would do.")


def _slope(t: np.ndarray, x: np.ndarray) -> float:
    """Least-squares slope of the measure on x over the rows of groups with sums t = (S, C, S, C, ...)."""
    s, c = t[0::2], t[1::2]
    n, sx, sxx, sy, sxy = c.sum(), (x * c).sum(), (x * x * c).sum(), s.sum(), (x * s).sum()
    spread = sxx - sx * sx / n
    return (sxy - sx * sy / n) / spread if spread > 0 else np.nan


def _rows_of(by, grouped, si: int, fi: int) -> tuple[list[int], np.ndarray]:
    """Strategy si's groups that hold seat rows, and each one's value of feature fi."""
    own = [si * by.groups + k for k in range(by.groups) if grouped.rows(si * by.groups + k)]
    return own, np.array([by.values(g - si * by.groups)[fi] for g in own], float)


def values(stats) -> pd.DataFrame:
    """A row per table, strategy and feature (with two values or more among its rows): the
    feature, what one more of it goes with (value, ci95) and the seat rows."""
    lay = stats.layout
    out = []
    for ci, grouped in enumerate(stats.by):
        cell = lay.cells[ci]
        for si, name in enumerate(cell["strategies"]):
            for fi, feature in enumerate(lay.by.names):
                own, x = _rows_of(lay.by, grouped, si, fi)
                if len(set(x)) < 2:
                    continue
                value, half = grouped.function(lambda t, x=x: _slope(t, x), own)
                out.append({"cell": ci, "players": cell["players"], "strategy": name, "feature": feature,
                            "value": value, "ci95": half, "n": sum(grouped.rows(g) for g in own)})
    return pd.DataFrame(out)


def group_means(stats) -> pd.DataFrame:
    """Each strategy's mean in each group of feature values with seat rows: n, mean, ci95."""
    lay = stats.layout
    out = []
    for ci, grouped in enumerate(stats.by):
        cell = lay.cells[ci]
        for si, name in enumerate(cell["strategies"]):
            for k in range(lay.by.groups):
                g = si * lay.by.groups + k
                if grouped.rows(g):
                    mean, half = grouped.combination({g: 1.0})
                    out.append({"cell": ci, "players": cell["players"], "strategy": name,
                                **dict(zip(lay.by.names, lay.by.values(k))), "n": grouped.rows(g), "mean": mean,
                                "ci95": half})
    return pd.DataFrame(out)


def sentence(found: pd.DataFrame, lower: bool, unit: str) -> str:
    """Who gets most out of the first feature (a joker, where grouped by jokers): one sentence."""
    if found.empty:
        return ""
    feature = "jokers" if "jokers" in set(found["feature"]) else found["feature"].iloc[0]
    part = found[found["feature"] == feature].sort_values("value", ascending=lower)
    best = part.iloc[0]
    words = WORDS.get(feature, f"one more {feature}")
    told = ", ".join(f"{r.strategy} {r.value:+.2f} ± {r.ci95:.2f}" for r in part.iloc[1:].itertuples())
    ahead = ""
    if len(part) > 1 and "gap" in part:
        gap, half = part.iloc[0]["gap"], part.iloc[0]["gap_ci95"]
        verdict = "decisively" if abs(gap) > half else "not decisively"
        ahead = f"; {verdict} ahead of {part.iloc[1]['strategy']} ({gap:+.2f} ± {half:.2f}, paired on the same deals)"
    return (f"{words[0].upper() + words[1:]} is worth most to {best['strategy']}: {best['value']:+.2f} ± "
            f"{best['ci95']:.2f} {unit}{ahead}" + (f" (the others: {told})" if told else "") + ".")


def with_gaps(stats, found: pd.DataFrame, lower: bool) -> pd.DataFrame:
    """Each table's best strategy per feature gets its paired difference to the runner-up (gap,
    gap_ci95): the two slopes' difference on the same deals, its interval from their cross moments."""
    lay = stats.layout
    found = found.assign(gap=np.nan, gap_ci95=np.nan)
    for (ci, feature), part in found.groupby(["cell", "feature"]):
        if len(part) < 2:
            continue
        order = part.sort_values("value", ascending=lower)
        a, b = (lay.cells[ci]["strategies"].index(name) for name in order["strategy"].iloc[:2])
        fi = lay.by.names.index(feature)
        grouped = stats.by[ci]
        (side_a, x_a), (side_b, x_b) = (_rows_of(lay.by, grouped, si, fi) for si in (a, b))
        sides, xs = (side_a, side_b), (x_a, x_b)
        cut = 2 * len(sides[0])
        gap = grouped.function(lambda t: _slope(t[:cut], xs[0]) - _slope(t[cut:], xs[1]), sides[0] + sides[1])
        found.loc[order.index[0], ["gap", "gap_ci95"]] = gap
    return found


def figure(found: pd.DataFrame, unit: str):
    """A forest plot per feature: each strategy's value of one more, with its 95% interval."""
    features = list(dict.fromkeys(found["feature"]))
    fig, axes = plt.subplots(1, len(features), figsize=(4.2 * len(features), 0.5 + 0.45 * found["strategy"].nunique()
                                                        * found["cell"].nunique() + 1), squeeze=False)
    for ax, feature in zip(axes[0], features):
        part = found[found["feature"] == feature].reset_index(drop=True)
        labels = [r.strategy if found["cell"].nunique() == 1 else f"{r.strategy} ({r.players}p)"
                  for r in part.itertuples()]
        y = np.arange(len(part))
        ax.errorbar(part["value"], y, xerr=part["ci95"], fmt="o", capsize=3)
        ax.axvline(0, color="#555", lw=0.8)
        ax.set_yticks(y, labels)
        ax.invert_yaxis()
        ax.set_title(WORDS.get(feature, feature), fontsize=10)
        ax.set_xlabel(unit, fontsize=8)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig
