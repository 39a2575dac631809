"""The parameter vector of the heuristic strategies: which choice each decision point makes and
the named parameters, at fixed places, so one compiled function serves every combination."""

# decision points: the value is the choice's code
LEAD = 0       # normal lead style: LOWEST, GREEDY, HIGHEST
FOLLOW = 1     # raise style: LOWEST (cheapest raise), GREEDY, HIGHEST
ASS_LEAD = 2   # leading the ass when allowed: DUMP, DELAY
ASS = 3        # playing in an ass trick: DODGE, GRAB
JOKERS = 4     # joker use: AS_NEEDED, SPEND, HOARD
RESERVE = 5    # low cards kept for ass tricks: NONE, KEEP_LOW
# named parameters
RELEASE_AT = 6    # hoard
DELAY_UNTIL = 7   # delay
MAX_COST = 8      # grab
KEEP = 9          # keep_low

LOWEST, GREEDY, HIGHEST = 0, 1, 2
DUMP, DELAY = 0, 1
DODGE, GRAB = 0, 1
AS_NEEDED, SPEND, HOARD = 0, 1, 2
NONE, KEEP_LOW = 0, 1

SIZE = 16
