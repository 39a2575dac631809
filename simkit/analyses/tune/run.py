"""A tuning run (`simkit tune SPEC.toml --out DIR`): the candidates (the grid, or settings drawn
from the seed), raced on shared deals in rounds of growing blocks until one is left or the budget
is spent, then the winner confirmed on fresh deals against the runner-up, the family's default
and the field's own strategy. With the tpe sampler the race runs in iterations, TPE proposing
each one's new settings (simkit.analyses.tune.propose).

The folder holds tune.json (the spec, each iteration and round, TPE's asks and tells, the
confirmation), candidates.parquet, race.parquet
(every alive candidate's estimate in every round) and, while the race runs, state.npz (its exact
sums, what --resume continues from). Each is written beside its place and renamed in after every
round, so Ctrl-C loses at most the round being played, and a resumed run gives the same answer
bit for bit (the sums are whole numbers; the deals of a round do not depend on where it ran)."""

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd

import simkit
from simkit.analyses.tune.play import Table, sums_over
from simkit.analyses.tune.race import Estimate, Sums, estimate, judge
from simkit.analyses.tune.record import BEFORE, META, RACE, RACE_COLUMNS, STATE, write_candidates
from simkit.analyses.tune.space import MOST_CANDIDATES, Candidate
from simkit.analyses.tune.spec import Tuning
from simkit.core.errors import SimkitError
from simkit.core.files import atomic_path
from simkit.core.records import resumed
from simkit.experiments import executors
from simkit.experiments.runner import hold


def candidates_of(t: Tuning) -> list[Candidate]:
    """The race's candidates: every distinct strategy of the grid, or `t.candidates` drawn from the
    seed; the family's default is not added (it is confirmed against the winner)."""
    found = t.space.grid() if t.sampler == "grid" else t.space.sample(t.candidates, t.table.seed)
    if t.starts and t.sampler != "grid":  # raced whatever the draw (a grid holds them already)
        started = [t.space.candidate(s) for s in t.starts]
        found = list({c.label: c for c in started + found}.values())[:max(t.candidates, len(started))]
    if len(found) > MOST_CANDIDATES:
        raise SimkitError(f"the space has {len(found):,} distinct strategies, at most {MOST_CANDIDATES:,} race at "
                          "once: give the ranges larger steps, or draw some (race.sampler = \"random\" or \"tpe\")")
    if len(found) < 2:
        raise SimkitError(f"the space holds one strategy only ({found[0].label}): nothing to race")
    return found


def spec_text(t: Tuning) -> str:
    """What identifies a tuning (a resume must be of the same one)."""
    return json.dumps({"table": str(t.table), "field": [str(s) for s in t.field], "template": t.space.template,
                       "space": [asdict(d) for d in t.space.dimensions], "rules": list(t.space.profile),
                       "default": str(t.default),
                       "baselines": [str(s) for s in t.baselines], "start": list(t.starts),
                       "profile": t.profile, "sampler": t.sampler, "candidates": t.candidates,
                       "iterations": t.iterations, "first": t.first,
                       "growth": t.growth, "alpha": t.alpha, "confirm": [t.confirm_deals, t.confirm_seed]},
                      sort_keys=True, default=str)


def run_tuning(t: Tuning, out: str, budget: int | None = None, resume: bool = False,
               progress: Callable[[int], None] | None = None, told: Callable[[str], None] | None = None,
               workers: int | None = None, scheduler: str | None = None,
               strategy_files: tuple[str, ...] = ()) -> Path:
    """Race and confirm into folder `out` (new or empty; with `resume`, an unfinished tuning of
    the same spec and budget). `progress(k)`: k more hands played; `told(line)`: a line per round.
    The deals play in this process, or on Dask with `workers` (a local cluster of that many
    processes) or `scheduler` (an existing cluster's address): the answer is the same, bit for bit."""
    budget = budget or t.budget
    files = tuple(str(Path(f).resolve()) for f in strategy_files)
    with hold(out) as folder:
        meta = _start(folder, t, budget, resume)
        report = folder / "report.html"  # written last: a tuning stopped while its report was written has none
        if meta.get("complete") and report.is_file():  # a resume of a finished tuning plays nothing
            return folder
        if not meta.get("complete"):
            _tune(t, folder, meta, budget, Play(None, files, progress), told, workers, scheduler)
        from simkit.analyses.tune.report import make_tuning_report

        make_tuning_report(str(folder))
        return folder


