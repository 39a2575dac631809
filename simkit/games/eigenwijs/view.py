"""The public view of the flipping player: the open cards and what was called, as one flat int64
array. Strategies read it by these offsets. Everything in it lies open on the table or was said
aloud; nobody's stack is ever shown (only how many cards it holds)."""

from simkit.games.eigenwijs import rules as _rules

# scalar slots
PLAYERS = 0
SEAT = 1       # the flipping player, who now responds
PILES = 2      # piles on the table (E5, E13)
PILE = 3       # the pile the card just went onto: its top is the player's own card
PREVIOUS = 4   # E14: what the player before called in this round, rules.NO_CALL if nothing
CHICKS = 5     # 1 with the chicks variant (E12)
PRECIES = 6    # 1 with the Precies variant (E14)
COLOURS = 7    # hen colours in the deck (E2)
TURN = 8       # turns before this one in the game
ROUND_TURN = 9  # turns before this one in the round (E11)
# per-seat and per-pile blocks
STACKS = 16    # 6 slots: cards in each seat's stack, after this flip
TOPS = 24      # 6 slots: the open card of each pile (rules.EMPTY for an empty pile)
SIZE = 32

assert STACKS + _rules.MAX_PLAYERS <= TOPS and TOPS + _rules.MAX_PILES <= SIZE
