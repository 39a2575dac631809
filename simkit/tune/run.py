"""A tuning run (`simkit tune SPEC.toml --out DIR`): the candidates (the grid, or settings drawn
from the seed), raced on shared deals in rounds of growing blocks until one is left or the budget
is spent, then the winner confirmed on fresh deals against the runner-up, the family's default
and the field's own strategy.

The folder holds tune.json (the spec, the candidates, each round, the confirmation), race.parquet
(every alive candidate's estimate in every round) and, while the race runs, state.npz (its exact
sums, what --resume continues from). Each is written beside its place and renamed in after every
round, so Ctrl-C loses at most the round being played, and a resumed run gives the same answer
bit for bit (the sums are whole numbers; the deals of a round do not depend on where it ran)."""

import json
import time
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pandas as pd

import simkit
from simkit.errors import SimkitError
from simkit.experiments.runner import hold
from simkit.files import atomic_path
from simkit.tune.play import Table, deal_values
from simkit.tune.race import Estimate, Sums, estimate, judge
from simkit.tune.space import MOST_CANDIDATES, Candidate
from simkit.tune.spec import Tuning

META, RACE, STATE, CANDIDATES = "tune.json", "race.parquet", "state.npz", "candidates.parquet"
SPAN = 8192  # deals added to the sums at a time: the values held are candidates x SPAN
RACE_COLUMNS = ["round", "candidate", "deals", "mean", "half", "diff", "diff_half", "p", "dropped", "leader"]


def candidates_of(t: Tuning) -> list[Candidate]:
    """The race's candidates: every distinct strategy of the grid, or `t.candidates` drawn from the
    seed; the family's default is not added (it is confirmed against the winner)."""
    found = t.space.grid() if t.sampler == "grid" else t.space.sample(t.candidates, t.table.seed)
    if len(found) > MOST_CANDIDATES:
        raise SimkitError(f"the space has {len(found):,} distinct strategies, at most {MOST_CANDIDATES:,} race at "
                          "once: give the ranges larger steps, or draw some (race.sampler = \"random\")")
    if len(found) < 2:
        raise SimkitError(f"the space holds one strategy only ({found[0].label}): nothing to race")
    return found


def confirm_hands(t: Tuning) -> int:
    """Hands the confirmation plays, at most: winner, runner-up, default and the field's strategies."""
    return (3 + len(set(t.field))) * t.players * t.confirm_deals


def spec_text(t: Tuning) -> str:
    """What identifies a tuning (a resume must be of the same one)."""
    return json.dumps({"table": str(t.table), "field": [str(s) for s in t.field], "template": t.space.template,
                       "space": [asdict(d) for d in t.space.dimensions], "default": str(t.default),
                       "profile": t.profile, "sampler": t.sampler, "candidates": t.candidates, "first": t.first,
                       "growth": t.growth, "alpha": t.alpha, "confirm": [t.confirm_deals, t.confirm_seed]},
                      sort_keys=True, default=str)


