"""How the experiment report's answer writes a level, an amount and a margin, in the game's words
(games.Words): one wording for every rule of docs/reports.md."""

from simkit.games import Words
from simkit.stats import notation

PAIRED = "(95% intervals, paired on the same deals)"


def listed(items: list[str]) -> str:
    """Items for a reader: "a", "a and b", "a, b and c"."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def level(said: Words, row) -> str:
    """A strategy's mean at a table: "scores 16.81 ± 0.04 penalty points per hand and seat"."""
    if said.share_of:
        return f"loses {notation.percent(row['mean'], row['ci95'])} of its {said.share_of}"
    return f"scores {notation.mean(row['mean'], row['ci95'], 2)} {said.unit}"


def amount(said: Words, x: float, half: float) -> str:
    """The size of a difference, without its sign: "14.56 ± 0.06", "3.10 ± 0.90 percentage points"."""
    if said.share_of:
        return f"{notation.percent(abs(x), half, sign=True)[1:]} percentage points"
    return notation.mean(abs(x), half, 2)


def margin(said: Words, difference: float, half: float, rival: str) -> str:
    """A paired difference in words: "14.56 ± 0.06 fewer than lowest" (", not decisive" where its
    interval holds 0)."""
    fewer = "fewer" if difference < 0 else "more"
    sure = "" if abs(difference) > half else ", not decisive"
    return f"{amount(said, difference, half)} {fewer} than {rival}{sure}"
