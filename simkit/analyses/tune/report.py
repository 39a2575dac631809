"""The report of a tuning (simkit.analyses.tune): what was found in one sentence, the race drawn
(every candidate's paired difference to the leader round after round, until it was dropped), the
response along each dimension of the space around the winner, the rounds, and the confirmation
on fresh deals with its 95% intervals."""

import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from simkit import games  # noqa: E402
from simkit.analyses.tune.record import RACE  # noqa: E402
from simkit.analyses.tune.space import PLACEHOLDER, fill  # noqa: E402
from simkit.analyses.tune.summary import answer, confirmation_table, field_text, figure, read  # noqa: E402
from simkit.reports import glossary, page  # noqa: E402
from simkit.reports.tables import markdown  # noqa: E402
from simkit.stats.notation import value  # noqa: E402

SHOWN = 6  # candidates named in the race figure: the last ones standing


def _last(meta: dict, rows: pd.DataFrame) -> pd.DataFrame:
    """Each candidate's last estimate: its round, deals, figure and paired difference to that
    round's leader (per hand, or a share), each with its half-width."""
    last = rows.sort_values(["candidate", "round"]).groupby("candidate").tail(1).set_index("candidate")
    out = pd.DataFrame({"round": last["round"], "deals": last["deals"], "dropped": last["dropped"]})
    for column in ("mean", "half", "diff", "diff_half"):
        out[column] = last[column].map(lambda x: figure(meta, x))
    out["label"] = [meta["candidates"][c]["label"] for c in out.index]
    return out


def figure_race(meta: dict, rows: pd.DataFrame):
    """Every candidate's paired difference to the round's leader (its figure per hand) against the
    deals played, a line until it was dropped (an x); the last few standing named, with intervals.
    With iterations (tpe), the last one's race: the one that decided."""
    fig, ax = plt.subplots(figsize=(9, 4.6))
    if "iteration" in rows:
        rows = rows[rows["iteration"] == rows["iteration"].max()]
    rows = rows.assign(diff=rows["diff"].map(lambda x: figure(meta, x)),
                       diff_half=rows["diff_half"].map(lambda x: figure(meta, x)))
    final = rows[rows["round"] == rows["round"].max()]
    named = final.sort_values("diff")["candidate"].head(SHOWN).tolist()
    for c, own in rows.groupby("candidate", sort=False):
        if c in named:
            continue
        ax.plot(own["deals"], own["diff"], color="#999", lw=0.5, alpha=0.35)
        gone = own[own["dropped"]]
        ax.plot(gone["deals"], gone["diff"], "x", color="#b33", ms=3, alpha=0.5)
    cut = _common(meta)
    for c in named:
        own = rows[rows["candidate"] == c]
        ax.errorbar(own["deals"], own["diff"], yerr=own["diff_half"].where(np.isfinite(own["diff_half"])),
                    marker="o", ms=3, capsize=2, lw=1.2, label=meta["candidates"][c]["label"][cut:])
    spread = final["diff"] + final["diff_half"].where(np.isfinite(final["diff_half"]), 0)
    ax.set_yscale("symlog", linthresh=max(float(spread.max()), 1e-9) * 1.5)  # the end in a linear band
    ax.set_xscale("log", base=2)
    ax.axhline(0, color="#555", lw=0.8)
    ax.set_xlabel("deals played (each in every seat rotation)")
    better = "lower" if meta["lower"] else "higher"
    ax.set_ylabel(f"worse than the leader by\n({meta['label']}; {better} is better)", fontsize=9)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="upper right")
    fig.tight_layout()
    return fig


def _common(meta: dict) -> int:
    """How much of the candidates' labels they all share, cut after a "(" or ", ": what a legend
    leaves out."""
    labels = [c["label"] for c in meta["candidates"]]
    shared = labels[0]
    for label in labels[1:]:
        k = 0
        while k < min(len(shared), len(label)) and shared[k] == label[k]:
            k += 1
        shared = shared[:k]
    cuts = [shared.rfind("(") + 1, shared.rfind(", ") + 2 if ", " in shared else 0]
    return max(cuts) if shared else 0


