"""A field run (`simkit field SPEC.toml --out DIR`): every profile of the pool at each player
count played on shared deals (simkit.analyses.field.play), the payoff table written, then analysed
(simkit.analyses.field.analysis) and reported.

The folder holds field.json (the record: the spec, what was played, the analysis's settings),
payoffs.parquet (a row per profile and strategy: its whole-number sums and its mean with a 95%
interval), bootstrap.npz (each row's sums under the bootstrap's resampled deals), analysis.json
and the report: small, and independent of the number of hands. While the profiles play,
state.npz keeps the sums of the tasks done (written every few seconds, each time whole), what
--resume continues from; the sums are whole numbers, so a resumed run gives the same table bit
for bit."""

import functools
import json
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd

import simkit
from simkit.analyses.field.play import Rows, play_task, tasks, total_weights
from simkit.analyses.field.profiles import arrangements, multisets
from simkit.analyses.field.record import BOOT, META, PAYOFFS, STATE, write_meta
from simkit.analyses.field.spec import Field
from simkit.core.errors import SimkitError
from simkit.core.files import atomic_path
from simkit.core.records import resumed
from simkit.experiments import executors
from simkit.experiments.runner import hold
from simkit.stats.intervals import mean_half

SAVE_EVERY = 2.0  # seconds between writes of the state while the profiles play


def play_text(f: Field, hands: int) -> str:
    """What identifies what a field plays (a resume must play the same): not the analysis's
    settings, which a resume may change to analyse the same table again."""
    return json.dumps({"table": str(replace(f.table, hands=hands)), "pool": f.labels(), "hands": hands,
                       "bootstrap": f.bootstrap}, sort_keys=True, default=str)


def _differs(kept: str | None, now: str) -> str:
    """What differs between a folder's field and this one, in words: "hands: 2000 there, 20000 here"."""
    try:
        there, here = json.loads(kept), json.loads(now)
    except (TypeError, ValueError):
        return "its record names no field"
    keys = [k for k in here if there.get(k) != here[k]]
    if keys == ["table"] or not keys:
        return "its table (game, players, seed, rules, match or model) differs"
    return "; ".join(f"{k}: {there.get(k)} there, {here[k]} here" if k in ("hands", "bootstrap") else f"its {k} differs"
                     for k in keys if k != "table" or len(keys) == 1)


def run_field(f: Field, out: str, hands: int | None = None, resume: bool = False,
              progress: Callable[[int], None] | None = None, workers: int | None = None,
              scheduler: str | None = None, strategy_files: tuple[str, ...] = ()) -> Path:
    """Play, analyse and report into folder `out` (new or empty; with `resume`, a field of the same
    spec and hands, unfinished, or finished: then analysed again with the spec's settings).
    `progress(k)`: k more hands played. The profiles play in this process, or on Dask with
    `workers` (a local cluster of that many processes) or `scheduler` (an existing cluster's
    address): the table is the same, bit for bit."""
    hands = hands or f.hands
    files = tuple(str(Path(p).resolve()) for p in strategy_files)
    with hold(out) as folder:
        meta = _start(folder, f, hands, resume)
        if not meta["complete"]:
            state = _state(folder, f, hands)
            if progress:
                progress(_done_hands(f, state))
            start = time.perf_counter()
            with executors.pool(workers, scheduler) as pool:
                meta["executor"] = executors.describe(workers, scheduler)
                for n in f.players:
                    _play(pool, folder, f, n, hands, state, files, progress)
            meta["play_s"] = round(meta.get("play_s", 0) + time.perf_counter() - start, 3)
            _write_table(folder, f, hands, state)
            meta["complete"] = True
            meta["hands_played"] = f.played(hands)
            write_meta(folder, meta)
            (folder / STATE).unlink(missing_ok=True)
        meta["analysis"] = {"starts": f.starts, "bootstrap": f.bootstrap, "epsilon": f.epsilon, "steps": f.steps}
        write_meta(folder, meta)
        from simkit.analyses.field.analysis import analyse
        from simkit.analyses.field.report import make_field_report

        analyse(folder)
        make_field_report(str(folder))
        return folder


def _play(pool, folder: Path, f: Field, n: int, hands: int, state: dict, files: tuple[str, ...],
          progress: Callable[[int], None] | None) -> None:
    """The tasks at n players not yet done (the state's list), their sums added into the state as
    they finish."""
    order = {tuple(int(x) for x in t): i for i, t in enumerate(state[f"tasks{n}"])}
    todo = [t for t, i in order.items() if not state[f"done{n}"][i]]
    if not todo:
        return
    saved = time.monotonic()
    for task, part in pool.map(play_task, todo, f, n, f.bootstrap, files):
        end = part.first + len(part.sums)
        state[f"sums{n}"][part.first:end] += part.sums
        state[f"squares{n}"][part.first:end] += part.squares
        state[f"boot{n}"][part.first:end] += part.boot
        state[f"done{n}"][order[task]] = True
        if progress:
            progress(_hands_of(f, n, task))
        if time.monotonic() - saved > SAVE_EVERY:
            _save_state(folder, state)
            saved = time.monotonic()
    _save_state(folder, state)


