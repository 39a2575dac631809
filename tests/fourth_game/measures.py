"""What a run's statistics count of Pig (simkit.games.Measures), in the game's own words, and the
per-game rows of `simkit run --rows`. The engine adds each game to the tally (engine.add_game) in
the order named here.

Per seat: rows, points short of the goal at the end (the winner's 0: the main measure, lower is
better, its histogram drawn), won, busts, rolls. Per table: rows, won (somebody reached the goal),
turns (their histogram drawn), rolls."""

import numpy as np
import pyarrow as pa

from simkit.games import Measures, Words

SEAT = ("rows", "short", "won", "busts", "rolls")
TABLE = ("rows", "won", "turns", "rolls")
SHORT = Words("Mean points short of the goal per strategy", "points short of the goal per game and seat",
              "fewer points short", deal="game", dealt="dice", zero="the winner",
              means="How often each strategy's seat busted (rolled a 1) and rolled the die per game",
              length="Turns per game (a turn is one player's rolls), the share of games at each length, per table")


def measures(mode: str) -> Measures:
    return Measures(SEAT, TABLE, "short", seat_histogram="short", table_histogram="turns",
                    shares=(("won", "rows"),), means=(("busts", "rows"), ("rolls", "rows")),
                    table_shares=(("won", "rows"),), table_means=(("turns", "rows"), ("rolls", "rows")), words=SHORT)


def measured(played: dict[str, np.ndarray], n: int, first: int) -> pa.Table:
    """A row per game and seat from one seating's arrays (game.py's `play`)."""
    return pa.table({"short": played["short"].ravel(), "won": (played["winner"][:, None] == np.arange(n)).ravel(),
                     "busts": played["busts"].ravel(), "rolls": played["rolls"].ravel(),
                     "turns": np.repeat(played["turns"], n)})
