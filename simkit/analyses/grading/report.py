"""The report of a grading run (simkit.analyses.grading.run): where each graded strategy loses its
points against the search, per decision point, with 95% intervals over the hands; how costly its
moves are; and its costliest moves, each with the command that shows it graded."""

import shlex
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from simkit import games  # noqa: E402
from simkit.analyses.grading.grade import POINTS, lost_by_point, model_shares  # noqa: E402
from simkit.analyses.grading.record import read_grading  # noqa: E402
from simkit.analyses.grading.spec import Grading  # noqa: E402
from simkit.games.whos_the_ass.rules import GAME  # noqa: E402
from simkit.reports import glossary, page  # noqa: E402
from simkit.reports.tables import markdown  # noqa: E402
from simkit.stats.intervals import mean_ci  # noqa: E402
from simkit.strategies import registry  # noqa: E402

WORST = 10  # the costliest moves listed


def _marked(label: str) -> str:
    """A strategy's label, with † where it sees every hand (a ceiling, not a player)."""
    return registry.marked(GAME, label)


def by_point(spec: Grading, moves: pd.DataFrame, hands: pd.DataFrame) -> pd.DataFrame:
    """`lost_by_point` of every graded strategy, over its hands, with the moves per hand."""
    parts = []
    for label in spec.graded:
        own = moves[moves["strategy"] == label]
        ids = hands.loc[hands["strategy"] == label, "hand"].tolist()
        table = lost_by_point(own, ids)
        table.insert(0, "strategy", label)
        table.insert(3, "moves per hand", table["moves"] / max(len(ids), 1))
        parts.append(table)
    return pd.concat(parts, ignore_index=True)


def overview(spec: Grading, hands: pd.DataFrame) -> pd.DataFrame:
    """Each graded strategy's hands, its own penalty per hand and the points it lost per hand."""
    rows = []
    for label in spec.graded:
        own = hands[hands["strategy"] == label]
        penalty, p_half = mean_ci(own["penalty"].to_numpy(float))
        lost, l_half = mean_ci(own["lost"].to_numpy(float))
        rows.append({"strategy": _marked(label), "hands": len(own), "moves graded": int(own["moves"].sum()),
                     "penalty per hand": penalty, "± ": p_half, "lost per hand": lost, "±": l_half})
    return pd.DataFrame(rows)


def paired(spec: Grading, hands: pd.DataFrame) -> tuple[float, float] | None:
    """The points lost per hand by the second graded strategy less the first's, paired on the same
    deals (both played hand i of the same seed), with its 95% interval; None with one strategy."""
    if len(spec.graded) < 2:
        return None
    a, b = (hands[hands["strategy"] == s].set_index("hand")["lost"] for s in spec.graded[:2])
    both = a.index.intersection(b.index)
    return mean_ci((b[both] - a[both]).to_numpy(float))


def answer(spec: Grading, points: pd.DataFrame, hands: pd.DataFrame) -> str:
    """The report's answer in one sentence: what each strategy loses per hand and where most, and
    the first two graded strategies compared on the same deals."""
    parts = []
    for label in spec.graded:
        own = points[points["strategy"] == label].set_index("point")
        if "all" not in own.index:
            parts.append(f"{_marked(label)} had no choice to grade")
            continue
        where = own.drop(index="all")["lost per hand"].idxmax()
        parts.append(f"{_marked(label)} loses {own.at['all', 'lost per hand']:.2f} ± {own.at['all', '±']:.2f} "
                     f"penalty points per hand, most at {where} ({own.at[where, 'lost per hand']:.2f} ± "
                     f"{own.at[where, '±']:.2f})")
    sentence = f"Against {_marked(spec.search)}'s best actions, " + "; ".join(parts)
    diff = paired(spec, hands)
    if diff is not None:
        first, second = (_marked(g) for g in spec.graded[:2])
        d, half = diff
        word = "fewer" if d < 0 else "more"
        sentence += (f"; on the same deals {second} loses {abs(d):.2f} ± {half:.2f} {word} than {first}"
                     + ("" if abs(d) > half else " (not a clear difference)"))
    return sentence + "."


