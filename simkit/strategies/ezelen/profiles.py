"""Attention profiles (M8): a passing policy bundled with its seat's model values."""

from simkit.games.ezelen.strategy import profile
from simkit.strategies.ezelen import greedy  # noqa: F401  (registers the policy the profiles reuse)

profile("watcher", "Greedy passing, with sharp eyes: attention 1.5, reaction median 0.5 s.", "greedy",
        {"attention": 1.5, "reaction_median": 0.5})
profile("dreamer", "Greedy passing, with the mind elsewhere: attention 0.6.", "greedy", {"attention": 0.6})
