"""`simkit bench` for Ezelen: rounds/s of the compiled engine on 1 and all threads, what a round
costs per player, and the reference engine's rounds/s.

Compile (or cache-load) time is measured apart from the throughput figures.
"""

import statistics
import time
from collections.abc import Callable

import numba as nb
import pandas as pd

from simkit.ezelen import batch, reference
from simkit.ezelen.driver import play_rounds
from simkit.ezelen.rules import DEFAULT_RULES
from simkit.ezelen.strategy import seats_for

SEED = 20261130
REPEATS = 3


def _timed_rounds(seats, rounds: int, threads: int) -> tuple[float, float]:
    """(rounds/s, mean turns per round): the median of REPEATS timings, since one run on a
    shared machine is easily disturbed."""
    nb.set_num_threads(threads)
    seconds = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        res = batch.play(seats, rounds, SEED)
        seconds.append(time.perf_counter() - start)
    return rounds / statistics.median(seconds), float(res.turns.mean())


def _reference_rate(seats, rounds: int) -> float:
    start = time.perf_counter()
    for m in range(rounds):
        reference.trace_round(SEED, m, 0, seats, DEFAULT_RULES)
    return rounds / (time.perf_counter() - start)


def run_bench(players: list[int], rounds: int, reference_rounds: int, echo: Callable[[str], None] = print,
              strategy: str = "greedy", load_seconds: float = 0.0) -> pd.DataFrame:
    """Measure and print the table: rounds/s and microseconds per player per round (wall clock,
    so with all threads it is the cost per player of the throughput), compile time apart."""
    all_threads = nb.config.NUMBA_NUM_THREADS
    start = time.perf_counter()
    batch.play(seats_for([strategy], players[0]), 1, SEED)
    how = "compiled now" if sum(play_rounds.stats.cache_misses.values()) else "loaded from numba's cache"
    echo(f"Ezelen engine ready in {load_seconds + time.perf_counter() - start:.2f} s ({how}; "
         "not part of the figures below)")
    rows = []
    for n in players:
        seats = seats_for([strategy], n)
        one, turns = _timed_rounds(seats, rounds, 1)
        many, _ = _timed_rounds(seats, rounds, all_threads)
        row = {"players": n, "strategy": f"all {strategy}", "turns/round": round(turns, 2),
               "1 thread": round(one), "µs 1 thread": round(1e6 / (one * n), 3),
               f"{all_threads} threads": round(many), f"µs {all_threads} threads": round(1e6 / (many * n), 3),
               "speed-up": round(many / one, 2)}
        if reference_rounds:
            ref = _reference_rate(seats, reference_rounds)
            row |= {"reference": round(ref, 1), "fast/reference": round(one / ref)}
        rows.append(row)
    nb.set_num_threads(all_threads)
    table = pd.DataFrame(rows).set_index("players")
    echo(f"Ezelen rounds/s: fast engine the median of {REPEATS} runs of {rounds:,} rounds"
         + (f", reference engine {reference_rounds:,} rounds" if reference_rounds else "")
         + "; µs = microseconds per player per round")
    echo(table.to_string())
    return table