def figure_points(points: pd.DataFrame, graded: tuple[str, ...]):
    """Points lost per hand at each decision point, a bar per graded strategy, with intervals."""
    names = [p for p in POINTS + ("all",) if p in set(points["point"])] or ["all"]
    fig, ax = plt.subplots(figsize=(8, 0.4 * len(names) * max(1, len(graded)) ** 0.5 + 1.4))
    height = 0.8 / len(graded)
    y = np.arange(len(names))
    for k, label in enumerate(graded):
        own = points[points["strategy"] == label].set_index("point").reindex(names)
        spread = own["±"].astype(float)
        spread = spread.where(np.isfinite(spread))  # one hand: no interval to draw
        ax.barh(y + (k - (len(graded) - 1) / 2) * height, own["lost per hand"].astype(float).fillna(0), height,
                xerr=spread, capsize=3, label=_marked(label))
    ax.set_yticks(y, names)
    ax.invert_yaxis()
    ax.axvline(0, color="#555", lw=0.8)
    ax.set_xlabel("penalty points lost per hand against the search's best action (95% interval)")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(loc="center right")
    fig.tight_layout()
    return fig


def figure_costs(moves: pd.DataFrame, graded: tuple[str, ...]):
    """How costly the moves that were not the best are: the share of a strategy's graded moves
    costing more than x points (weighed on the samples that did not pick the best)."""
    fig, ax = plt.subplots(figsize=(8, 3.6))
    top = max(float(moves["cost"].quantile(0.995)) if len(moves) else 1.0, 1.0)
    drawn = False
    x = np.linspace(0, top, 200)
    for label in graded:
        cost = np.sort(moves.loc[moves["strategy"] == label, "cost"].to_numpy(float))
        if len(cost):
            ax.step(x, 1 - np.searchsorted(cost, x, side="right") / len(cost), where="post", label=_marked(label))
            drawn = True
    ax.set_xlabel("cost of a move (penalty points against the best action)")
    ax.set_ylabel("share of graded moves costing more")
    if drawn:
        ax.set_yscale("log")
        ax.legend()
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def worst(spec: Grading, moves: pd.DataFrame, folder: str) -> pd.DataFrame:
    """The costliest moves, each with the command that shows its hand graded as it was here."""
    top = moves.sort_values(["cost", "strategy", "hand"], ascending=[False, True, True]).head(WORST)
    files = {label: spec.traces(k) for k, label in enumerate(spec.graded)}
    return pd.DataFrame({
        "strategy": [_marked(s) for s in top["strategy"]], "hand": top["hand"], "trick": top["trick"],
        "point": top["point"], "move": top["move"], "best": top["best"], "cost": top["cost"].map(lambda v: f"{v:.2f}"),
        "± (samples)": top["ci95"].map(lambda v: f"{v:.2f}"),
        "see it": [f"simkit show {shlex.quote(f'{folder}/{files[s]}')} --hand {h} --grade {spec.seat} --search "
                   f"{shlex.quote(spec.search)} --samples {spec.samples} --seed {spec.seed}"
                   for s, h in zip(top["strategy"], top["hand"])]})


def _fmt(frame: pd.DataFrame) -> pd.DataFrame:
    out = frame.copy()
    for c in out.columns:
        if c == "decisively worse":
            out[c] = out[c].map(lambda v: f"{100 * v:.1f}%")
        elif out[c].dtype.kind == "f":
            out[c] = out[c].map(lambda v: f"{v:.2f}")
    return out


def _below_zero(points: pd.DataFrame) -> str:
    """What a number below 0 in the table of points lost means, where there is one."""
    if not (points["lost per hand"] < 0).any():
        return ""
    return ("Below 0: on the half of the samples the costs are weighed on, the strategy's moves did better than "
            "the search's picks, made on the other half. Within its interval that is chance; beyond it, the "
            "search's rollouts misjudge those positions.")


