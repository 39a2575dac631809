"""The strength table of `simkit strength`, for every game alike: each candidate strategy sits in
one seat against the game's baseline in all the others, its seat rotated over blocks of deals (a
quarter of them each at 4 players) so no seat is favoured, and the same deals are played by an
all-baseline table, so that each candidate is compared with the baseline in the same seat on the
same deals (paired).

A game rates its strategies through a `Rating` (its `Game.strength`, from a small module of its
own): the baseline, the words for its main measure, and `play`, which plays a lineup of seats on
deals first..first+count-1 and returns every seat's value of that measure per deal (Who's the
Ass?: penalty points; Ezelen: 1 if the seat lost the round, else 0). Lower is better.
"""

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

# (seats, count, first, seed, rules, chunks, progress) -> the measure per deal and seat, [count, players];
# the deals first..first+count-1 whatever the seats, identical for any `chunks`
Play = Callable[..., np.ndarray]


@dataclass(frozen=True)
class Rating:
    """How `simkit strength` rates a game's strategies; called as `strength_table` with itself."""

    game: str        # the game's name (its seats come from games.get(game).seats_for)
    baseline: str    # the strategy in every other seat, and the all-baseline table
    measure: str     # the table's column of the mean, for people: "mean penalty", "share of rounds lost"
    difference: str  # what 'vs baseline' is a difference in: "mean penalty per hand", "share of rounds lost"
    play: Play
    share: bool = False  # the measure is a share (shown in percent, differences in percentage points)
    others: tuple[str, ...] = ()  # a mixed field: the other seats' strategies, clockwise from the candidate's

    @property
    def versus(self) -> str:
        """The table's column of the paired difference: "vs lowest"."""
        return f"vs {self.baseline}"

    def __call__(self, candidates: list, players: int, hands: int, seed: int = 0, rules: dict | None = None,
                 progress: Callable[[int], None] | None = None) -> pd.DataFrame:
        return strength_table(self, candidates, players, hands, seed, rules, progress)


def strength_table(rating: Rating, candidates: list, players: int, hands: int, seed: int = 0,
                   rules: dict | None = None, progress: Callable[[int], None] | None = None) -> pd.DataFrame:
    """One row per candidate (a strategy spec or its text), and the baseline's: the mean of the
    measure per deal (column `rating.measure`) and the paired difference to the baseline in the
    same seat on the same deals (`rating.versus`), each with the half-width of its 95% interval
    (columns "±" and "± "), whether that interval excludes 0 ("decisive"), and n; sorted by the
    difference. A candidate whose label is the baseline's is the baseline's row. With a mixed field
    (`rating.others`), the seats after the candidate's, clockwise, play the field's strategies in turn
    (again from the first where there are more seats), and the comparison table seats the baseline
    (the field's first) in the candidate's seat among the same others."""
    from simkit.stats.intervals import mean_ci

    seats_for, base_label, base_values = baseline_values(rating, players, hands, seed, rules, progress)
    out = []
    for spec in candidates:
        label = seats_for([spec], players)[0].label
        if label == base_label or any(row["strategy"] == label for row in out):
            continue  # the baseline's own row, or a candidate given twice
        mine = seat_values(rating, spec, players, hands, seed, rules, progress)
        mean, half = mean_ci(mine)
        diff, diff_half = mean_ci(mine - base_values)
        out.append({"strategy": label, rating.measure: mean, "±": half, rating.versus: diff, "± ": diff_half,
                    "decisive": abs(diff) > diff_half, "n": hands})
    base_mean, base_half = mean_ci(base_values)
    out.append({"strategy": base_label, rating.measure: base_mean, "±": base_half, rating.versus: 0.0, "± ": 0.0,
                "decisive": False, "n": hands})
    return pd.DataFrame(out).set_index("strategy").sort_values(rating.versus)


def _blocks(players: int, hands: int) -> np.ndarray:
    """The deals of block k, block[k]..block[k+1]-1, seat the candidate in seat k."""
    from simkit.core.errors import SimkitError

    if hands < players:  # a block of deals per seat
        raise SimkitError(f"--hands must be at least the number of players ({players}), got {hands}")
    return np.linspace(0, hands, players + 1).astype(np.int64)


