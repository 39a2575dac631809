"""How much the runner adds to the engine: the same deals of a spec, played by the engine alone
(arrays in memory, every cell and rotation of a chunk in one call each, nothing kept) and by the
runner (the engine adding every deal to the statistics as it plays, chunk files, stats.parquet,
meta.json), in pairs; and, optionally, the runner on local Dask clusters of 1 and 2 worker
processes."""

import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from simkit import games
from simkit.experiments.chunks import rotated
from simkit.experiments.runner import Chunk, plan, replays, write_results
from simkit.experiments.spec import Spec


def _engine(spec: Spec, chunk: Chunk) -> float:
    """A chunk's engine calls alone: every cell in all its rotations, the arrays dropped."""
    game = games.get(spec.game)
    start = time.perf_counter()
    for cell in spec.cells():
        seatings = [game.seats_for(rotated(cell.lineup, r), cell.players) for r in range(cell.rotations(spec.seating))]
        game.play(seatings, chunk.hi - chunk.lo, chunk.lo, spec, cell)
    return time.perf_counter() - start


def _interleaved(spec: Spec, deals: int) -> tuple[list[float], list[float]]:
    """One run in which each chunk, once the run has finished it, is played again by the engine
    alone (in the run's progress callback). The run's own seconds piece by piece (up to the end
    of each chunk, and what comes after the last: the files), and the engine's alone for each
    chunk. Interleaved chunk by chunk, the two meet the same spells of the machine."""
    chunks = iter(plan(spec, deals))
    run: list[float] = []
    engine: list[float] = []
    mark = [0.0]

    def engine_alone(_: int) -> None:
        run.append(time.perf_counter() - mark[0])
        engine.append(_engine(spec, next(chunks)))
        mark[0] = time.perf_counter()

    with tempfile.TemporaryDirectory(prefix="simkit-bench-") as tmp:
        mark[0] = time.perf_counter()
        write_results(spec, str(Path(tmp) / "run"), hands=deals, progress=engine_alone)
        run.append(time.perf_counter() - mark[0])
    return run, engine


def _runner(spec: Spec, hands: int, workers: int | None = None) -> float:
    """The whole run's seconds."""
    with tempfile.TemporaryDirectory(prefix="simkit-bench-") as tmp:
        start = time.perf_counter()
        write_results(spec, str(Path(tmp) / "run"), hands=hands, workers=workers)
        return time.perf_counter() - start


def runner_bench(spec: Spec, hands: int, echo: Callable[[str], None] = print, repeats: int = 7,
                 dask_workers: tuple[int, ...] = ()) -> float:
    """Print and return the runner's overhead over the engine (a fraction) for about `hands`
    hands (whole deals, each played in every cell and rotation). `repeats` runs, each with the
    engine alone on the same chunks interleaved chunk by chunk; how fast this machine is drifts
    from one minute to the next by more than the overhead, and a busy spell only ever slows a
    piece down, so each piece (a chunk in the run, the same chunk alone, the run's files) counts
    with its fastest time over the repeats. The spread of the runs' own ratios is printed too."""
    deals = max(1, hands // replays(spec))
    _interleaved(spec, min(deals, 1000))  # compiled, warm
    runs, engines = zip(*(_interleaved(spec, deals) for _ in range(repeats)))
    ratios = sorted(sum(r) / sum(e) for r, e in zip(runs, engines))
    r, e = sum(map(min, zip(*runs))), sum(map(min, zip(*engines)))
    total = deals * replays(spec)
    unit = games.get(spec.game).unit(spec.match["mode"])
    echo(f"runner: {spec.name}, {total:,} {unit} ({deals:,} deals x {replays(spec)} replays, "
         f"{len(engines[0])} chunk{'s' if len(engines[0]) > 1 else ''}), {repeats} runs")
    echo(f"  engine alone      {e:7.3f} s   {total / e:12,.0f} {unit}/s   (each chunk at its fastest)")
    echo(f"  simkit run        {r:7.3f} s   {total / r:12,.0f} {unit}/s   (each chunk and the files at their "
         "fastest; statistics, chunk files, stats.parquet, meta.json)")
    overhead = r / e - 1
    echo(f"  runner overhead   {100 * overhead:+6.1f}%   (the runs one by one: median "
         f"{100 * (statistics.median(ratios) - 1):+.1f}%, from {100 * (ratios[0] - 1):+.1f}% "
         f"to {100 * (ratios[-1] - 1):+.1f}%)")
    for k in dask_workers:
        d = _runner(spec, deals, workers=k)  # start-up included, as a user meets it
        warm = _on_warm_cluster(spec, deals, k)
        echo(f"  dask, {k} worker{'s' if k > 1 else ' '} {d:7.3f} s   {total / d:12,.0f} {unit}/s   "
             f"(a local cluster of one-thread processes, started and stopped); on a cluster already up and "
             f"warm {warm:.3f} s, {total / warm:,.0f} {unit}/s")
    return overhead


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
