"""How much the runner adds to the engine: the same deals of a spec, played by the engine alone
(arrays in memory, every cell and rotation of a chunk in one call each, nothing kept) and by the
runner (reduction to statistics, chunk files, stats.parquet, meta.json), medians of three; and,
optionally, the runner on local Dask clusters of 1 and 2 worker processes."""

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from experiments import games
from experiments.chunks import rotated
from experiments.runner import plan, replays, write_results
from experiments.spec import Spec


def _engine(spec: Spec, hands: int) -> float:
    """The run's engine calls alone: every chunk, cell and rotation, the arrays dropped."""
    game = games.get(spec.game)
    start = time.perf_counter()
    for chunk in plan(spec, hands):
        for cell in spec.cells():
            for r in range(cell.rotations(spec.seating)):
                seats = game.seats_for(rotated(cell.lineup, r), cell.players)
                game.play(seats, chunk.hi - chunk.lo, chunk.lo, spec, cell)
    return time.perf_counter() - start


def _runner(spec: Spec, hands: int, workers: int | None = None) -> float:
    with tempfile.TemporaryDirectory(prefix="simkit-bench-") as tmp:
        start = time.perf_counter()
        write_results(spec, str(Path(tmp) / "run"), hands=hands, workers=workers)
        return time.perf_counter() - start


def runner_bench(spec: Spec, hands: int, echo: Callable[[str], None] = print, repeats: int = 3,
                 dask_workers: tuple[int, ...] = ()) -> float:
    """Print and return the runner's overhead over the engine (a fraction)."""
    _engine(spec, 1000), _runner(spec, 1000)  # compiled, warm
    engine, runner = [], []
    for _ in range(repeats):  # interleaved, so that a slow spell of the machine hits both
        engine.append(_engine(spec, hands))
        runner.append(_runner(spec, hands))
    total = hands * replays(spec)
    e, r = statistics.median(engine), statistics.median(runner)
    unit = "rounds" if spec.game == "ezelen" and spec.match["mode"] == "single" else (
        "matches" if spec.match["mode"] != "single" else "hands")
    echo(f"runner: {spec.name}, {total:,} {unit} ({hands:,} deals x {replays(spec)} replays), median of {repeats}")
    echo(f"  engine alone      {e:7.3f} s   {total / e:12,.0f} {unit}/s")
    echo(f"  simkit run        {r:7.3f} s   {total / r:12,.0f} {unit}/s   (statistics, chunk files, stats.parquet)")
    echo(f"  runner overhead   {100 * (r / e - 1):+6.1f}%")
    for k in dask_workers:  # a cluster's start-up is part of its time, as a user meets it
        d = _runner(spec, hands, workers=k)
        echo(f"  dask, {k} worker{'s' if k > 1 else ' '} {d:7.3f} s   {total / d:12,.0f} {unit}/s   "
             "(a local cluster of one-thread processes, started and stopped)")
    return r / e - 1
