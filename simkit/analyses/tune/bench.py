"""How good the tuner's pick is, and what it costs: the race against an exhaustive grid and a
random search. `python -m simkit.analyses.tune.bench SPEC.toml [--budget HANDS] [--remeasure HANDS]`.

1. The race (`simkit tune`'s, without its confirmation): its pick, the hands it played, and the
   deals its pick played by the end (its final precision).
2. The grid: every candidate on that many deals (the same deals), the best mean its pick.
3. Random search with the race's hands: settings drawn from the seed (as many as the race had
   candidates in its second round, at least 8), each on an equal share of the hands; the best
   mean its pick.
4. TPE (the tpe sampler, `--tpe-candidates` settings in `--tpe-iterations` iterations) with the
   race's hands.
5. The four picks measured again on `--remeasure` fresh hands each (another seed), paired: each
   pick's figure and its distance to the grid's pick, with 95% intervals."""

import argparse
import dataclasses
import tempfile
import time

import numpy as np

from simkit.analyses.tune.play import Table, sums_over
from simkit.analyses.tune.race import estimate
from simkit.analyses.tune.run import candidates_of, run_tuning
from simkit.analyses.tune.spec import Tuning, load_tuning
from simkit.analyses.tune.summary import read
from simkit.experiments.executors import InProcess


def _means(table: Table, specs: list, deals: int) -> np.ndarray:
    """Each candidate's sum of values over deals 0..deals-1 (no products: the grid needs means)."""
    return sums_over(InProcess(), table, specs, 0, deals, cross=False).sums


def compare(t: Tuning, budget: int | None, remeasure: int, echo=print, tpe: tuple[int, int] = (64, 4)) -> dict:
    cands = candidates_of(t)
    table = Table(t.table, t.field, t.profile)
    n = t.players
    sign = 1 if t.game.objective(t.table.match["mode"]).lower else -1
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        meta = read(run_tuning(t, f"{tmp}/race", budget))
        race_s = time.perf_counter() - start
    pick = meta["winner_candidate"]
    deals = max(r["deals"] for r in meta["rounds"])
    spent = meta["spent"]
    echo(f"race: {len(cands):,} candidates, {spent:,} hands in {race_s:.0f} s; pick {cands[pick].label}, "
         f"{deals:,} deals")
    start = time.perf_counter()
    grid = _means(table, list(cands), deals)
    grid_pick = int(min(range(len(cands)), key=lambda c: (sign * grid[c], c)))
    grid_hands = len(cands) * n * deals
    echo(f"grid: {grid_hands:,} hands in {time.perf_counter() - start:.0f} s; pick {cands[grid_pick].label}")
    second = meta["rounds"][1]["alive"] if len(meta["rounds"]) > 1 else len(cands)
    count = max(8, min(second, len(cands)))
    rng = np.random.default_rng(np.random.SeedSequence([t.table.seed, 0xBE7C]))
    drawn = sorted(rng.choice(len(cands), size=count, replace=False).tolist())
    each = max(1, spent // (count * n))
    sums = _means(table, [cands[c] for c in drawn], each)
    random_pick = drawn[int(min(range(count), key=lambda j: (sign * sums[j], j)))]
    echo(f"random search: {count} settings x {each:,} deals ({count * n * each:,} hands); pick "
         f"{cands[random_pick].label}")
    by_tpe = dataclasses.replace(t, sampler="tpe", candidates=tpe[0], iterations=tpe[1])
    with tempfile.TemporaryDirectory() as tmp:
        start = time.perf_counter()
        found = read(run_tuning(by_tpe, f"{tmp}/tpe", spent))
        tpe_s = time.perf_counter() - start
    label = found["candidates"][found["winner_candidate"]]["label"]
    labels = [c.label for c in cands]
    if label not in labels:  # off the grid (a real value between its steps): measured beside the others
        cands = cands + [t.space.candidate(found["candidates"][found["winner_candidate"]]["setting"])]
        labels.append(label)
    tpe_pick = labels.index(label)
    echo(f"tpe: {len(found['candidates'])} settings in {len(found['iterations'])} iterations, {found['spent']:,} "
         f"hands in {tpe_s:.0f} s; pick {cands[tpe_pick].label}")
    picks = list(dict.fromkeys([grid_pick, pick, random_pick, tpe_pick]))
    specs = [cands[c] for c in picks]
    fresh = max(1, remeasure // n)
    again = sums_over(InProcess(), table, specs, 0, fresh, t.confirm_seed)
    scale = n * t.game.objective(t.table.match["mode"]).scale
    out = {"race_hands": spent, "grid_hands": grid_hands, "share_of_grid": spent / grid_hands}
    for who, c in (("grid", grid_pick), ("tuner", pick), ("random", random_pick), ("tpe", tpe_pick)):
        j = picks.index(c)
        e = estimate(again, j, None if j == 0 else 0, sign)
        out[who] = {"pick": cands[c].label, "figure": e.mean / scale, "half": e.half / scale,
                    "worse_than_grid": e.diff / scale, "worse_half": e.diff_half / scale}
        echo(f"  {who:7s} {e.mean / scale:9.4f} ± {e.half / scale:.4f}   worse than the grid's pick by "
             f"{e.diff / scale:+.4f} ± {e.diff_half / scale:.4f}   ({cands[c].label})")
    echo(f"the race played {100 * spent / grid_hands:.2f}% of the grid's hands; re-measured on {fresh * n:,} "
         "fresh hands each")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("spec")
    parser.add_argument("--budget", type=int, default=None, help="the race's hands (default: the spec's)")
    parser.add_argument("--remeasure", type=int, default=10_000_000, help="fresh hands per pick")
    parser.add_argument("--tpe-candidates", type=int, default=64, help="settings TPE proposes in all")
    parser.add_argument("--tpe-iterations", type=int, default=4, help="iterations TPE proposes them in")
    args = parser.parse_args()
    compare(load_tuning(args.spec), args.budget, args.remeasure, tpe=(args.tpe_candidates, args.tpe_iterations))


if __name__ == "__main__":
    main()