def _hands_of(f: Field, n: int, task) -> int:
    """Hands a task plays: its profiles' seatings x its deals."""
    p0, p1, lo, hi = (int(x) for x in task)
    return int(_seatings(len(f.pool), n)[p0:p1].sum()) * (hi - lo)


@functools.lru_cache(maxsize=8)
def _seatings(k: int, n: int) -> np.ndarray:
    """Each profile's number of distinct seatings."""
    return np.array([arrangements(c) for c in multisets(k, n)], np.int64)


def _done_hands(f: Field, state: dict) -> int:
    return sum(_hands_of(f, n, task) for n in f.players
               for task, done in zip(state[f"tasks{n}"], state[f"done{n}"]) if done)


def _empty_state(f: Field, hands: int) -> dict:
    state = {}
    for n in f.players:
        r = len(Rows.of(len(f.pool), n).profile)
        planned = np.array(tasks(f, n, hands), np.int64)
        state |= {f"sums{n}": np.zeros(r, np.int64), f"squares{n}": np.zeros(r, np.int64),
                  f"boot{n}": np.zeros((r, f.bootstrap), np.int64), f"tasks{n}": planned,
                  f"done{n}": np.zeros(len(planned), bool)}
    return state


def _state(folder: Path, f: Field, hands: int) -> dict:
    """The sums of the tasks done: none yet, or as the state file left them."""
    state = _empty_state(f, hands)
    path = folder / STATE
    if not path.is_file():
        return state
    try:
        with np.load(path) as z:
            for key, value in state.items():
                if key.startswith("tasks") and (z[key].shape != value.shape or (z[key] != value).any()):
                    raise ValueError("its tasks are not this version's (another split of profiles and deals)")
                if z[key].shape != value.shape:
                    raise ValueError(f"{key} has shape {z[key].shape}, not {value.shape}")
                state[key] = z[key].copy()
    except (OSError, KeyError, ValueError) as e:
        raise SimkitError(f"{path} is damaged and cannot be read ({e}); delete the folder and play the field "
                          "again") from None
    return state


def _save_state(folder: Path, state: dict) -> None:
    with atomic_path(folder / STATE) as tmp:
        with open(tmp, "wb") as out:
            np.savez(out, **state)


def _write_table(folder: Path, f: Field, hands: int, state: dict) -> None:
    """payoffs.parquet (a row per player count, profile and strategy) and bootstrap.npz."""
    objective = f.game.objective(f.table.match["mode"])
    labels = f.labels()
    frames, boot = [], {}
    for n in f.players:
        rows = Rows.of(len(f.pool), n)
        sums, squares = state[f"sums{n}"], state[f"squares{n}"]
        per = (rows.seatings * rows.copies * objective.scale).astype(np.float64)  # a deal's value: seat-hands x scale
        mean, half = mean_half(sums, squares, hands, per)
        members = {p: ", ".join(labels[m] for m in np.repeat(np.arange(len(labels)), c))
                   for p, c in enumerate(multisets(len(labels), n))}
        frames.append(pd.DataFrame({
            "players": n, "profile": rows.profile, "lineup": [members[p] for p in rows.profile],
            "strategy": rows.member, "label": [labels[m] for m in rows.member], "copies": rows.copies,
            "seatings": rows.seatings, "deals": hands, "sum": sums, "square": squares, "mean": mean,
            "half": half}))
        boot[f"boot{n}"] = state[f"boot{n}"]
        boot[f"weights{n}"] = total_weights(f.table.seed, n, hands, f.bootstrap)
    with atomic_path(folder / BOOT) as tmp:
        with open(tmp, "wb") as out:
            np.savez_compressed(out, **boot)
    with atomic_path(folder / PAYOFFS) as tmp:
        pd.concat(frames, ignore_index=True).to_parquet(tmp, index=False)


def _start(folder: Path, f: Field, hands: int, resume: bool) -> dict:
    """The field's record: a new one in an empty folder, or (resume) the one there."""
    meta = resumed(folder, META, "field", "field", "play the field again", resume)
    if meta is not None:
        if meta.get("plays") != play_text(f, hands):
            raise SimkitError(f"{folder} holds another field ({_differs(meta.get('plays'), play_text(f, hands))}); "
                              "resume it with the same spec and --hands, or choose another --out")
        return meta
    mode = f.table.match["mode"]
    objective = f.game.objective(mode)
    meta = {"kind": "field", "simkit": simkit.__version__, "name": f.name, "game": f.table.game,
            "players": list(f.players), "pool": f.labels(), "seed": f.table.seed, "rules": f.table.rules,
            "match": f.table.match, "model": f.table.model, "label": objective.label, "share": objective.share,
            "scale": objective.scale, "lower": objective.lower, "unit": f.game.unit(mode), "hands": hands,
            "plays": play_text(f, hands), "complete": False}
    write_meta(folder, meta)
    return meta


