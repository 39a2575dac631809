"""`simkit bench` for Who's the Ass?: hands/s of the fast engine on 1 and all threads and of the
reference engine (simkit.games.speed), and of every strategy on one thread."""

import statistics
from collections.abc import Callable

import numba as nb
import pandas as pd

from simkit.games.speed import REPEATS, SEED, engine_table, once, rate
from simkit.games.whos_the_ass import batch, reference
from simkit.games.whos_the_ass.alone import ALONE_FROM
from simkit.games.whos_the_ass.driver import play_hands
from simkit.games.whos_the_ass.rules import DEFAULT_RULES
from simkit.games.whos_the_ass.strategy import seats_for


def _play(seats: list, hands: int):
    return batch.play(seats, hands, SEED)


def run_bench(players: list[int], hands: int, reference_hands: int, echo: Callable[[str], None] = print,
              strategy: str = "lowest", load_seconds: float = 0.0) -> pd.DataFrame:
    """Measure and print the table."""
    long = hands >= ALONE_FROM  # as a run of `hands` plays: its warm-up compiles what the runs use

    def play(seats: list, count: int):
        return batch.play(seats, count, SEED, alone=long)

    return engine_table(
        "Who's the Ass?", "hands", players, hands, reference_hands, seats_for=seats_for, play=play,
        reference=lambda seats, i: reference.trace_hand(SEED, i, seats, DEFAULT_RULES),
        compiled=lambda: bool(sum(play_hands.stats.cache_misses.values())), strategy=strategy, echo=echo,
        load_seconds=load_seconds)


def strategy_bench(hands: int, echo: Callable[[str], None] = print, players: int = 4) -> pd.DataFrame:
    """Hands/s on one thread for each registered strategy at its defaults: with every seat playing
    it, and in one seat against `lowest` in the others. Strategies that make hands longer cost
    more per hand, so tricks/s is shown too: the cost of the decisions themselves.

    A machine's speed drifts while a table is measured, so each strategy's runs alternate with
    runs of all-`lowest`, and each % is the median over REPEATS rounds of the ratio to the
    all-`lowest` run just before it."""
    from simkit.games.whos_the_ass.rules import GAME
    from simkit.strategies import registry

    nb.set_num_threads(1)
    specs = [info.name + ("()" if info.composer else "") for info in registry.available(GAME)
             if not info.search]  # a search is thousands of times slower a decision: `search_bench`
    lowest = seats_for(["lowest"], players)
    runs: dict[str, list[tuple[float, float, float]]] = {spec: [] for spec in specs}
    bases, tricks = [], {}
    for _ in range(REPEATS):
        for spec in specs:
            base, res = once(_play, lowest, hands)
            tricks["lowest"] = float(res.tricks.mean())
            alone, res = once(_play, seats_for([spec], players), hands)
            tricks[spec] = float(res.tricks.mean())
            one, _ = once(_play, seats_for([spec] + ["lowest"] * (players - 1), players), hands)
            runs[spec].append((alone, alone / base, one / base))
            bases.append(base)
    nb.set_num_threads(nb.config.NUMBA_NUM_THREADS)
    rows = []
    for spec in specs:
        alone, share, one = (statistics.median(r[k] for r in runs[spec]) for k in range(3))
        rows.append({"strategy": spec.removesuffix("()"), "all seats": round(alone),
                     "tricks/hand": round(tricks[spec], 2), "% hands/s": round(100 * share),
                     "% tricks/s": round(100 * share * tricks[spec] / tricks["lowest"]),
                     "% 1 seat + lowest": round(100 * one)})
    table = pd.DataFrame(rows).set_index("strategy").sort_values("% tricks/s")
    base = statistics.median(bases)
    echo(f"hands/s per strategy at {players} players on one thread ({hands:,} hands a run, through the lineup; "
         f"each % the median "
         f"over {REPEATS} rounds of the ratio to an all-lowest run just before); all-lowest: {base:,.0f} hands/s, "
         f"{base * tricks['lowest']:,.0f} tricks/s")
    echo(table.to_string())
    search_bench(max(50, hands // 1000), echo, players)
    return table


SEARCH = "pimc(samples=32)"  # the search bot's benchmark: one seat among three of the best heuristic
SEARCH_FIELD = "highest"


def search_bench(hands: int, echo: Callable[[str], None] = print, players: int = 4) -> float:
    """Hands/s on one thread of one `pimc(samples=32)` seat among `highest` players (the search
    bot's cost: each decision plays every legal action out 32 times)."""
    seats = seats_for([SEARCH] + [SEARCH_FIELD] * (players - 1), players)
    speed, _ = rate(_play, seats, hands, 1)
    nb.set_num_threads(nb.config.NUMBA_NUM_THREADS)
    echo(f"search: {SEARCH} in one seat among {players - 1} {SEARCH_FIELD} at {players} players, one thread: "
         f"{speed:,.0f} hands/s (median of {REPEATS} runs of {hands:,} hands)")
    return speed
