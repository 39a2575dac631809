"""H2–H5, H7: the model of the human side of Eigenwijs, one row of numbers per seat
(simkit.games.model: the defaults, then the profile a strategy brings, then the caller's overrides)."""

from simkit.games.eigenwijs.rules import MAX_PLAYERS
from simkit.games.model import Model

# column of each parameter in the engine's per-seat matrix
SLIP = 0          # H2: chance of saying something else than meant, one card open
CROWD = 1         # H2: more slips per further open card
GROUP = 2         # H2: slips times this when the right word is Wij or Jullie
CHICK_SLIP = 3    # H2: slips times this while a chick is open
PRECIES_SLIP = 4  # H2: slips times this when the right response is Precies
CALL_MEDIAN = 5   # H3: median seconds to the call, one card open (log-normal)
CALL_CROWD = 6    # H3: more call time per further open card
CHICK_TIME = 7    # H3: call time times this while a chick is open
CALL_SIGMA = 8    # H3: sigma of the log of the call time
SLAP_MEDIAN = 9   # H4: median seconds from the flip to a slap (log-normal)
SLAP_SIGMA = 10   # H4: sigma of the log of the slap time
FALSE_SLAP = 11   # H5: chance per turn without a tie of slapping anyway (the other seats)
COLUMNS = 12

# name -> (column, default, low, high, what it means)
PARAMETERS = {
    "slip": (SLIP, 0.03, 0.0, 1.0, "chance of saying another response than meant, one card open (H2)"),
    "crowd": (CROWD, 0.15, 0.0, 10.0, "slips grow by this fraction per further open card (H2)"),
    "group": (GROUP, 1.5, 0.0, 100.0, "slips times this when the right word is Wij or Jullie (H2)"),
    "chick_slip": (CHICK_SLIP, 2.0, 0.0, 100.0, "slips times this while a chick is open (H2)"),
    "precies_slip": (PRECIES_SLIP, 2.0, 0.0, 100.0, "slips times this when the right response is Precies (H2)"),
    "call_median": (CALL_MEDIAN, 1.0, 1e-6, 60.0, "median seconds from the flip to the call, one card open (H3)"),
    "call_crowd": (CALL_CROWD, 0.1, 0.0, 10.0, "call time grows by this fraction per further open card (H3)"),
    "chick_time": (CHICK_TIME, 1.3, 0.0, 100.0, "call time times this while a chick is open (H3)"),
    "call_sigma": (CALL_SIGMA, 0.4, 0.0, 5.0, "log-normal sigma of the call time (H3)"),
    "slap_median": (SLAP_MEDIAN, 0.45, 1e-6, 60.0, "median seconds from the flip to a slap (H4)"),
    "slap_sigma": (SLAP_SIGMA, 0.3, 0.0, 5.0, "log-normal sigma of the slap time (H4)"),
    "false_slap": (FALSE_SLAP, 0.01, 0.0, 1.0, "chance per turn without a tie of slapping anyway (H5)"),
}
PER_SEAT = ("slip", "call_median")  # always written per seat in traces

MODEL = Model(PARAMETERS, COLUMNS, MAX_PLAYERS, PER_SEAT)
DEFAULT_MODEL = MODEL.defaults
check_values = MODEL.check_values
model_matrix = MODEL.matrix
model_record = MODEL.record
