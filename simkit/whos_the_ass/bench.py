"""`simkit bench` for Who's the Ass?: hands/s of the fast engine on 1 and all threads and of the
reference engine (simkit.speed), and of every strategy on one thread."""

from collections.abc import Callable

import numba as nb
import pandas as pd

from simkit.speed import REPEATS, SEED, engine_table, rate
from simkit.whos_the_ass import batch, reference
from simkit.whos_the_ass.driver import play_hands
from simkit.whos_the_ass.rules import DEFAULT_RULES
from simkit.whos_the_ass.strategy import seats_for


def _play(seats: list, hands: int):
    return batch.play(seats, hands, SEED)


def run_bench(players: list[int], hands: int, reference_hands: int, echo: Callable[[str], None] = print,
              strategy: str = "lowest", load_seconds: float = 0.0) -> pd.DataFrame:
    """Measure and print the table."""
    return engine_table(
        "Who's the Ass?", "hands", players, hands, reference_hands, seats_for=seats_for, play=_play,
        reference=lambda seats, i: reference.trace_hand(SEED, i, seats, DEFAULT_RULES),
        compiled=lambda: bool(sum(play_hands.stats.cache_misses.values())), strategy=strategy, echo=echo,
        load_seconds=load_seconds)


def strategy_bench(hands: int, echo: Callable[[str], None] = print, players: int = 4) -> pd.DataFrame:
    """Hands/s on one thread for each registered strategy at its defaults: with every seat playing
    it, and in one seat against `lowest` in the others. Strategies that make hands longer cost
    more per hand, so tricks/s is shown too: the cost of the decisions themselves."""
    from simkit import registry
    from simkit.whos_the_ass.rules import GAME

    def measure(specs):
        seats = seats_for(specs, players)
        rate_one, res = rate(_play, seats, hands, 1)
        return rate_one, float(res.tricks.mean())

    base, base_tricks = measure(["lowest"])
    rows = []
    for info in registry.available(GAME):
        if info.search:  # thousands of times slower a decision: `search_bench`
            continue
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
