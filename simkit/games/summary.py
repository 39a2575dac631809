"""What `simulate` shares between games: playing a batch with the engine compiled beforehand
(outside the timing), and numbers written with their 95% intervals."""

import time
from collections.abc import Callable

import numpy as np

from simkit.games import Summary  # noqa: F401  (what a game's simulate returns)
from simkit.stats import notation


def timed(warm: Callable[[], object], play: Callable[[], object]) -> tuple[object, float]:
    """Compile or load the engine (`warm`) outside the timing, then `play()`; (its result, seconds)."""
    warm()
    start = time.perf_counter()
    result = play()
    return result, time.perf_counter() - start


def share(k: int, n: int) -> str:
    """k of n independent trials as a percentage ± its 95% interval (Wilson's; simkit.stats.notation)."""
    from simkit.stats.intervals import wilson

    return notation.share(*wilson(int(k), n))


def mean(x: np.ndarray) -> str:
    """The mean ± the half-width of its 95% interval."""
    from simkit.stats.intervals import mean_ci

    return notation.mean(*mean_ci(x))


def rate(count: int, unit: str, seconds: float) -> str:
    return f"{count / seconds:,.0f} {unit}/s"


def format_value(value) -> str:
    """An option's value: one number, or one per seat separated by commas (a model value, M8)."""
    return ",".join(f"{v:g}" for v in value) if isinstance(value, list) else f"{value:g}"