def response(meta: dict, last: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """For each name of the space that the winner's strategy uses, the candidates that differ from
    the winner in that name (and the names its choices hold) only: their last paired difference
    to the leader, along the name's values (a choice written out with its own values)."""
    spec = json.loads(meta["spec"])
    inner = {d["name"]: {n for c in d["choices"] if isinstance(c, str) for n in _names(c)} for d in spec["space"]}
    settings = [c["setting"] for c in meta["candidates"]]
    win = settings[meta["winner_candidate"]]
    out = {}
    covered = set().union(*inner.values()) if inner else set()  # drawn within the choices that hold them
    for name in (n for n in win if n not in covered):
        free = {name} | _within(name, inner)
        keep = [c for c, s in enumerate(settings)
                if name in s and all(s.get(k) == win.get(k) for k in set(s) | set(win) if k not in free)]
        if len(keep) < 2:
            continue
        shown = [fill(str(v), settings[c]) if isinstance(v := settings[c][name], str) else v for c in keep]
        out[name] = last.loc[keep].assign(value=shown)
    return out


def _names(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def _within(name: str, inner: dict[str, set[str]]) -> set[str]:
    """The names a name's choices hold, and theirs in turn."""
    out: set[str] = set()
    todo = list(inner.get(name, ()))
    while todo:
        n = todo.pop()
        if n not in out:
            out.add(n)
            todo += list(inner.get(n, ()))
    return out


def proposals(meta: dict) -> pd.DataFrame:
    """The tpe sampler's settings in the order proposed: the iteration that raced each first, the
    mean TPE was told (its figure per hand, on that iteration's deals), its values."""
    first = {}
    for it in meta["iterations"]:
        for c in it["members"]:
            first.setdefault(c, it["iteration"])
    out = [{"candidate": c, "iteration": first[c], "told": meta["told"][cand["label"]], **cand["setting"]}
           for c, cand in enumerate(meta["candidates"]) if c in first and cand["label"] in meta["told"]]
    return pd.DataFrame(out)


def figure_proposals(meta: dict, found: pd.DataFrame):
    """Left: the mean told to TPE of each setting in the order proposed, an iteration a colour, the
    winner ringed. Right and on: the response, the told means along each name's values."""
    names = [d["name"] for d in json.loads(meta["spec"])["space"] if d["name"] in found][:3]
    fig, axes = plt.subplots(1, 1 + len(names), figsize=(4.2 + 3.2 * len(names), 3.6), squeeze=False)
    colours = plt.cm.viridis(np.linspace(0, 0.85, max(int(found["iteration"].max()) + 1, 1)))
    win = found[found["candidate"] == meta["winner_candidate"]]
    ax = axes[0][0]
    for j, part in found.groupby("iteration"):
        ax.plot(part["candidate"], part["told"], "o", ms=4, color=colours[j], label=f"iteration {j + 1}")
    ax.plot(win["candidate"], win["told"], "o", ms=11, mfc="none", mec="#b33", mew=1.5, label="the winner")
    ax.set_xlabel("setting, in the order proposed")
    ax.set_ylabel(f"{meta['label']}\n(told to TPE)", fontsize=9)
    ax.legend(fontsize=7)
    for ax, name in zip(axes[0][1:], names):
        part = found[found[name].notna()]
        values = part[name].tolist()
        numeric = all(isinstance(v, (int, float)) for v in values)
        ticks = sorted(set(values), key=str)
        x = np.asarray(values, float) if numeric else np.array([ticks.index(v) for v in values], float)
        ax.scatter(x, part["told"], s=14, c=[colours[j] for j in part["iteration"]])
        if name in win and win[name].notna().all():
            w = win[name].iloc[0]
            ax.plot([w if numeric else ticks.index(w)], win["told"], "o", ms=11, mfc="none", mec="#b33", mew=1.5)
        if not numeric:
            ax.set_xticks(range(len(ticks)), [str(v).split("(")[0] for v in ticks], rotation=40, ha="right",
                          fontsize=7)  # a choice by its family's name: its values are names of their own
        ax.set_title(name, fontsize=10)
    for ax in axes[0]:
        ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def figure_response(meta: dict, slices: dict[str, pd.DataFrame]):
    """One panel per name: the difference to the leader along its values, the others as the winner's."""
    names = list(slices)[:4]
    fig, axes = plt.subplots(1, len(names), figsize=(3.6 * len(names) + 0.6, 3.4), squeeze=False)
    for ax, name in zip(axes[0], names):
        part = slices[name]
        numeric = all(isinstance(v, (int, float)) for v in part["value"])
        part = part.sort_values("value") if numeric else part
        x = part["value"].to_numpy(float) if numeric else np.arange(len(part))
        ax.errorbar(x, part["diff"], yerr=part["diff_half"].where(np.isfinite(part["diff_half"])), fmt="o-",
                    ms=4, capsize=2, lw=1)
        if not numeric:
            ax.set_xticks(x, [str(v) for v in part["value"]], rotation=40, ha="right", fontsize=7)
        ax.axhline(0, color="#555", lw=0.8)
        ax.set_title(name, fontsize=10)
        ax.grid(alpha=0.3)
    axes[0][0].set_ylabel(f"worse than the leader by\n({meta['label']})", fontsize=9)
    fig.tight_layout()
    return fig


def rounds_table(meta: dict, rows: pd.DataFrame) -> pd.DataFrame:
    many = len(meta.get("iterations", [])) > 1
    out = []
    for r in meta["rounds"]:
        lead = rows[(rows["round"] == r["round"]) & (rows["candidate"] == r["leader"])].iloc[0]
        out.append({**({"iteration": r["iteration"] + 1} if many else {}), "round": r["round"] + 1,
                    "deals": f"{r['deals']:,}", "candidates": f"{r['alive']:,}",
                    "dropped": f"{len(r['dropped']):,}", "test level": f"{r['level']:.2g}",
                    "leader": meta["candidates"][r["leader"]]["label"],
                    meta["label"]: value(figure(meta, lead["mean"]), figure(meta, lead["half"]), meta["share"]),
                    "hands so far": f"{r['hands']:,}"})
    return pd.DataFrame(out)


def space_table(meta: dict) -> pd.DataFrame:
    """Each name and its values; then each model value the settings work out (a spec's profile)."""
    spec = json.loads(meta["spec"])
    rows = [{"name": d["name"], "values": _values(d)} for d in spec["space"]]
    rows += [{"name": f"model value {k}", "values": rule} for k, rule in spec.get("rules", [])]
    return pd.DataFrame(rows)


def _values(d: dict) -> str:
    if d["choices"]:
        return ", ".join(map(str, d["choices"]))
    step = f" in steps of {d['step']:g}" if d["step"] else " (reals)"
    return f"{d['low']:g}..{d['high']:g}{step}"


def make_tuning_report(folder: str) -> Path:
    """Write report.md, report.html and the figures of a finished tuning into `folder`."""
    out = Path(folder)
    meta = read(out)
    rows = pd.read_parquet(out / RACE)
    last = _last(meta, rows)
    spec = json.loads(meta["spec"])
    game = games.get(meta["game"])
    sentence = answer(meta)
    rules = ", ".join(f"{k} = {v}" for k, v in meta["rules"].items())
    iterations = spec.get("iterations", 1)
    if spec["sampler"] == "tpe":
        how = (f"over {len(meta['candidates']):,} distinct settings that TPE (Optuna's sampler) proposed in "
               f"{len(meta['iterations'])} iterations: each iteration raced the settings proposed beside the best "
               "survivors of the one before, on deals of its own (the first with seed "
               f"{meta['seed']}), and TPE was told each new setting's mean before proposing the next. Each "
               "iteration ran in")
        level = f"{spec['alpha']:g} / {iterations} / 2^round so that the whole race spends at most {spec['alpha']:g}"
    else:
        how = (f"over {len(meta['candidates']):,} distinct settings ({spec['sampler']}). They were raced on the "
               f"same deals (seed {meta['seed']}), in")
        level = f"{spec['alpha']:g} / 2^round so that the whole race spends at most {spec['alpha']:g}"
    tuned = f"The strategy tuned: {meta['template']}"
    if spec.get("baselines"):
        tuned = ("The strategies tuned: every built-in heuristic family with its parameters, and compose over every "
                 "decision point (the space below), each family at its defaults raced from the first round")
    if spec.get("rules"):
        tuned += (", with its seat's model values worked out from each setting ("
                  + "; ".join(f"{k} = {rule}" for k, rule in spec["rules"]) + ": the spec's assumption)")
    roles = [r for c in meta["confirmation"][1:] for r in c["role"].split(" and ")]
    beside = {"runner-up": "the runner-up", "default": "the family's default", "built-in": "every built-in at its "
              "defaults", "field": "the field's own strategy"}
    beside = [text for role, text in beside.items() if role in roles]
    beside = ", ".join(beside[:-1]) + " and " + beside[-1] if len(beside) > 1 else "".join(beside) or "nothing"
    intro = (f"{game.title}, {meta['players']} players; the tuned seat among {field_text(meta)}, every deal "
             f"played once per seat rotation. {tuned}, {how} rounds of "
             f"{spec['first']:,} deals and then {spec['growth']:g} times more each round; after each, every "
             "candidate was compared with the leader (the best mean), and those decisively worse than some "
             "other candidate by a one-sided t-test of their paired difference over deals were dropped (at "
             f"{level}, divided among every ordered pair of the race's candidates). "
             f"The race ended with {meta['ended']}, after {meta['spent']:,} {meta['unit']} of a budget of "
             f"{meta['budget']:,}. The winner was then played again on {meta['confirmation'][0]['deals']:,} fresh "
             f"deals (another seed) beside {beside}; every ± is a 95% interval over deals.")
    if rules:
        intro += f" Rules: {rules}."
    tpe = spec["sampler"] == "tpe"
    slices = {} if tpe else response(meta, last)
    found = {"race.png": figure_race(meta, rows)}
    if slices:
        found["response.png"] = figure_response(meta, slices)
    if tpe:
        found["proposals.png"] = figure_proposals(meta, proposals(meta))
    captions = {"race.png": ("The last iteration's race" if tpe else "The race") +
                            ": each candidate's paired difference to the round's leader against the deals "
                            "played (grey lines; an x where it was dropped), the last ones standing named with their "
                            "95% intervals.",
                "proposals.png": "What TPE proposed and was told: each setting's mean on the deals of the iteration "
                                 "that first raced it (dropped ones on fewer deals), in the order proposed and along "
                                 "each name of the space; the winner ringed.",
                "response.png": "Around the winner: each name of the space varied alone, the others as the winner "
                                "has them; each point a candidate's last paired difference to its round's leader, "
                                "with its 95% interval (candidates dropped early were measured on fewer deals)."}
    sections = (page.Section("Confirmation on fresh deals", markdown(confirmation_table(meta))),
                page.Section("The race", markdown(rounds_table(meta, rows)), ("race.png",)),
                page.Section("Around the winner", "", ("response.png",) if slices else ()) if not tpe else
                page.Section("What the sampler proposed", "", ("proposals.png",)),
                page.Section("The space", markdown(space_table(meta))),
                glossary.section(glossary.TUNING, game.measures("single").said()))
    return page.write(out, page.Page(f"{meta['name']}: the best setting", intro, (sentence,), sections), found,
                      captions)
