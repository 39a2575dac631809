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


def nearest(name: object, known) -> str | None:
    """The known name closest to a mistyped one (difflib's ratio at least 0.6), or None."""
    import difflib

    if not isinstance(name, str):
        return None
    found = difflib.get_close_matches(name, [str(k) for k in known], n=1, cutoff=0.6)
    return found[0] if found else None


def unknown(what: str, name: object, known, where: str = "", hint: str = "") -> SimkitError:
    """The error for a name nothing has: `what` it should be, where, the nearest known name (or
    `hint`, which says more), and every known one."""
    known = [str(k) for k in known]
    near = nearest(name, known)
    said = hint or (f"; did you mean {near!r}?" if near else "")
    return SimkitError(f"unknown {what} {name!r}{where}{said} (known: {', '.join(known) or 'none'})")
