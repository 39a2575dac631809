"""M2–M4, M8: the model of the human side, one row of numbers per seat (simkit.games.model: the
defaults, then a registered attention profile such as `watcher`, then the caller's overrides)."""

from simkit.games.ezelen.rules import MAX_PLAYERS
from simkit.games.model import Model

# column of each parameter in the engine's per-seat matrix
ATTENTION = 0        # M2: scales the chance of noticing
BASE_NOTICE = 1      # M2: chance per beat of noticing with nobody copied yet
CASCADE = 2          # M2: added chance per player already copied
REACTION_MEDIAN = 3  # M3: median seconds from noticing to copying (log-normal)
REACTION_SIGMA = 4   # M3: sigma of the log of the reaction time
TEMPO_FAULT = 5      # M4: chance per beat of a tempo fault
COLUMNS = 8

# name -> (column, default, low, high, what it means)
PARAMETERS = {
    "base_notice": (BASE_NOTICE, 0.35, 0.0, 1.0, "chance per beat of noticing a signal with nobody copied yet (M2)"),
    "cascade": (CASCADE, 0.15, 0.0, 1.0, "added chance of noticing per player already copied (M2)"),
    "reaction_median": (REACTION_MEDIAN, 0.6, 1e-6, 60.0, "median seconds from noticing to copying (M3)"),
    "reaction_sigma": (REACTION_SIGMA, 0.35, 0.0, 5.0, "log-normal sigma of the reaction time (M3)"),
    "attention": (ATTENTION, 1.0, 0.0, 100.0, "multiplies the chance of noticing (M2)"),
    "tempo_fault": (TEMPO_FAULT, 0.0005, 0.0, 1.0, "chance per beat of a tempo fault (M4)"),
}
DEFAULT_MODEL = {name: p[1] for name, p in PARAMETERS.items()}
PER_SEAT = ("attention", "tempo_fault")  # always written per seat in traces, as in the spec's example


MODEL = Model(PARAMETERS, COLUMNS, MAX_PLAYERS, PER_SEAT)
check_values = MODEL.check_values
model_matrix = MODEL.matrix
model_record = MODEL.record