def inferred_section(spec: Grading, moves: pd.DataFrame) -> tuple:
    """What the search took the other seats for, per graded strategy: the share of (move, seat)
    pairs for each model (docs/strategies.md). None for a grading made before the search inferred."""
    if "models" not in moves.columns or not len(moves):
        return ()
    shares = {label: model_shares(moves.loc[moves["strategy"] == label, "models"]) for label in spec.graded}
    names = list(model_shares(moves["models"]))
    table = pd.DataFrame([{"strategy": _marked(label), **{name: f"{part.get(name, 0.0):.0%}" for name in names}}
                          for label, part in shares.items()])
    field = _marked(spec.field)
    note = (f"The other seats played {field}. At each graded move the search took each of them for the model "
            "that best explains its moves so far in the hand (before they tell the models apart: lowest, the "
            "baseline); the share of moves and seats for each model. Models that play alike where the hand never "
            "tests the difference (those like lowest but at jokers, the ass or a reserve: hoard, keep_low, grab, "
            "delay, spend) are told apart only when it does.")
    return (page.Section("What the search took the field for", markdown(table), note=note),)


def make_grading_report(folder: str, shown_as: str | None = None) -> Path:
    """Write report.md, report.html and the figures of a grading run into `folder` (its traces
    named as in `shown_as`, the folder the user gave, where that is not the folder written)."""
    out = Path(folder)
    spec, moves, hands, meta = read_grading(out)
    points = by_point(spec, moves, hands)
    sentence = answer(spec, points, hands)
    compared = (f" The paired comparison is of the first two graded strategies, {spec.graded[0]} and "
                f"{spec.graded[1]}." if len(spec.graded) > 2 else "")
    others = spec.players - 1
    field = f"{others} {_marked(spec.field)} players" if others > 1 else f"a {_marked(spec.field)} player"
    marked = registry.ceilings(GAME, (spec.search, spec.field) + spec.graded)
    ceiling = f" {' and '.join(m + registry.CEILING_MARK for m in marked)} {registry.CEILING_NOTE}." if marked else ""
    intro = (f"Who's the Ass?, {spec.players} players (rules: "
             f"{', '.join(f'{k} = {v}' for k, v in (spec.rules or {}).items()) or 'the defaults'}). Each graded "
             f"strategy played the same {spec.hands:,} deals (seed {spec.seed}) in seat {spec.seat} among {field}; "
             f"each of its moves with a choice was replayed to its position and every legal action played out "
             f"by {_marked(spec.search)} on {spec.samples} samples of the hidden cards, each played to the end by "
             "the search's rollout heuristic in the graded seat and, in each other seat, the model the search "
             "inferred for it from its moves so far (a move's cost is what it loses when good play follows "
             "it, not the strategy's whole gap to the search): the best action is picked on half of them and the "
             "move's cost (its own penalty less the best's) weighed on the other half, so that the "
             "least of several noisy means does not flatter the best. Points lost per hand are the costs of a "
             "hand's moves summed (a move the other half found better counts below 0); every ± is a 95% interval "
             f"over the hands, but a single move's, over its samples.{compared} The search is a yardstick, not "
             f"perfect play.{ceiling}")
    shown = points.assign(strategy=points["strategy"].map(_marked))
    sections = (
        page.Section("Graded strategies", markdown(_fmt(overview(spec, hands)))),
        *inferred_section(spec, moves),
        page.Section("Points lost per decision point", markdown(_fmt(shown)), note=_below_zero(points)),
        page.Section("How costly the moves are", "", ("move-costs.png",)),
        page.Section("The costliest moves", markdown(worst(spec, moves, shown_as or folder))),
        glossary.section(glossary.GRADING, games.get(GAME).measures("single").said()),
    )
    found = {"lost-by-point.png": figure_points(points, spec.graded),
             "move-costs.png": figure_costs(moves, spec.graded)}
    captions = {"lost-by-point.png": "Penalty points lost per hand at each decision point against the search's best "
                                     "action, 95% intervals over the hands ('all': every decision of a hand).",
                "move-costs.png": "The share of graded moves that cost more than x penalty points (log scale): how "
                                  "often a strategy's move is a costly one."}
    report = page.Page(f"{spec.name}: where the points are lost", intro, (sentence,), sections,
                       top=("lost-by-point.png",))
    return page.write(out, report, found, captions)
