"""What each seat of a game of Eigenwijs "was dealt", for `--by` and a spec's `by`: whether it
flips first and its place in the order of flipping from the start seat (E4). The start seat is
drawn after the deal (H8) and is in the engine's outcome row, so it is read from the games
played, not dealt again."""

import numpy as np

from simkit.games.eigenwijs.rules import MAX_PLAYERS

# what `--by` groups games by (simkit.stats.by_deal): name -> (column of `dealt_of`, what it counts, largest value)
FEATURES = {
    "first": (0, "the seat flips first (1) or not (0) (E4)", 1),
    "turn": (1, "the seat's place in the order of flipping from the start: 0 first, 1 next (E4)", MAX_PLAYERS - 1),
}


def dealt_of(start: np.ndarray, n: int) -> np.ndarray:
    """[game, seat, feature] from each game's seat that flipped first (E4): the seat's features;
    play goes on to the next seat (seat + 1, then 0), so its place in the order is seat − start
    (mod n). The engine draws the start seat after the deal (H8), so it is read from the game,
    not dealt again."""
    seat = np.arange(n)
    return np.stack([seat == start[:, None], (seat - start[:, None]) % n], axis=-1).astype(np.int16)
