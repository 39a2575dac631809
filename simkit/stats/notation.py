"""How every estimate is written, in reports and in the terminal alike: the value, then ± the
half-width of its 95% interval (for an interval that is not symmetric, a share's, its longer
side, so the ± covers it); shares and their differences in percent."""

from simkit.stats.intervals import half_width


def mean(m: float, half: float, digits: int = 3) -> str:
    return f"{m:.{digits}f} ± {half:.{digits}f}"


def difference(d: float, half: float, digits: int = 3) -> str:
    return f"{d:+.{digits}f} ± {half:.{digits}f}"


def percent(p: float, half: float, sign: bool = False) -> str:
    """A share (or, with `sign`, a difference of shares in percentage points) in percent."""
    return f"{100 * p:{'+' if sign else ''}.2f}{'' if sign else '%'} ± {100 * half:.2f}"


def share(p: float, low: float, high: float) -> str:
    """A share with its interval [low, high]."""
    return percent(p, half_width(p, low, high))


def value(m: float, half: float, is_share: bool, sign: bool = False) -> str:
    """The main measure: a share in percent, points as they are."""
    if is_share:
        return percent(m, half, sign)
    return difference(m, half) if sign else mean(m, half)