def run_tuning(t: Tuning, out: str, budget: int | None = None, resume: bool = False,
               progress: Callable[[int], None] | None = None,
               told: Callable[[str], None] | None = None) -> Path:
    """Race and confirm into folder `out` (new or empty; with `resume`, an unfinished tuning of
    the same spec and budget). `progress(k)`: k more hands played; `told(line)`: a line per round."""
    budget = budget or t.budget
    with hold(out) as folder:
        meta = _start(folder, t, budget, resume)
        if meta.get("complete"):  # a resume of a finished tuning plays nothing
            return folder
        cands = candidates_of(t)
        if not meta["rounds"] and len(cands) * t.players * t.first > budget:  # before anything is written
            raise SimkitError(f"the budget ({budget:,} hands) does not cover the first round: {len(cands):,} "
                              f"candidates x {t.players} rotations x {t.first} deals = "
                              f"{len(cands) * t.players * t.first:,} hands")
        if "candidates" not in meta:  # the record from the start: an interrupted first round resumes too
            _write_candidates(folder, cands)
            meta["candidates"] = len(cands)
            _write_meta(folder, meta)
        table = Table(t.table, t.field, t.profile)
        sign = 1 if t.game.objective(t.table.match["mode"]).lower else -1
        sums, alive, rows = _state(folder, len(cands), meta)
        n = t.players
        start = time.perf_counter()
        while not meta["race_over"]:
            live = [c for c in range(len(cands)) if alive[c]]
            k = len(meta["rounds"])
            block = int(t.first * t.growth ** k)
            left = budget - meta["spent"]
            if len(live) * n * block > left:
                block = left // (len(live) * n)
            if len(live) == 1 or block < t.first:
                meta["race_over"] = True
                meta["ended"] = "one left" if len(live) == 1 else "budget spent"
                break
            lo = int(sums.deals[live[0]])
            for a in range(lo, lo + block, SPAN):
                b = min(lo + block, a + SPAN)
                sums.add(np.array(live), deal_values(table, [cands[c].spec for c in live], a, b))
                if progress:
                    progress(len(live) * n * (b - a))
            meta["spent"] += len(live) * n * block
            r = judge(sums, live, k, t.alpha, sign)
            alive[r.dropped] = False
            meta["rounds"].append({"round": k, "deals": r.deals, "alive": len(live), "leader": r.leader,
                                   "level": r.level, "dropped": r.dropped, "hands": meta["spent"]})
            rows += [_row(k, c, r.deals, e, c in r.dropped, c == r.leader) for c, e in r.estimates.items()]
            _save(folder, meta, sums, alive, rows)
            if told:
                told(_round_line(r, cands, t, sign))
        winner, runner_up = _places(sums, alive, sign)
        meta["winner"], meta["runner_up"] = winner, runner_up
        meta["race_s"] = round(meta.get("race_s", 0) + time.perf_counter() - start, 3)
        meta["confirmation"] = _confirm(t, table, cands, winner, runner_up, sign, progress)
        meta["complete"] = True
        _save(folder, meta, sums, alive, rows, final=True)
        from simkit.reports.tuning import make_tuning_report

        make_tuning_report(str(folder))
        return folder


def _places(sums: Sums, alive: np.ndarray, sign: int) -> tuple[int, int | None]:
    """The winner (the best mean among those left) and the runner-up (the best of the others
    that played the most deals)."""
    order = sorted(range(len(alive)), key=lambda c: (-int(sums.deals[c]), sign * int(sums.sums[c])
                                                      / max(int(sums.deals[c]), 1), c))
    left = [c for c in order if alive[c]]
    winner = left[0]
    others = [c for c in order if c != winner]
    return winner, (others[0] if others else None)


def _confirm(t: Tuning, table: Table, cands: list[Candidate], winner: int, runner_up: int | None, sign: int,
             progress: Callable[[int], None] | None) -> list[dict]:
    """The winner against the runner-up, the family's default and the field's own strategies on
    t.confirm_deals fresh deals (t.confirm_seed), each difference paired on those deals."""
    who = [("winner", cands[winner].spec), ("runner-up", cands[runner_up].spec if runner_up is not None else None),
           ("default", t.default)] + [("field", s) for s in dict.fromkeys(t.field)]
    shown: dict[str, tuple[str, object]] = {}
    for role, spec in who:
        if spec is None:
            continue
        if str(spec) in shown:  # one strategy in two roles (greedy the default and the field's): one row
            before = shown[str(spec)][0]
            shown[str(spec)] = (before if role in before.split(" and ") else f"{before} and {role}", spec)
        else:
            shown[str(spec)] = (role, spec)
    specs = [spec for _, spec in shown.values()]
    sums = Sums.zeros(len(specs))
    for a in range(0, t.confirm_deals, SPAN):
        b = min(t.confirm_deals, a + SPAN)
        sums.add(np.arange(len(specs)), deal_values(table, specs, a, b, seed=t.confirm_seed))
        if progress:
            progress(len(specs) * t.players * (b - a))
    out = []
    for c, (label, (role, _)) in enumerate(shown.items()):
        e = estimate(sums, c, None if c == 0 else 0, sign)
        out.append({"strategy": label, "role": role, "deals": int(sums.deals[c]), "mean": e.mean, "half": e.half,
                    "diff": e.diff, "diff_half": e.diff_half, "p": e.p})
    return out


def _row(k: int, c: int, deals: int, e: Estimate, dropped: bool, leader: bool) -> dict:
    return {"round": k, "candidate": c, "deals": deals, "mean": e.mean, "half": e.half, "diff": e.diff,
            "diff_half": e.diff_half, "p": e.p, "dropped": dropped, "leader": leader}


def per_hand(value: float, t: Tuning) -> float:
    """A mean per deal (summed over the rotations, in the objective's units) as the objective's
    figure: per hand (or round, match), a share where it is one."""
    objective = t.game.objective(t.table.match["mode"])
    return value / t.players / objective.scale


