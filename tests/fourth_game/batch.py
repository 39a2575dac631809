"""Many Pig games at once through the compiled driver: the outcome rows for `simulate` and an
experiment's rows, the tally for its statistics."""

import numpy as np

from simkit.core.blocks import blocks_for
from simkit.core.errors import IllegalMove, check_count
from simkit.core.rng import check_seed
from simkit.stats.tally import Tally
from simkit.strategies.decisions import engine

from .engine import ERR_WIDTH, NO_ERROR, OUTCOME_SIZE, play_games
from .rules import check_rules, illegal_text
from .strategy import Seat, rotation_arrays


def play_rotations(seatings: list[list[Seat]], games: int, seed: int, rules: dict | None = None, first: int = 0,
                   tally: tuple | None = None, keep: bool = True) -> np.ndarray:
    """Games first..first+games-1, each in every seating before the next; the outcome rows
    [seating, game, OUTCOME_SIZE] (none without `keep`), each game added to `tally` if given."""
    rules = check_rules(rules or {})
    check_count(games, "games")
    fns, order, params = rotation_arrays(seatings)
    out = np.zeros((len(seatings), games if keep else 0, OUTCOME_SIZE), np.int64)
    errs = np.full((blocks_for(games), ERR_WIDTH), NO_ERROR, np.int64)
    engine(seatings[0], play_games, fns, order, params, len(seatings[0]), rules["goal"], rules["max_turns"],
           np.uint64(check_seed(seed)), first, games, out, errs, Tally.off() if tally is None else tally)
    bad = errs[np.lexsort((errs[:, 0], errs[:, 1]))[0]]  # the first in the order played: (game, rotation)
    if bad[1] != NO_ERROR:
        r, game, seat, said = (int(x) for x in bad)
        raise IllegalMove(illegal_text(seatings[r][seat].label, seat, game, said))
    return out


def play(seats: list[Seat], games: int, seed: int, rules: dict | None = None, first: int = 0) -> np.ndarray:
    """`play_rotations` at one seating: the outcome rows [game, OUTCOME_SIZE]."""
    return play_rotations([seats], games, seed, rules, first)[0]
