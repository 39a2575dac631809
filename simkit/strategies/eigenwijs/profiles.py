"""Profiles (H7): the `right` reading with its seat's model values, players as they come."""

from simkit.games.eigenwijs.strategy import profile
from simkit.strategies.eigenwijs import readers  # noqa: F401  (registers the reading the profiles reuse)

profile("careful", "Reads right, takes time: slips 0.015, call median 1.4 s, false slaps 0.005.", "right",
        {"slip": 0.015, "call_median": 1.4, "false_slap": 0.005})
profile("quick", "Reads right, fast and loose: slips 0.05, call median 0.7 s, slap median 0.35 s, "
        "false slaps 0.02.", "right", {"slip": 0.05, "call_median": 0.7, "slap_median": 0.35, "false_slap": 0.02})
profile("beginner", "Reads right when calm: slips 0.08, crowds 0.3, call median 1.6 s, slap median 0.6 s, "
        "false slaps 0.02.", "right",
        {"slip": 0.08, "crowd": 0.3, "call_median": 1.6, "slap_median": 0.6, "false_slap": 0.02})
