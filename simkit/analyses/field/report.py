"""The report of a field analysis (simkit.analyses.field): at each player count the answer in one
sentence, the equilibria with their intervals, the ranking against the stable mix (value and
regret), the replicator dynamics drawn (a simplex for three strategies, the weights along the
paths for more), and the payoffs of each strategy against a field of each other."""

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from simkit import games  # noqa: E402
from simkit.analyses.field.summary import against_table, answer, equilibria_table, intervals, read  # noqa: E402
from simkit.reports import glossary, page  # noqa: E402
from simkit.reports.tables import markdown  # noqa: E402


def figure_dynamics(meta: dict, found: dict):
    """The replicator dynamics: for three strategies (after merging those that played alike) the
    simplex with each start's path and the equilibria; for more, each weight along the path from
    the uniform mix (solid) and from other starts (faint)."""
    keep, pool = found["kept"], meta["pool"]
    paths = [np.array(p) for p in found["paths"]]
    eqs = [np.array(e["weights"])[keep] for e in found["equilibria"]]
    if len(keep) == 3:
        fig, ax = plt.subplots(figsize=(6.4, 5.6))
        corners = np.array([[0, 0], [1, 0], [0.5, np.sqrt(3) / 2]])
        ax.plot(*np.vstack([corners, corners[:1]]).T, color="#555", lw=1)
        for i, (x, y) in enumerate(corners):
            ax.annotate(pool[keep[i]], (x, y), xytext=(0, -14 if y == 0 else 8), textcoords="offset points",
                        ha="center", fontsize=9)
        if found.get("flow"):
            flow = np.array(found["flow"])
            at, move = flow[:, :3] @ corners, flow[:, 3:] @ corners
            size = np.hypot(*move.T)
            unit = move / np.maximum(size, 1e-300)[:, None]
            ax.quiver(*at.T, *unit.T, size, cmap="Greys", angles="xy", scale_units="xy", scale=22, width=0.004,
                      alpha=0.6)
        for j, path in enumerate(paths):
            xy = path @ corners
            ax.plot(*xy.T, lw=1.2, color=f"C{j}", alpha=0.9)
            ax.plot(*xy[0], "o", ms=4, color=f"C{j}")
            run = np.concatenate([[0], np.cumsum(np.hypot(*np.diff(xy, axis=0).T))])
            if run[-1] > 0:  # an arrow two fifths of the way along
                mid = min(int(np.searchsorted(run, 0.4 * run[-1])), len(xy) - 2)
                ax.annotate("", xy=xy[mid + 1], xytext=xy[mid], arrowprops={"arrowstyle": "->", "color": f"C{j}"})
        for k, e in enumerate(eqs):
            ax.plot(*(e @ corners), "*", ms=16 if k == 0 else 11, color="#d62728" if k == 0 else "#555",
                    mec="k", label="stable mix (main)" if k == 0 else ("other equilibria" if k == 1 else None))
        ax.set_aspect("equal")
        ax.axis("off")
        ax.legend(fontsize=8, loc="upper right")
    else:
        fig, ax = plt.subplots(figsize=(9, 4.2 + 0.13 * len(keep)))
        steps = np.array(found["path_steps"])
        for j, path in enumerate(paths):
            for i in range(len(keep)):
                ax.plot(steps + 1, path[:, i], color=f"C{i % 10}", lw=1.8 if j == 0 else 0.6,
                        alpha=1 if j == 0 else 0.35, ls="-" if i < 10 else "--",
                        label=pool[keep[i]] if j == 0 else None)
        ax.set_xscale("log")
        ax.set_xlabel("step of the replicator dynamics")
        ax.set_ylabel("weight in the mix")
        ax.set_ylim(-0.02, 1.02)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, frameon=False)
    fig.tight_layout()
    return fig


def figure_versus(meta: dict, found: dict, n: int):
    """Each strategy's payoff (rows) against a field of one other (columns: the other n-1 seats
    all play it) and against the stable mix (last column), rows and columns in the ranking's order."""
    pool = meta["pool"]
    order = [r["strategy"] for r in found["against"]]
    versus = np.array(found["versus"])[np.ix_(order, order)]
    mix = np.array([r["value"] for r in found["against"]])[:, None]
    shown = np.hstack([versus, mix])
    k = len(order)
    longest = max(len(pool[i]) for i in order)
    fig, ax = plt.subplots(figsize=(min(3 + 0.55 * (k + 1) + 0.055 * longest, 15), min(1.8 + 0.42 * k, 10)),
                           layout="constrained")  # room for long strategy names
    scale = 100 if meta["share"] else 1
    cmap = "RdYlGn_r" if meta["lower"] else "RdYlGn"
    im = ax.imshow(shown * scale, cmap=cmap, aspect="auto")
    for i in range(k):
        for j in range(k + 1):
            ax.text(j, i, f"{shown[i, j] * scale:.3g}", ha="center", va="center", fontsize=7)
    ax.axvline(k - 0.5, color="k", lw=2)
    ax.set_xticks(range(k + 1), [str(r + 1) for r in range(k)] + ["the\nstable\nmix"], fontsize=7)
    ax.set_yticks(range(k), [f"{pool[i]}  {r + 1}" for r, i in enumerate(order)], fontsize=7)
    ax.set_xlabel(f"the other {n - 1} seats all play … (numbered as the rows)")
    ax.set_title("one seat plays the row's strategy", fontsize=9)
    fig.colorbar(im, ax=ax, label=(meta["label"] + (" (%)" if meta["share"] else "")), shrink=0.8)
    return fig


