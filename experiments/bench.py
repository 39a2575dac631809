"""How much the runner adds to the engine: the same hands of a spec, played by the raw engine
(arrays in memory) and by the runner (chunks, results.parquet, meta.json), medians of three."""

import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from experiments.chunks import play_chunk
from experiments.runner import plan, write_results
from experiments.spec import Spec


def _engine(spec: Spec, hands: int) -> float:
    """The same hands through the game's engine alone, each cell and rotation in one call."""
    start = time.perf_counter()
    for task in plan(spec, hands, chunk=hands):
        play_chunk(task, spec)
    return time.perf_counter() - start


def _runner(spec: Spec, hands: int) -> tuple[float, float]:
    """Wall time of the run, and the CPU time its writing took (from its meta.json)."""
    with tempfile.TemporaryDirectory(prefix="simkit-bench-") as tmp:
        start = time.perf_counter()
        write_results(spec, str(Path(tmp) / "run"), hands=hands)
        elapsed = time.perf_counter() - start
        return elapsed, json.loads((Path(tmp) / "run" / "meta.json").read_text())["writer_cpu_s"]


def runner_bench(spec: Spec, hands: int, echo: Callable[[str], None] = print, repeats: int = 3) -> float:
    """Print and return the runner's overhead over the engine (a fraction)."""
    _engine(spec, 1000), _runner(spec, 1000)  # compiled, warm
    engine, runner, writer = [], [], []
    for _ in range(repeats):  # interleaved, so that a slow spell of the machine hits both
        engine.append(_engine(spec, hands))
        elapsed, cpu = _runner(spec, hands)
        runner.append(elapsed)
        writer.append(cpu)
    total = sum(task.hi - task.lo for task in plan(spec, hands))
    e, r, w = statistics.median(engine), statistics.median(runner), statistics.median(writer)
    echo(f"runner: {spec.name}, {total:,} hands ({hands:,} deals per cell and rotation), median of {repeats}")
    echo(f"  engine alone      {e:7.3f} s   {total / e:12,.0f} hands/s")
    echo(f"  simkit run        {r:7.3f} s   {total / r:12,.0f} hands/s   (chunks, results.parquet, meta.json)")
    echo(f"  runner overhead   {100 * (r / e - 1):+6.1f}%")
    echo(f"  writing           {w:7.3f} s of CPU beside the engine ({100 * w / e:.1f}% of its time): "
         "chunk files, rows, Parquet encoding")
    return r / e - 1
