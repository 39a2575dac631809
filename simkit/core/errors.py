"""The one error type users see: its message is printed as a single line by the CLI."""


class SimkitError(ValueError):
    """Bad input or an illegal move; the message names the problem in one line."""


class IllegalMove(SimkitError):
    """A strategy returned an action the rules do not allow."""


def check_count(value: int, what: str, least: int = 1) -> int:
    """A count (hands, rounds, matches, workers…): a whole number of at least `least`, or one clear
    error naming `what` (an option, a key, an argument). Every count given to simkit is checked here."""
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < least:
        need = "positive" if least == 1 else f"at least {least}"
        raise SimkitError(f"{what} must be {need} (a whole number), got {value!r}")
    return int(value)
