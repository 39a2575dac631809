"""The public view: everything a player at the table sees, as one flat int64 array.

Strategies read it by these offsets. It holds only public facts (rule W3: everybody sees who
holds the ass; played cards lie face up), never another player's hand or the undealt cards. Its
tail is the hand's history: every action taken so far, in order, so a strategy can reason about
what the others did (the search infers their play from it).
"""

from simkit.games.whos_the_ass import rules as _rules

# scalar slots
PLAYERS = 0
SEAT = 1          # the deciding player
PHASE = 2         # LEAD, FOLLOW (normal trick) or ASS_TRICK (following an ass lead)
LEADER = 3
COUNT = 4         # W9: cards per set in this normal trick (0 while leading)
TOP = 5           # value to beat (normal) / highest value so far (ass trick); -1 while leading
TOP_SEAT = 6      # who played TOP (the current winner, or the current taker)
ASS_HOLDER = 7    # seat holding the ass, -1 while it lies on the table (W3)
MAY_LEAD_ASS = 8  # 1 if the deciding leader may lead the ass now (W6, W15)
ASS_JOKER = 9     # rule option W13 as code: 0 "1or14", 1 "1", 2 "any"
TRICK = 10        # tricks completed in this hand
HAND_NO = 11      # hand number within the match (0 for single hands)
HISTORY_LEN = 12  # actions taken so far in this hand: the entries of HISTORY in use
FIRST_LEADER = 13  # who led the hand's first trick (W6): where a replay of HISTORY starts
# per-seat and per-card blocks
HAND_SIZES = 16   # 12 slots: cards in each seat's hand
DISCARDED = 32    # 15 slots: cards out of play so far, by card code
TABLE = 48        # 15 slots: cards on the table in this trick, by card code
PLAYED = 64       # 12 slots: value each seat played in this trick, NOT_ACTED or PASSED
SCORES = 80       # 12 slots: match totals before this hand (W18)
# the hand's history: [+k] the k-th action of the hand, as `step` took it (PASS -1); who took it
# follows from the rules (each trick: its leader, then clockwise), so only actions are kept
HISTORY = 96
HISTORY_CAP = _rules.MAX_TRICKS * _rules.MAX_PLAYERS  # every action of the longest hand: never full
SIZE = HISTORY + HISTORY_CAP

LEAD = 0
FOLLOW = 1
ASS_TRICK = 2

NOT_ACTED = -2
PASSED = -1