def make_field_report(folder: str) -> Path:
    """Write report.md, report.html and the figures of an analysed field into `folder`."""
    out = Path(folder)
    meta, analysis = read(out)
    game = games.get(meta["game"])
    k = len(meta["pool"])
    counts = ", ".join(map(str, meta["players"]))
    better = "lower" if meta["lower"] else "higher"
    first = analysis["players"][str(meta["players"][0])]
    intro = (f"{game.title} at {counts} players, a field of {k} strategies: every profile (one strategy per seat, "
             f"{'; '.join(f'{_profiles(k, n):,} profiles at {n} players' for n in meta['players'])}) played on the "
             f"same {meta['hands']:,} {meta['unit']} (seed {meta['seed']}), each in every distinct seating of the "
             "profile "
             f"(every order around the table, so every rotation): {meta['hands_played']:,} {meta['unit']} in all. "
             f"The payoff is {meta['label']} ({better} is better). A mix is stable (a symmetric equilibrium) when "
             "no strategy does better against it than the mix itself: found by replicator dynamics from "
             f"{first['starts']} starts, polished by Newton's method on its support and kept if its regret (what "
             f"the best deviation gains) is at most {meta['analysis']['epsilon']:g} of the payoffs' spread. "
             f"{intervals(meta).capitalize()}: on each, the equilibria are found again (from those found here and "
             "a few random starts), and the values and regrets against the stable mix are those of the resampled "
             "table with the mix held fixed.")
    if meta["rules"]:
        intro += " Rules: " + ", ".join(f"{a} = {b}" for a, b in meta["rules"].items()) + "."
    found_figs, captions, sections, sentences = {}, {}, [], []
    for n in meta["players"]:
        found = analysis["players"][str(n)]
        sentences.append(answer(meta, n, found))
        dyn, vs = f"dynamics-{n}p.png", f"versus-{n}p.png"
        found_figs[dyn] = figure_dynamics(meta, found)
        found_figs[vs] = figure_versus(meta, found, n)
        captions[dyn] = ("The replicator dynamics on the simplex of the three strategies: grey arrows the direction "
                         "it moves in (darker: faster), each start's path (a dot where it began), the stable mix a red "
                         "star." if len(found["kept"]) == 3 else
                         "The replicator dynamics: each strategy's weight along the path from the uniform mix (bold) "
                         "and from other starts (faint); where the lines settle is the stable mix.")
        captions[vs] = (f"The payoff matrix: each row's strategy at one seat, the other {n - 1} seats all playing "
                        "the column's strategy; the last column against the stable mix. Rows and columns in the "
                        "ranking's order.")
        alike = "".join(f" {', '.join(c)} played alike (swapping them leaves every sum of the table the same, "
                        "on every resample of the deals too): the analysis keeps the first of them, and a stable mix "
                        "may split its weight among them in any way." for c in found["classes"])
        headline = ("" if len(found["equilibria"]) < 2 else
                    " The answer above names the first, the mix the dynamics reached from the most starts: where "
                    "adapting players are likeliest to settle. A mix with a higher value is not more stable: no "
                    "player can move the table to it alone.")
        sections += [page.Section(f"{n} players: the stable mix", markdown(equilibria_table(meta, found)), (dyn,),
                                  (alike + headline).strip()),
                     page.Section(f"{n} players: the ranking against the stable mix",
                                  markdown(against_table(meta, found)), (vs,),
                                  "Value: the strategy's payoff with the other seats drawn from the stable mix; "
                                  "regret: how much worse than the best reply to it (0 for the strategies of the "
                                  "mix). Every profile's payoffs, each with its 95% interval over deals, are in "
                                  "payoffs.parquet beside this report.")]
    answers = tuple(sentence.replace("**", "") for sentence in sentences)
    sections.append(glossary.section(glossary.FIELD, game.measures("single").said()))
    report = page.Page(f"{meta['name']}: what wins when everyone adapts", intro, answers, tuple(sections))
    return page.write(out, report, found_figs, captions)


def _profiles(k: int, n: int) -> int:
    from simkit.analyses.field.profiles import count

    return count(k, n)