def baseline_values(rating: Rating, players: int, hands: int, seed: int = 0, rules: dict | None = None,
                    progress: Callable[[int], None] | None = None) -> tuple[Callable, str, np.ndarray]:
    """The comparison table's value per deal in the rated seat of that deal (its block), with the
    game's `seats_for` and the baseline's label."""
    from simkit import games

    seats_for = games.get(rating.game).seats_for
    block = _blocks(players, hands)
    base_label = seats_for([rating.baseline], players)[0].label
    if rating.others:  # the comparison table differs from block to block: the baseline among the field
        return seats_for, base_label, seat_values(rating, rating.baseline, players, hands, seed, rules, progress)
    base = rating.play(seats_for([rating.baseline], players), hands, 0, seed, rules, 20, progress)
    seat_of_deal = np.repeat(np.arange(players), np.diff(block))
    return seats_for, base_label, np.asarray(base)[np.arange(hands), seat_of_deal].astype(np.float64)


def seat_values(rating: Rating, spec, players: int, hands: int, seed: int = 0, rules: dict | None = None,
                progress: Callable[[int], None] | None = None) -> np.ndarray:
    """`spec`'s value per deal in the rated seat, seat k on the deals of block k, the field in the
    other seats."""
    from simkit import games

    seats_for = games.get(rating.game).seats_for
    block = _blocks(players, hands)
    mine = np.empty(hands, dtype=np.float64)
    for k in range(players):
        played = rating.play(seats_for(_lineup(rating, spec, k, players), players),
                             int(block[k + 1] - block[k]), int(block[k]), seed, rules, 5, progress)
        mine[block[k]:block[k + 1]] = np.asarray(played)[:, k]
    return mine


def _lineup(rating: Rating, spec, seat: int, players: int) -> list:
    """The candidate `spec` in `seat`; the others the baseline, or, with a mixed field, the field's
    strategies in turn clockwise from the candidate's seat."""
    lineup = [rating.baseline] * players
    for step in range(1, players) if rating.others else ():
        lineup[(seat + step) % players] = rating.others[(step - 1) % len(rating.others)]
    lineup[seat] = spec
    return lineup


def rating_of(game: str, field: str | None = None):
    """`simkit strength`'s rating of a game (its Game.strength), against `field` in every other
    seat and at the comparison table where one is given (checked, and named by its label). A field
    of several strategies ("lowest,greedy,highest") is a mixed table: the other seats play them in
    turn, clockwise from the candidate's, and the comparison table seats the first of them in the
    candidate's seat (`strength_table`)."""
    from dataclasses import replace

    from simkit import games
    from simkit.core.errors import SimkitError
    from simkit.strategies import registry
    from simkit.strategies.spec import split

    described = games.get(game)
    if described.strength is None:
        raise SimkitError(f"simkit strength rates strategies of games with a strength table; {described.title} "
                          "has none (compare them with `simkit run`)")
    if field is None:
        return described.strength
    found = [str(registry.canonical(game, s)) for s in split(field)]
    return replace(described.strength, baseline=found[0], others=tuple(found) if len(found) > 1 else ())


def chosen(game: str, strategies: str | None, baseline: str) -> list:
    """The strategies `simkit strength` rates: those named (each checked before any is played; the
    baseline and repeats left out), or every registered one but the baseline and the searches
    (rated only when named), at its defaults."""
    from simkit.strategies import registry
    from simkit.strategies.spec import split

    if strategies:
        found = [registry.canonical(game, s) for s in split(strategies)]
        return [c for i, c in enumerate(found) if str(c) != baseline and c not in found[:i]]
    return [i.name + ("()" if i.composer else "") for i in registry.available(game) if i.name != baseline
            and not i.search]


def shown(rating: Rating, table: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    """A strength table for people: each number with its 95% interval (shares in percent), a
    ceiling's label marked †; and the ceilings marked."""
    from simkit.stats import notation
    from simkit.strategies import registry

    out = pd.DataFrame({
        rating.measure: [notation.value(m, h, rating.share) for m, h in zip(table[rating.measure], table["±"])],
        rating.versus: [notation.value(x, h, rating.share, sign=True)
                        for x, h in zip(table[rating.versus], table["± "])],
        "decisive": table["decisive"].map({True: "yes", False: "no"}),
        "n": [f"{n:,}" for n in table["n"]],
    }, index=table.index)
    marked = registry.ceilings(rating.game, out.index)
    return out.rename(index=lambda label: f"{label} †" if label in marked else label), marked