def _round_line(r, cands: list[Candidate], t: Tuning, sign: int) -> str:
    e = r.estimates[r.leader]
    return (f"round {r.index + 1}: {len(r.estimates):,} candidates x {r.deals:,} deals; leader {cands[r.leader].label} "
            f"{per_hand(e.mean, t):.4g} ± {per_hand(e.half, t):.2g}; {len(r.dropped):,} dropped")


def _start(folder: Path, t: Tuning, budget: int, resume: bool) -> dict:
    """The tuning's record: a new one in an empty folder, or (resume) the unfinished one there."""
    meta_path = folder / META
    others = [p for p in folder.iterdir() if p.name not in ("run.pid",)]
    if resume:
        if not meta_path.is_file():
            raise SimkitError(f"{folder} holds no tuning to resume (no {META}); choose another --out")
        try:
            meta = json.loads(meta_path.read_text())
            if not isinstance(meta, dict) or meta.get("kind") != "tuning":
                raise ValueError("not a tuning's record")
        except (OSError, ValueError) as e:
            raise SimkitError(f"{meta_path} is damaged and cannot be read ({e}); delete the folder and tune again") \
                from None
        if meta.get("spec") != spec_text(t) or meta.get("budget") != budget:
            raise SimkitError(f"{folder} holds another tuning (its spec or budget differs); resume it with the same "
                              "spec and --budget, or choose another --out")
        return meta
    if others:
        what = "a tuning (finish it with --resume)" if meta_path.exists() else "other files"
        raise SimkitError(f"{folder} is not empty: it holds {what}; choose another --out")
    mode = t.table.match["mode"]
    objective = t.game.objective(mode)
    return {"kind": "tuning", "simkit": simkit.__version__, "name": t.name, "game": t.table.game,
            "players": t.players, "field": [str(s) for s in t.field], "template": t.space.template,
            "seed": t.table.seed, "confirm_seed": t.confirm_seed, "rules": t.table.rules, "match": t.table.match,
            "label": objective.label, "share": objective.share, "scale": objective.scale, "lower": objective.lower,
            "unit": t.game.unit(mode), "spec": spec_text(t), "budget": budget, "spent": 0, "rounds": [],
            "race_over": False, "complete": False}


def _state(folder: Path, k: int, meta: dict) -> tuple[Sums, np.ndarray, list[dict]]:
    """The race's sums, alive candidates and rows: new, or as the last round left them."""
    if not meta["rounds"]:
        return Sums.zeros(k), np.ones(k, bool), []
    try:
        with np.load(folder / STATE) as z:
            sums, alive = Sums(z["sums"], z["cross"], z["deals"]), z["alive"]
        rows = pd.read_parquet(folder / RACE).to_dict("records")
        if sums.sums.shape != (k,) or alive.shape != (k,):
            raise ValueError(f"it holds {sums.sums.shape[0]} candidates, the spec {k}")
    except (OSError, KeyError, ValueError) as e:
        raise SimkitError(f"{folder / STATE} is damaged and cannot be read ({e}); delete the folder and tune "
                          "again") from None
    return sums, alive.copy(), rows


def _write_meta(folder: Path, meta: dict) -> None:
    with atomic_path(folder / META) as tmp:
        tmp.write_text(json.dumps(meta, indent=2))


def _write_candidates(folder: Path, cands: list[Candidate]) -> None:
    """The candidates, in the race's order: each one's label and its setting (JSON)."""
    with atomic_path(folder / CANDIDATES) as tmp:
        pd.DataFrame({"label": [c.label for c in cands],
                      "setting": [json.dumps(dict(c.setting)) for c in cands]}).to_parquet(tmp, index=False)


def read_candidates(folder: Path) -> list[dict]:
    """The candidates `_write_candidates` wrote: a label and a setting each."""
    table = pd.read_parquet(Path(folder) / CANDIDATES)
    return [{"label": label, "setting": json.loads(setting)}
            for label, setting in zip(table["label"], table["setting"])]


def _save(folder: Path, meta: dict, sums: Sums, alive: np.ndarray, rows: list[dict], final: bool = False) -> None:
    """The state (unless final: then removed), the rows, then the record that says how far it got."""
    if not final:
        with atomic_path(folder / STATE) as tmp:
            with open(tmp, "wb") as f:
                np.savez(f, sums=sums.sums, cross=sums.cross, deals=sums.deals, alive=alive)
    with atomic_path(folder / RACE) as tmp:
        pd.DataFrame(rows, columns=RACE_COLUMNS).to_parquet(tmp, index=False)
    _write_meta(folder, meta)
    if final:
        (folder / STATE).unlink(missing_ok=True)
