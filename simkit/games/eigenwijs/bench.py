"""`simkit bench` for Eigenwijs: games/s of the compiled engine on 1 and all threads, what a game
costs per player, and the reference engine's games/s (simkit.games.speed)."""

from collections.abc import Callable

import pandas as pd

from simkit.games.eigenwijs import batch, reference
from simkit.games.eigenwijs.driver import play_games
from simkit.games.eigenwijs.engine import TURNS
from simkit.games.eigenwijs.rules import DEFAULT_RULES
from simkit.games.eigenwijs.strategy import seats_for
from simkit.games.speed import SEED, engine_table


def run_bench(players: list[int], games: int, reference_games: int, echo: Callable[[str], None] = print,
              strategy: str = "right", load_seconds: float = 0.0) -> pd.DataFrame:
    """Measure and print the table, with the mean turns per game and the cost per player."""
    return engine_table(
        "Eigenwijs", "games", players, games, reference_games, seats_for=seats_for,
        play=lambda seats, count: batch.play(seats, count, SEED),
        reference=lambda seats, g: reference.trace_game(SEED, g, seats, DEFAULT_RULES),
        compiled=lambda: bool(sum(play_games.stats.cache_misses.values())), strategy=strategy, echo=echo,
        load_seconds=load_seconds, extra=lambda res: {"turns/game": round(float(res[:, TURNS].mean()), 1)},
        per_player=True)
