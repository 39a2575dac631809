"""What a run's statistics count of a game (experiments/statistics.py), added to a block's tally
(simkit.stats.tally) from the engine's outcome as the driver plays it: each game in every rotation
before the next.

Per seat: rows 1, games_lost (did not win, E10: a capped game is lost by all), took the cards (any
reason), and how: a wrong word, a hesitation, a false slap (E9), the last slap at a tie (E8);
the cards left in its stack at the end. Per table: rows 1, won (somebody won), capped, won by
the seat that flipped first (E4), turns, ties, cards taken; the table histogram counts the turns.
A game is its deal's whole replay, one row per seat (known: the runner fills the rows in).
"""

import numba as nb
import numpy as np

from simkit.games.eigenwijs.engine import (
    FALSE_SLAPS,
    HESITATIONS,
    LAST_SLAPS,
    LEFT,
    START,
    TAKEN,
    TAKES,
    TIES,
    TURNS,
    WINNER,
    WRONGS,
)
from simkit.stats.tally import replay_end, seat_adds, table_adds_at, table_count

SEAT = ("rows", "games_lost", "takes", "wrong", "hesitations", "false_slaps", "last_slaps", "cards_left")
TABLE = ("rows", "won", "capped", "starter_won", "turns", "ties", "taken")
TABLE_HISTOGRAM = "turns"


@nb.njit(inline="always", cache=True)
def add_game(tally, kept, b, r, n, outcome):
    """A game in rotation r, as it is played (`outcome`: the engine's row)."""
    winner = outcome[WINNER]
    for s in range(n):
        seat_adds(tally, kept, r, s, 1, (np.int64(s != winner), outcome[TAKES + s], outcome[WRONGS + s],
                                         outcome[HESITATIONS + s], outcome[FALSE_SLAPS + s], outcome[LAST_SLAPS + s],
                                         outcome[LEFT + s]))
    table_adds_at(tally, kept, 0, r, 1, (np.int64(winner >= 0), np.int64(winner < 0),
                                         np.int64(winner == outcome[START]), outcome[TURNS], outcome[TIES],
                                         outcome[TAKEN]))
    table_count(tally, b, r, outcome[TURNS])
    replay_end(tally, kept, r)
