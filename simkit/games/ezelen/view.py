"""The public view of one player: what that player at the table knows besides its own hand, as
one flat int64 array. Strategies read it by these offsets.

It holds only what the player saw: the cards it received from its right neighbour and passed
to its left neighbour (Z3), the turn, the letters (said aloud, Z7). Never another player's hand
and never a signal the player has not noticed.
"""

from simkit.games.ezelen.rules import N_VALUES

# scalar slots
PLAYERS = 0
SEAT = 1
TURN = 2           # turns completed in this round (0 at the deal)
LAST_RECEIVED = 3  # the value received in the last turn, -1 at the deal
ROUND = 4          # the round's number in its match (from 0)
# per-value and per-seat blocks
RECEIVED = 16      # 13 slots: cards of each value received from the right neighbour this round
PASSED = 32        # 13 slots: cards of each value passed to the left neighbour this round
LETTERS = 48       # 13 slots: every seat's letters before this round (Z7)
SIZE = 64

assert RECEIVED + N_VALUES <= PASSED and PASSED + N_VALUES <= LETTERS and LETTERS + 13 <= SIZE
