"""Who's the Ass? strategies; importing this package registers them."""

from simkit.strategies.whos_the_ass import baseline, heuristics, random_play, search  # noqa: F401