def _tune(t: Tuning, folder: Path, meta: dict, budget: int, play: "Play", told: Callable[[str], None] | None,
          workers: int | None, scheduler: str | None) -> None:
    """The race and the confirmation, from where `meta` says the tuning is, on the executor asked for."""
    proposer = None
    if t.sampler == "tpe":
        from simkit.analyses.tune.propose import Proposer

        drawn = t.space.sample(2, t.table.seed)
        if len(drawn) < 2:
            raise SimkitError(f"the space holds one strategy only ({drawn[0].label}): nothing to race")
        proposer = Proposer(t, meta["trials"])
        cands = list(proposer.found.values())
        first, share = t.batch, budget // t.iterations
    else:
        cands = candidates_of(t)
        first, share = len(cands), budget
    if not meta["rounds"] and first * t.players * t.first > share:  # before anything is written
        each = f"; its first of {t.iterations} iterations gets {share:,}" if t.iterations > 1 else ""
        raise SimkitError(f"the budget ({budget:,} hands{each}) does not cover the first round: {first:,} "
                          f"candidates x {t.players} rotations x {t.first} deals = "
                          f"{first * t.players * t.first:,} hands")
    if "candidates" not in meta:  # the record from the start: an interrupted first round resumes too
        write_candidates(folder, cands)
        meta["candidates"] = len(cands)
        _write_meta(folder, meta)
    with executors.pool(workers, scheduler) as pool:
        meta["executor"] = executors.describe(workers, scheduler)
        _race(t, folder, meta, cands, budget, replace(play, pool=pool), proposer, told)


@dataclass
class Play:
    """Where and how the deals are played: the pool, the user's files, the progress callback."""

    pool: object
    files: tuple[str, ...]
    progress: Callable[[int], None] | None

    def sums(self, table: Table, specs: list, lo: int, hi: int, seed: int | None = None) -> Sums:
        return sums_over(self.pool, table, specs, lo, hi, seed, self.files, progress=self.progress)


def iteration_seed(t: Tuning, j: int) -> int:
    """The deals of iteration j: the spec's seed for the first, then seeds drawn from it (fresh deals)."""
    if j == 0:
        return t.table.seed
    return int(np.random.SeedSequence([t.table.seed, 0x17E5, j]).generate_state(1, np.uint64)[0])


def _race(t: Tuning, folder: Path, meta: dict, cands: list[Candidate], budget: int, play: Play, proposer,
          told: Callable[[str], None] | None) -> None:
    """The iterations (one, but with the tpe sampler) and their rounds, from where `meta` says the
    race is, then the confirmation. An iteration races its members on its own deals until one is
    left or its share of the budget is spent; with tpe, the next one races its best survivors
    beside the settings TPE proposes once it has been told the last ones' means."""
    table = Table(t.table, t.field, t.profile)
    sign = 1 if t.game.objective(t.table.match["mode"]).lower else -1
    sums, alive, rows = _state(folder, meta)
    n = t.players
    start = time.perf_counter()
    while not meta["race_over"]:
        its = meta["iterations"]
        if not its or its[-1]["over"]:
            j = len(its)
            members = list(range(len(cands)))
            elites = its[-1]["elites"] if its and proposer is not None else []
            share = (budget - meta["spent"]) // max(t.iterations - j, 1)
            count = min(t.batch, t.candidates - len(cands))  # TPE proposes `candidates` in all
            wanted = len(elites) + count if proposer is not None else len(members)
            if j >= t.iterations or wanted * n * t.first > share or (proposer is not None and not count):
                meta["race_over"] = True
                meta["ended"] = its[-1]["ended"] if its else "budget spent"
                break
            if proposer is not None:
                fresh = proposer.propose(count, meta["told"])
                cands += fresh
                members = elites + list(range(len(cands) - len(fresh), len(cands)))
                write_candidates(folder, cands)
                meta["candidates"] = len(cands)
                if len(members) < 2 or not fresh:
                    meta["race_over"] = True
                    meta["ended"] = (f"{its[-1]['ended']}; " if its else "") + "the sampler proposed nothing new"
                    break
            its.append({"iteration": j, "members": members, "seed": iteration_seed(t, j), "first_round":
                        len(meta["rounds"]), "until": meta["spent"] + share, "over": False})
            sums, alive = Sums.zeros(len(members)), np.ones(len(members), bool)
        it = its[-1]
        members = it["members"]
        live = [m for m in range(len(members)) if alive[m]]
        k = len(meta["rounds"]) - it["first_round"]
        block = int(t.first * t.growth ** k)
        left = it["until"] - meta["spent"]
        if len(live) * n * block > left:
            block = left // (len(live) * n)
        if len(live) == 1 or block < t.first:
            it["over"] = True
            it["ended"] = "one left" if len(live) == 1 else "budget spent"
            _close(it, sums, alive, t, sign, meta, proposer, cands)
            _save(folder, meta, sums, alive, rows)
            continue
        lo = int(sums.deals[live[0]])
        sums.merge(np.array(live), play.sums(table, [cands[members[m]] for m in live], lo, lo + block,
                                             it["seed"]))
        meta["spent"] += len(live) * n * block
        r = judge(sums, live, k, t.alpha / t.iterations, sign, len(members))
        alive[r.dropped] = False
        g = len(meta["rounds"])
        meta["rounds"].append({"round": g, "iteration": it["iteration"], "deals": r.deals, "alive": len(live),
                               "leader": members[r.leader], "level": r.level,
                               "dropped": [members[m] for m in r.dropped], "hands": meta["spent"]})
        rows += [_row(g, it["iteration"], members[m], r.deals, e, m in r.dropped, m == r.leader)
                 for m, e in r.estimates.items()]
        _save(folder, meta, sums, alive, rows)
        if told:
            told(_round_line(r, members, cands, t, it["iteration"]))
    last = meta["iterations"][-1]
    winner, runner_up = (last["members"][m] if m is not None else None for m in _places(sums, alive, sign))
    meta["winner"], meta["winner_candidate"] = cands[winner].label, winner
    meta["runner_up"] = cands[runner_up].label if runner_up is not None else None
    meta["runner_up_candidate"] = runner_up
    meta["race_s"] = round(meta.get("race_s", 0) + time.perf_counter() - start, 3)
    meta["confirmation"] = _confirm(t, table, cands, winner, runner_up, sign, play)
    meta["complete"] = True
    _save(folder, meta, sums, alive, rows, final=True)


