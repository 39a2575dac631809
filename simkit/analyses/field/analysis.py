"""The analysis of a field's payoff table (payoffs.parquet, bootstrap.npz), written to
analysis.json: at each player count, the classes of strategies that played alike, the
equilibria (simkit.analyses.field.equilibria) with their regret and how many starts reached each, each
strategy's value and regret against the main equilibrium (the one reached most), the payoff of
each strategy against a field of each other, paths of the replicator dynamics for the figure,
and the bootstrap: the same analysis on resampled deals, how often each equilibrium's support
reappears, and 95% intervals of the weights, values and regrets. Redone from the stored table
alone: `simkit report DIR`, or `simkit field ... --resume` with other analysis settings."""

import json
from pathlib import Path

import numpy as np
import pandas as pd

from simkit.analyses.field import profiles
from simkit.analyses.field.equilibria import Equilibrium, Payoffs, replicate, replicate_all, same_play, solve, starts
from simkit.analyses.field.play import Rows
from simkit.analyses.field.record import BOOT, PAYOFFS, read_meta
from simkit.core.files import atomic_path

ANALYSIS = "analysis.json"
PATHS = 6          # starts whose replicator paths the report draws
POINTS = 200       # points per path
BOOT_STARTS = 4    # random starts a bootstrap replicate adds to the equilibria found


def analyse(folder: str | Path) -> dict:
    """Analyse the folder's table with its record's settings; write and return analysis.json."""
    folder = Path(folder)
    meta = read_meta(folder)
    table = pd.read_parquet(folder / PAYOFFS)
    settings = meta["analysis"]
    with np.load(folder / BOOT) as z:
        boot = {key: z[key] for key in z.files}
    out = {"players": {}}
    for n in meta["players"]:
        rows = table[table["players"] == n].sort_values(["profile", "strategy"])
        out["players"][str(n)] = at(meta, rows, boot[f"boot{n}"], boot[f"weights{n}"], n, settings)
    with atomic_path(folder / ANALYSIS) as tmp:
        tmp.write_text(json.dumps(out, indent=1))
    return out


def at(meta: dict, rows: pd.DataFrame, boot: np.ndarray, weights: np.ndarray, n: int, settings: dict) -> dict:
    """The analysis at n players."""
    k = len(meta["pool"])
    sums, squares = rows["sum"].to_numpy(), rows["square"].to_numpy()
    means = rows["mean"].to_numpy(np.float64)
    scale = (rows["seatings"] * rows["copies"]).to_numpy(np.float64) * meta["scale"]  # a deal's seat-hands, scaled
    classes = same_play(np.column_stack([sums, squares, boot]), k, n)
    keep = [c[0] for c in classes]
    game = Payoffs.of(means, k, n, meta["lower"], keep)
    x0 = starts(len(keep), settings["starts"], meta["seed"])
    kept = sorted({0} | {int(t) for t in np.geomspace(1, settings["steps"], POINTS)})  # even on a log scale
    ends, averages, paths = replicate(game, x0, settings["steps"], tuple(kept))
    paths = paths[:PATHS]
    found = solve(game, x0, settings["steps"], settings["epsilon"], (ends, averages))
    main = found[0]
    replicates = _bootstrap(game, found, boot, weights, rows, scale, k, n, meta, keep, settings)
    return {
        "pool": meta["pool"], "kept": keep, "classes": [[meta["pool"][i] for i in c] for c in classes if len(c) > 1],
        "spread": game.spread, "tolerance": settings["epsilon"] * game.spread, "starts": int(len(x0)),
        "equilibria": [_equilibrium(e, keep, k, replicates, j) for j, e in enumerate(found)],
        "against": _against(game, main, keep, classes, k, replicates, meta, settings["epsilon"] * game.spread),
        "versus": _versus(means, k, n).tolist(),
        "paths": [[[float(v) for v in x] for x in path] for path in paths],
        "path_steps": kept, "flow": _flow(game) if len(keep) == 3 else [], "bootstrap": len(replicates["weights"]),
    }


def _flow(game: Payoffs, parts: int = 14) -> list[list[float]]:
    """The replicator's velocity x_s (F_s - F_mix) at mixes spread over the simplex of three
    strategies (each weight a multiple of 1/parts, all inside): [x, velocity] per mix."""
    x = np.array([(a, b, parts - a - b) for a in range(1, parts) for b in range(1, parts - a)], np.float64) / parts
    f = game.fitness(x)
    velocity = x * (f - (x * f).sum(axis=1, keepdims=True))
    return [[*map(float, a), *map(float, v)] for a, v in zip(x, velocity)]


