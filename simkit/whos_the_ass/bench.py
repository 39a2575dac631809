"""`simkit bench`: hands/s of the fast engine on 1 and all threads, and of the reference engine.

Compile (or cache-load) time is measured apart from the throughput figures.
"""

import statistics
import time
from collections.abc import Callable

import numba as nb
import pandas as pd

from simkit.whos_the_ass import batch, reference
from simkit.whos_the_ass.driver import play_hands
from simkit.whos_the_ass.rules import DEFAULT_RULES
from simkit.whos_the_ass.strategy import seats_for

SEED = 20261130


REPEATS = 3


def _rate(seats, hands: int, threads: int) -> float:
    """The median of REPEATS timings: one run on a shared machine is easily disturbed."""
    nb.set_num_threads(threads)
    rates = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        batch.play(seats, hands, SEED)
        rates.append(hands / (time.perf_counter() - start))
    return statistics.median(rates)


def _reference_rate(seats, hands: int) -> float:
    start = time.perf_counter()
    for i in range(hands):
        reference.trace_hand(SEED, i, seats, DEFAULT_RULES)
    return hands / (time.perf_counter() - start)


def run_bench(players: list[int], hands: int, reference_hands: int, echo: Callable[[str], None] = print,
              strategy: str = "lowest", load_seconds: float = 0.0) -> pd.DataFrame:
    """Measure and print the table; compile time is reported apart from the throughput."""
    all_threads = nb.config.NUMBA_NUM_THREADS
    start = time.perf_counter()
    batch.play(seats_for([strategy], players[0]), 1, SEED)
    misses = sum(play_hands.stats.cache_misses.values())
    how = "compiled now" if misses else "loaded from numba's cache"
    echo(f"engine ready in {load_seconds + time.perf_counter() - start:.2f} s ({how}; "
         "not part of the figures below)")
    rows = []
    for n in players:
        seats = seats_for([strategy], n)
        one = _rate(seats, hands, 1)
        many = _rate(seats, hands, all_threads)
        row = {"players": n, "strategy": f"all {strategy}", "1 thread": round(one),
               f"{all_threads} threads": round(many), "speed-up": round(many / one, 2)}
        if reference_hands:
            ref = _reference_rate(seats, reference_hands)
            row |= {"reference": round(ref, 1), "fast/reference": round(one / ref)}
        rows.append(row)
    nb.set_num_threads(all_threads)
    table = pd.DataFrame(rows).set_index("players")
    echo(f"hands/s: fast engine the median of {REPEATS} runs of {hands:,} hands"
         + (f", reference engine {reference_hands:,} hands" if reference_hands else ""))
    echo(table.to_string())
    return table


def strategy_bench(hands: int, echo: Callable[[str], None] = print, players: int = 4) -> pd.DataFrame:
    """Hands/s on one thread for each registered strategy at its defaults: with every seat playing
    it, and in one seat against `lowest` in the others. Strategies that make hands longer cost
    more per hand, so tricks/s is shown too: the cost of the decisions themselves."""
    from simkit import registry
    from simkit.whos_the_ass.rules import GAME

    def measure(specs):
        seats = seats_for(specs, players)
        rate = _rate(seats, hands, 1)
        tricks = float(batch.play(seats, min(hands, 100_000), SEED).tricks.mean())
        return rate, tricks

    base, base_tricks = measure(["lowest"])
    rows = []
    for info in registry.available(GAME):
        spec = info.name + ("()" if info.composer else "")
        alone, tricks = measure([spec])
        one, _ = measure([spec] + ["lowest"] * (players - 1))
        rows.append({"strategy": info.name, "all seats": round(alone), "tricks/hand": round(tricks, 2),
                     "% hands/s": round(100 * alone / base),
                     "% tricks/s": round(100 * alone * tricks / (base * base_tricks)),
                     "1 seat + lowest": round(one), "% ": round(100 * one / base)})
    nb.set_num_threads(nb.config.NUMBA_NUM_THREADS)
    table = pd.DataFrame(rows).set_index("strategy").sort_values("% tricks/s")
    echo(f"hands/s per strategy at {players} players on one thread (median of {REPEATS} runs of {hands:,} "
         f"hands); % of all-lowest = {base:,.0f} hands/s, {base * base_tricks:,.0f} tricks/s")
    echo(table.to_string())
    return table
