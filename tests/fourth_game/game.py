"""Pig as simkit sees it (simkit.games.Game): the description and the hooks through which
`simulate`, an experiment and its report play it. Registered from the tests only:
`simkit.games.register("pig", "fourth_game.game:GAME")`."""

import numpy as np

from simkit.games import Game

from .measures import measured, measures
from .rules import DEFAULT_RULES, MAX_PLAYERS, MIN_PLAYERS, NAME, check_players, check_rules


def _seats_for(specs: list, players: int) -> list:
    from .strategy import seats_for

    return seats_for(specs, players)


def _play(seatings: list[list], count: int, first: int, spec, cells: list, tally: tuple | None = None,
          rows: bool = False) -> dict[str, np.ndarray]:
    """Games first..first+count-1 in each seating, added to `tally` if given; the engine's arrays,
    a seating each along their first axis (none where only the tally is wanted)."""
    from . import batch
    from .engine import BUSTS, ROLLS, SCORE, TURNS, WINNER

    keep = tally is None or rows
    out = batch.play_rotations(seatings, count, spec.seed, spec.rules, first, tally, keep)
    if not keep:
        return {}
    n, goal = len(seatings[0]), spec.rules["goal"]
    return {"winner": out[:, :, WINNER], "turns": out[:, :, TURNS],
            "short": goal - np.minimum(out[:, :, SCORE:SCORE + n], goal),
            "busts": out[:, :, BUSTS:BUSTS + n], "rolls": out[:, :, ROLLS:ROLLS + n]}


def _simulate(seats: list, count: int, seed: int, rules: dict, model: dict, matches: bool, chunks: int, progress):
    from .summary import games

    return games(seats, count, seed, rules, chunks, progress)


GAME = Game(
    name=NAME, title="Pig", deal="game", players=(MIN_PLAYERS, MAX_PLAYERS), check_players=check_players,
    rules=DEFAULT_RULES, check_rules=check_rules, match_modes=("single",), counted_modes=(),
    default_strategy="hold_at", default_baseline="hold_at", strategies=f"{__package__}.strategies",
    seats_for=_seats_for, measures=measures, play=_play, measured=measured, simulate=_simulate,
)
