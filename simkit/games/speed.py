"""`simkit bench`'s engine table, for any game: deals per second of the compiled engine on one
thread and on all, and of the plain-Python reference engine, each at a few player counts.

Compile (or cache-load) time is measured apart from the throughput figures, and every rate is
the median of REPEATS runs: one run on a shared machine is easily disturbed.
"""

import statistics
import time
from collections.abc import Callable

import numba as nb
import pandas as pd

SEED = 20261130
REPEATS = 3


def once(play: Callable[[list, int], object], seats: list, count: int) -> tuple[float, object]:
    """(deals/s, results) of one run on the threads set now."""
    start = time.perf_counter()
    res = play(seats, count)
    return count / (time.perf_counter() - start), res


def rate(play: Callable[[list, int], object], seats: list, count: int, threads: int) -> tuple[float, object]:
    """(deals/s, the last run's results): the median of REPEATS runs on `threads` threads."""
    nb.set_num_threads(threads)
    runs = [once(play, seats, count) for _ in range(REPEATS)]
    return statistics.median(r for r, _ in runs), runs[-1][1]


def engine_table(title: str, unit: str, players: list[int], count: int, reference_count: int, *,
                 seats_for: Callable[[list, int], list], play: Callable[[list, int], object],
                 reference: Callable[[list, int], object], compiled: Callable[[], bool], strategy: str,
                 echo: Callable[[str], None] = print, load_seconds: float = 0.0,
                 extra: Callable[[object], dict] | None = None, per_player: bool = False) -> pd.DataFrame:
    """Measure and print the table. `play(seats, count)` plays on the compiled engine,
    `reference(seats, i)` deal i on the reference engine; `compiled()`: whether the engine was
    compiled just now (not loaded from numba's cache); `extra(results)`: more columns; with
    `per_player`, microseconds per player per deal (wall clock: with all threads, the cost per
    player of the throughput)."""
    all_threads = nb.config.NUMBA_NUM_THREADS
    start = time.perf_counter()
    play(seats_for([strategy], players[0]), 1)
    how = "compiled now" if compiled() else "loaded from numba's cache"
    echo(f"{title} engine ready in {load_seconds + time.perf_counter() - start:.2f} s ({how}; "
         "not part of the figures below)")
    rows = []
    for n in players:
        seats = seats_for([strategy], n)
        one, res = rate(play, seats, count, 1)
        many, _ = rate(play, seats, count, all_threads)
        row = {"players": n, "strategy": f"all {strategy}", **(extra(res) if extra else {}), "1 thread": round(one)}
        if per_player:
            row["µs 1 thread"] = round(1e6 / (one * n), 3)
        row[f"{all_threads} threads"] = round(many)
        if per_player:
            row[f"µs {all_threads} threads"] = round(1e6 / (many * n), 3)
        row["speed-up"] = round(many / one, 2)
        if reference_count:
            start = time.perf_counter()
            for i in range(reference_count):
                reference(seats, i)
            ref = reference_count / (time.perf_counter() - start)
            row |= {"reference": round(ref, 1), "fast/reference": round(one / ref)}
        rows.append(row)
    nb.set_num_threads(all_threads)
    table = pd.DataFrame(rows).set_index("players")
    echo(f"{title} {unit}/s: fast engine the median of {REPEATS} runs of {count:,} {unit}"
         + (f", reference engine {reference_count:,} {unit}" if reference_count else "")
         + ("; µs = microseconds per player per " + unit[:-1] if per_player else ""))
    echo(table.to_string())
    return table


def bench_game(game, counts: list[int], deals: int, reference: int, strategy_deals: int, echo) -> None:
    """`simkit bench` of one game (a games.Game): its engine tables, and its strategies' where it
    has that table; its bench module's import (which compiles the engine or loads it) timed apart."""
    import importlib

    start = time.perf_counter()
    module = importlib.import_module(game.bench)
    load = time.perf_counter() - start
    module.run_bench(counts, deals, reference, echo=echo, load_seconds=load)
    if strategy_deals and hasattr(module, "strategy_bench"):
        echo("")
        module.strategy_bench(strategy_deals, echo=echo)
