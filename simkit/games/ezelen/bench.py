"""`simkit bench` for Ezelen: rounds/s of the compiled engine on 1 and all threads, what a round
costs per player, and the reference engine's rounds/s (simkit.games.speed)."""

from collections.abc import Callable

import pandas as pd

from simkit.games.ezelen import batch, reference
from simkit.games.ezelen.driver import play_rounds
from simkit.games.ezelen.rules import DEFAULT_RULES
from simkit.games.ezelen.strategy import seats_for
from simkit.games.speed import SEED, engine_table


def run_bench(players: list[int], rounds: int, reference_rounds: int, echo: Callable[[str], None] = print,
              strategy: str = "greedy", load_seconds: float = 0.0) -> pd.DataFrame:
    """Measure and print the table, with the mean turns per round and the cost per player."""
    return engine_table(
        "Ezelen", "rounds", players, rounds, reference_rounds, seats_for=seats_for,
        play=lambda seats, count: batch.play(seats, count, SEED),
        reference=lambda seats, m: reference.trace_round(SEED, m, 0, seats, DEFAULT_RULES),
        compiled=lambda: bool(sum(play_rounds.stats.cache_misses.values())), strategy=strategy, echo=echo,
        load_seconds=load_seconds, extra=lambda res: {"turns/round": round(float(res.turns.mean()), 2)},
        per_player=True)