def _close(it: dict, sums: Sums, alive: np.ndarray, t: Tuning, sign: int, meta: dict, proposer,
           cands: list[Candidate]) -> None:
    """An iteration is over: its survivors, best first, the best of them the next one's elites;
    with tpe, TPE told each new setting's mean (the figure per hand)."""
    members = it["members"]
    left = [m for m in _ranked(sums, sign) if alive[m]]
    it["elites"] = [members[m] for m in left[:max(1, t.batch // 2)]]
    if proposer is not None:
        values = {cands[members[m]].label: per_hand(int(sums.sums[m]) / int(sums.deals[m]), t)
                  for m in range(len(members))}
        proposer.tell(values)
        meta["told"] |= {label: v for label, v in values.items() if label not in meta["told"]}


def _places(sums: Sums, alive: np.ndarray, sign: int) -> tuple[int, int | None]:
    """The winner (the best mean among those left) and the runner-up (the best of the others
    that played the most deals)."""
    order = _ranked(sums, sign)
    left = [c for c in order if alive[c]]
    winner = left[0]
    others = [c for c in order if c != winner]
    return winner, (others[0] if others else None)


def _ranked(sums: Sums, sign: int) -> list[int]:
    """The candidates best first: those that played the most deals, then by mean (the first of
    equal ones)."""
    return sorted(range(len(sums.sums)), key=lambda c: (-int(sums.deals[c]), sign * int(sums.sums[c])
                                                        / max(int(sums.deals[c]), 1), c))


def _confirm(t: Tuning, table: Table, cands: list[Candidate], winner: int, runner_up: int | None, sign: int,
             play: Play) -> list[dict]:
    """The winner against the runner-up, the family's default and the field's own strategies on
    t.confirm_deals fresh deals (t.confirm_seed), each difference paired on those deals."""
    who = [("winner", cands[winner]), ("runner-up", cands[runner_up] if runner_up is not None else None),
           ("default", t.default)] + [("built-in", s) for s in t.baselines]
    who += [("field", s) for s in dict.fromkeys(t.field)]
    shown: dict[str, tuple[str, object]] = {}
    for role, spec in who:
        if spec is None:
            continue
        label = getattr(spec, "label", None) or str(spec)  # a candidate with model values: its label says them
        if label in shown:  # one strategy in two roles (greedy the default and the field's): one row
            before = shown[label][0]
            shown[label] = (before if role in before.split(" and ") else f"{before} and {role}", spec)
        else:
            shown[label] = (role, spec)
    specs = [spec for _, spec in shown.values()]
    sums = play.sums(table, specs, 0, t.confirm_deals, t.confirm_seed)
    out = []
    for c, (label, (role, _)) in enumerate(shown.items()):
        e = estimate(sums, c, None if c == 0 else 0, sign)
        out.append({"strategy": label, "role": role, "deals": int(sums.deals[c]), "mean": e.mean, "half": e.half,
                    "diff": e.diff, "diff_half": e.diff_half, "p": e.p})
    return out


def _row(k: int, j: int, c: int, deals: int, e: Estimate, dropped: bool, leader: bool) -> dict:
    return {"round": k, "iteration": j, "candidate": c, "deals": deals, "mean": e.mean, "half": e.half, "diff": e.diff,
            "diff_half": e.diff_half, "p": e.p, "dropped": dropped, "leader": leader}


def per_hand(value: float, t: Tuning) -> float:
    """A mean per deal (summed over the rotations, in the objective's units) as the objective's
    figure: per hand (or round, match), a share where it is one."""
    objective = t.game.objective(t.table.match["mode"])
    return value / t.players / objective.scale


def _round_line(r, members: list[int], cands: list[Candidate], t: Tuning, j: int) -> str:
    e = r.estimates[r.leader]
    where = f"iteration {j + 1}, " if t.iterations > 1 else ""
    return (f"{where}round {r.index + 1}: {len(r.estimates):,} candidates x {r.deals:,} deals; leader "
            f"{cands[members[r.leader]].label} {per_hand(e.mean, t):.4g} ± {per_hand(e.half, t):.2g}; "
            f"{len(r.dropped):,} dropped")


def _start(folder: Path, t: Tuning, budget: int, resume: bool) -> dict:
    """The tuning's record: a new one in an empty folder, or (resume) the unfinished one there."""
    meta = resumed(folder, META, "tuning", "tuning", "tune again", resume)
    if meta is not None:
        if meta.get("spec") != spec_text(t) or meta.get("budget") != budget:
            raise SimkitError(f"{folder} holds another tuning (its spec or budget differs); resume it with the same "
                              "spec and --budget, or choose another --out")
        return meta
    mode = t.table.match["mode"]
    objective = t.game.objective(mode)
    return {"kind": "tuning", "simkit": simkit.__version__, "name": t.name, "game": t.table.game,
            "players": t.players, "field": [str(s) for s in t.field], "template": t.space.template,
            "seed": t.table.seed, "confirm_seed": t.confirm_seed, "rules": t.table.rules, "match": t.table.match,
            "label": objective.label, "share": objective.share, "scale": objective.scale, "lower": objective.lower,
            "unit": t.game.unit(mode), "spec": spec_text(t), "budget": budget, "spent": 0, "iterations": [],
            "rounds": [], "trials": [], "told": {}, "race_over": False, "complete": False}


def _state(folder: Path, meta: dict) -> tuple[Sums, np.ndarray, list[dict]]:
    """The iteration's sums, alive members and the race's rows: none yet, or as the last round the
    record counts left them (the state file that says so: the last, or the one before it)."""
    if not meta["rounds"]:
        return Sums.zeros(0), np.ones(0, bool), []
    k, where = len(meta["iterations"][-1]["members"]), (len(meta["rounds"]), len(meta["iterations"]))
    try:
        for path in (folder / STATE, folder / BEFORE):
            if not path.is_file():
                continue
            with np.load(path) as z:
                if (int(z["rounds"]), int(z["iterations"])) != where:
                    continue
                sums, alive = Sums(z["sums"], z["cross"], z["deals"]), z["alive"].copy()
            if sums.sums.shape != (k,) or alive.shape != (k,):
                raise ValueError(f"it holds {sums.sums.shape[0]} candidates, the record {k}")
            rows = pd.read_parquet(folder / RACE).query(f"round < {where[0]}").to_dict("records")
            return sums, alive, rows
        raise ValueError(f"no state of round {where[0]} is kept")
    except (OSError, KeyError, ValueError) as e:
        raise SimkitError(f"{folder / STATE} is damaged and cannot be read ({e}); delete the folder and tune "
                          "again") from None


def _write_meta(folder: Path, meta: dict) -> None:
    with atomic_path(folder / META) as tmp:
        tmp.write_text(json.dumps(meta, indent=2))


def _save(folder: Path, meta: dict, sums: Sums, alive: np.ndarray, rows: list[dict], final: bool = False) -> None:
    """The rows, the state (unless final: then removed), then the record that says how far it got.
    The state of the round before stays beside it until the record is written, so that Ctrl-C
    between the two leaves a state that matches the record (each state says its round count)."""
    with atomic_path(folder / RACE) as tmp:
        pd.DataFrame(rows, columns=RACE_COLUMNS).to_parquet(tmp, index=False)
    if not final:
        if (folder / STATE).exists():
            (folder / STATE).replace(folder / BEFORE)
        with atomic_path(folder / STATE) as tmp:
            with open(tmp, "wb") as f:
                np.savez(f, sums=sums.sums, cross=sums.cross, deals=sums.deals, alive=alive,
                         rounds=len(meta["rounds"]), iterations=len(meta["iterations"]))
    _write_meta(folder, meta)
    if final:
        (folder / STATE).unlink(missing_ok=True)
    (folder / BEFORE).unlink(missing_ok=True)
