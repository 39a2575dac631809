"""What a Pig player sees when it decides (a flat int64 array, read by these offsets): everything
lies open on the table."""

from .rules import MAX_PLAYERS

PLAYERS = 0
SEAT = 1        # the deciding seat
GOAL = 2        # points that win (P3)
TOTAL = 3       # this turn's total so far, not yet banked
ROLLS = 4       # rolls so far this turn
TURN = 5        # turns before this one
SCORES = 8      # MAX_PLAYERS slots: each seat's banked points
SIZE = SCORES + MAX_PLAYERS
