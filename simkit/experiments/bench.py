"""How much the runner adds to the engine: the same deals of a spec, played by the engine alone
(arrays in memory, every cell and rotation of a chunk in one call each, nothing kept) and by the
runner (reduction to statistics, chunk files, stats.parquet, meta.json), medians of five; and,
optionally, the runner on local Dask clusters of 1 and 2 worker processes."""

import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from simkit.experiments import games
from simkit.experiments.chunks import rotated
from simkit.experiments.runner import plan, replays, write_results
from simkit.experiments.spec import Spec


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


def _runner(spec: Spec, hands: int, workers: int | None = None) -> tuple[float, float]:
    """The whole run's seconds, and those of its engine calls (from its meta.json)."""
    with tempfile.TemporaryDirectory(prefix="simkit-bench-") as tmp:
        start = time.perf_counter()
        write_results(spec, str(Path(tmp) / "run"), hands=hands, workers=workers)
        elapsed = time.perf_counter() - start
        return elapsed, json.loads((Path(tmp) / "run" / "meta.json").read_text())["engine_s"]


def runner_bench(spec: Spec, hands: int, echo: Callable[[str], None] = print, repeats: int = 5,
                 dask_workers: tuple[int, ...] = ()) -> float:
    """Print and return the runner's overhead over the engine (a fraction): the median run over
    the median engine alone; and, less exposed to how fast the machine happens to be at the
    moment, the median share of a run's time spent outside its engine calls."""
    _engine(spec, 1000), _runner(spec, 1000)  # compiled, warm
    engine, runner, outside = [], [], []
    for _ in range(repeats):  # interleaved, so that a slow spell of the machine hits both
        engine.append(_engine(spec, hands))
        wall, inside = _runner(spec, hands)
        runner.append(wall)
        outside.append((wall - inside) / inside)
    total = hands * replays(spec)
    e, r = statistics.median(engine), statistics.median(runner)
    unit = "rounds" if spec.game == "ezelen" and spec.match["mode"] == "single" else (
        "matches" if spec.match["mode"] != "single" else "hands")
    echo(f"runner: {spec.name}, {total:,} {unit} ({hands:,} deals x {replays(spec)} replays), median of {repeats}")
    echo(f"  engine alone      {e:7.3f} s   {total / e:12,.0f} {unit}/s")
    echo(f"  simkit run        {r:7.3f} s   {total / r:12,.0f} {unit}/s   (statistics, chunk files, stats.parquet)")
    echo(f"  runner overhead   {100 * (r / e - 1):+6.1f}%   (run / engine alone; "
         f"outside its engine calls a run spends {100 * statistics.median(outside):+.1f}% of their time)")
    for k in dask_workers:
        d, _ = _runner(spec, hands, workers=k)  # start-up included, as a user meets it
        warm = _on_warm_cluster(spec, hands, k)
        echo(f"  dask, {k} worker{'s' if k > 1 else ' '} {d:7.3f} s   {total / d:12,.0f} {unit}/s   "
             f"(a local cluster of one-thread processes, started and stopped); on a cluster already up and "
             f"warm {warm:.3f} s, {total / warm:,.0f} {unit}/s")
    return r / e - 1


def _on_warm_cluster(spec: Spec, hands: int, workers: int) -> float:
    """The run on a local cluster started beforehand, each worker's engine loaded: what a
    cluster adds once it is up (the start-up is paid once per cluster, not per run)."""
    import logging

    from distributed import Client, LocalCluster

    from simkit.experiments.statistics import reduce_chunk

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                      silence_logs=logging.ERROR, env={"NUMBA_NUM_THREADS": "1"}) as cluster, Client(cluster) as client:
        client.run(reduce_chunk, spec, 0, 1, warm_up=True)
        with tempfile.TemporaryDirectory(prefix="simkit-bench-") as tmp:
            start = time.perf_counter()
            write_results(spec, str(Path(tmp) / "run"), hands=hands, scheduler=cluster.scheduler_address)
            return time.perf_counter() - start