def _bootstrap(game: Payoffs, found: list[Equilibrium], boot: np.ndarray, weights: np.ndarray, rows: pd.DataFrame,
               scale: np.ndarray, k: int, n: int, meta: dict, keep: list[int], settings: dict) -> dict:
    """Each replicate's table (its resampled deals), its equilibria from the equilibria found
    (nudged inside) and a few random starts; for each equilibrium found, the nearest of the
    replicate's and whether its support is the same; and the values against the main one."""
    out = {"weights": [], "same": [], "values": []}
    if not boot.shape[1]:
        return out
    m = len(keep)
    nudged = np.array([0.8 * e.weights + 0.2 / m for e in found])
    x0 = np.vstack([nudged, starts(m, BOOT_STARTS + 1, meta["seed"] + 1)[1:]])
    steps = max(settings["steps"] // 2, 1)
    tables = [Payoffs.of(boot[:, r] / (weights[r] * scale), k, n, game.lower, keep)
              for r in range(boot.shape[1]) if weights[r] > 0]
    ends, averages, _ = replicate_all(tables, x0, steps) if tables else (None, None, None)
    for r, g in enumerate(tables):
        got = [q for q in solve(g, x0, steps, settings["epsilon"], (ends[r], averages[r]))
               if not q.extra.get("approximate")]  # none within the tolerance: no support reappeared
        near, same = [], []
        for e in found:
            if not got:
                near.append(None)
                same.append(False)
                continue
            best = min(got, key=lambda q: float(np.abs(q.weights - e.weights).max()))
            near.append(best.weights.tolist())
            same.append(best.support == e.support)
        out["weights"].append(near)
        out["same"].append(same)
        out["values"].append(g.values(found[0].weights)[0].tolist())
    return out


def _equilibrium(e: Equilibrium, keep: list[int], k: int, reps: dict, j: int) -> dict:
    """An equilibrium in the pool's order (a class's weight on its first strategy), with the
    bootstrap's share of replicates whose nearest equilibrium has the same support and 95%
    intervals of its weights."""
    weights = np.zeros(k)
    weights[keep] = e.weights
    found = [w[j] for w in reps["weights"] if w[j] is not None]
    lo = hi = None  # no replicates: no interval
    if found:
        full = np.zeros((len(found), k))
        full[:, keep] = np.array(found)
        lo, hi = np.percentile(full, 2.5, axis=0).tolist(), np.percentile(full, 97.5, axis=0).tolist()
    same = [s[j] for s in reps["same"]]
    return {"weights": weights.tolist(), "support": [keep[i] for i in e.support], "regret": e.regret,
            "approximate": bool(e.extra.get("approximate")),
            "basin": e.basin, "value": e.value, "weights_lo": lo, "weights_hi": hi,
            "support_share": (sum(same) / len(same)) if same else None, "replicates": len(same)}


def _against(game: Payoffs, main: Equilibrium, keep: list[int], classes: list[list[int]], k: int, reps: dict,
             meta: dict, tolerance: float) -> list[dict]:
    """Each strategy's value against the main equilibrium (the others drawn from it) and its regret
    (how much worse than the best reply), with the bootstrap's 95% intervals (the same mix, the
    replicate's table); a class's copies as their first strategy."""
    values = game.values(main.weights)[0]
    regrets = game.regrets(main.weights)
    boot_values = np.array(reps["values"]) if reps["values"] else np.zeros((0, len(keep)))
    sign = 1 if meta["lower"] else -1
    boot_regrets = sign * (boot_values - (boot_values.min(axis=1, keepdims=True) if meta["lower"] else
                                          boot_values.max(axis=1, keepdims=True)))
    out = []
    for c in classes:
        j = keep.index(c[0])
        for i in c:
            row = {"strategy": i, "label": meta["pool"][i], "value": float(values[j]), "regret": float(regrets[j]),
                   "weight": float(main.weights[j]) if i == c[0] else 0.0, "copy_of": None if i == c[0] else c[0]}
            if len(boot_values):
                row |= {"value_lo": float(np.percentile(boot_values[:, j], 2.5)),
                        "value_hi": float(np.percentile(boot_values[:, j], 97.5)),
                        "regret_lo": float(np.percentile(boot_regrets[:, j], 2.5)),
                        "regret_hi": float(np.percentile(boot_regrets[:, j], 97.5))}
            out.append(row)
    out.sort(key=lambda r: (r["regret"] if r["regret"] > tolerance else 0.0, -r["weight"], r["strategy"]))
    return out


def _versus(means: np.ndarray, k: int, n: int) -> np.ndarray:
    """versus[s, t]: strategy s's mean when the other n-1 seats all play t."""
    rows = Rows.of(k, n)
    index = profiles.index_of(k, n)
    out = np.zeros((k, k))
    for s in range(k):
        for t in range(k):
            counts = np.zeros(k, np.int64)
            counts[t] += n - 1
            counts[s] += 1
            p = index[tuple(int(x) for x in counts)]
            out[s, t] = means[rows.first[p] + int(np.count_nonzero(counts[:s]))]
    return out
