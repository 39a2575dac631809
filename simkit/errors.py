"""The one error type users see: its message is printed as a single line by the CLI."""


class SimkitError(ValueError):
    """Bad input or an illegal move; the message names the problem in one line."""


class IllegalMove(SimkitError):
    """A strategy returned an action the rules do not allow."""
