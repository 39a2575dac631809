"""How much the runner adds to the engine: a spec's deals played by `simkit run` (the engine adding
every deal to the statistics as it plays, chunk files, stats.parquet, meta.json), each of its
engine calls timed beside the same call by the engine alone (nothing counted, nothing kept);
and, optionally, the runner on local Dask clusters of 1 and 2 worker processes."""

import random
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from simkit import games
from simkit.experiments.runner import plan, replays, write_results
from simkit.experiments.spec import Spec
from simkit.experiments.statistics import engine_calls

PAIRED_FROM = 100  # deals an engine call needs for its pair to count (the run's warm-up plays one)
PAIRS = 40  # paired engine calls the runs should make, for a steady median


@contextmanager
def _paired(game: games.Game, pairs: list[tuple[float, float, int]], rng: random.Random) -> Iterator[None]:
    """While it lasts, each engine call of `game` (as a run makes it, adding to its statistics) is
    followed or preceded, at random, by the same call without statistics: pairs gains the
    seconds of both and the deals played. A benchmark's instrument only: the game's description
    is frozen, so its `play` is swapped in place and put back."""
    play = game.play

    def paired(seatings, count, first, spec, cells, tally=None, rows=False, **more):  # more: what a run asks too
        alone_first = rng.random() < 0.5
        if alone_first:
            alone = _timed(play, seatings, count, first, spec, cells)
        start = time.perf_counter()
        out = play(seatings, count, first, spec, cells, tally=tally, rows=rows, **more)
        counted = time.perf_counter() - start
        if not alone_first:
            alone = _timed(play, seatings, count, first, spec, cells)
        pairs.append((counted, alone, count))
        return out

    object.__setattr__(game, "play", paired)
    try:
        yield
    finally:
        object.__setattr__(game, "play", play)


def _timed(play: Callable, *args) -> float:
    start = time.perf_counter()
    play(*args)
    return time.perf_counter() - start


def _run(spec: Spec, deals: int, workers: int | None = None, scheduler: str | None = None) -> float:
    """A whole run's seconds, in a fresh folder."""
    with tempfile.TemporaryDirectory(prefix="simkit-bench-") as tmp:
        start = time.perf_counter()
        write_results(spec, str(Path(tmp) / "run"), hands=deals, workers=workers, scheduler=scheduler)
        return time.perf_counter() - start


def runner_bench(spec: Spec, hands: int, echo: Callable[[str], None] = print, repeats: int | None = None,
                 dask_workers: tuple[int, ...] = ()) -> float:
    """Print and return the runner's overhead over the engine (a fraction) for about `hands`
    hands (whole deals, each played in every cell and rotation), from `repeats` runs (default:
    enough for PAIRS paired engine calls, at least 5 runs).

    This machine's speed drifts from one second to the next by more than the overhead, so the
    two parts of it are measured each where drift matters least. The engine's calls with the
    statistics against the same calls alone: every call of the run is paired with the same call
    alone, just before or after it at random, and the median of the pairs' ratios is their
    ratio. The runner's own seconds (Python between the calls, its files): the run's wall time
    less its calls', as a share of the engine alone; the median over the runs."""
    deals = max(1, hands // replays(spec))
    chunks = len(plan(spec, deals))
    if repeats is None:
        repeats = min(PAIRS, max(5, -(-PAIRS // (chunks * engine_calls(spec)))))
    game = games.get(spec.game)
    rng = random.Random(0)
    _run(spec, min(deals, 1000))  # compiled, warm
    ratios: list[float] = []
    own: list[float] = []
    alone: list[float] = []
    for _ in range(repeats):
        pairs: list[tuple[float, float, int]] = []
        with _paired(game, pairs, rng):
            wall = _run(spec, deals)
        engine = sum(b for _, b, _ in pairs)
        own.append((wall - sum(a + b for a, b, _ in pairs)) / engine)
        alone.append(engine)
        ratios += [a / b for a, b, count in pairs if count >= PAIRED_FROM or count == deals]
    ratios.sort()
    calls, runner = statistics.median(ratios) - 1, statistics.median(own)
    e = statistics.median(alone)
    total = deals * replays(spec)
    unit = games.get(spec.game).unit(spec.match["mode"])
    quarter = len(ratios) // 4
    echo(f"runner: {spec.name}, {total:,} {unit} ({deals:,} deals x {replays(spec)} replays, {chunks} "
         f"chunk{'s' if chunks > 1 else ''}), {repeats} runs")
    echo(f"  engine alone      {e:7.3f} s   {total / e:12,.0f} {unit}/s   (median of the runs)")
    echo(f"  statistics        {100 * calls:+6.1f}%   in the engine's calls (median of {len(ratios)} paired calls; "
         f"quartiles {100 * (ratios[quarter] - 1):+.1f}% and {100 * (ratios[-1 - quarter] - 1):+.1f}%)")
    echo(f"  runner's own      {100 * runner:+6.1f}%   (Python between the calls, chunk files, stats.parquet, "
         f"meta.json: {runner * e:.3f} s)")
    overhead = calls + runner
    speed = total / (e * (1 + overhead))
    echo(f"  runner overhead   {100 * overhead:+6.1f}%   ({speed:,.0f} {unit}/s in `simkit run`)")
    for k in dask_workers:
        d = _run(spec, deals, workers=k)  # start-up included, as a user meets it
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
        return _run(spec, hands, scheduler=cluster.scheduler_address)
