"""Candidates played on shared deals: each candidate sits with the field, and every deal is played
once per seat rotation (the candidate at seat r in rotation r), the same deals for every
candidate (common random numbers: their differences are paired on deals). What comes back is
the objective per candidate and deal, summed over its rotations: whole numbers, so that any
split of the deals into rounds, engine calls or workers adds up to the same totals."""

from dataclasses import dataclass, field, replace

import numpy as np

from simkit import games
from simkit.decisions import distinct_functions
from simkit.experiments.chunks import rotated
from simkit.experiments.spec import Cell, Spec
from simkit.strategy_spec import StrategySpec

MOST_SEATINGS = 128  # seatings an engine call plays (its arrays: seatings x deals x seats)
MOST_DEALS = 4096    # deals an engine call plays


@dataclass
class Table:
    """Where candidates play: the game, the experiment spec that carries its seed, rules, match
    and model values, the field (the other seats, in order from the candidate's left), and the
    model values of the candidate's seats (Ezelen: a profile, e.g. attention). Resolved seats are
    kept per candidate, so a race resolves each strategy once."""

    spec: Spec
    field: tuple[StrategySpec, ...]
    profile: tuple[tuple[str, float], ...] = ()
    _seats: dict = field(default_factory=dict, repr=False)

    @property
    def game(self) -> games.Game:
        return games.get(self.spec.game)

    @property
    def players(self) -> int:
        return len(self.field) + 1

    def cell(self, candidate: StrategySpec) -> Cell:
        return Cell(self.players, (candidate,) + self.field)

    def seatings(self, candidate: StrategySpec) -> list[list]:
        """The candidate's rotations, resolved (rotation r puts it at seat r, with the profile's
        model values over those its strategy brings: as a profile like Ezelen's `watcher` does)."""
        key = str(candidate)
        if key not in self._seats:
            seats = list(self.game.seats_for([candidate, *self.field], self.players))  # resolved once, then rotated
            if self.profile:
                seats[0] = replace(seats[0], model=tuple((dict(seats[0].model) | dict(self.profile)).items()))
            self._seats[key] = [rotated(tuple(seats), r) for r in range(self.players)]
        return self._seats[key]


def deal_values(table: Table, candidates: list[StrategySpec], lo: int, hi: int, seed: int | None = None) -> np.ndarray:
    """values[c, i]: candidate c's objective in deal lo + i, summed over its rotations (int64).
    `seed` (default: the spec's) seeds the deals."""
    game, n = table.game, table.players
    objective = game.objective(table.spec.match["mode"])
    spec = table.spec if seed is None or seed == table.spec.seed else _reseeded(table.spec, seed)
    out = np.zeros((len(candidates), hi - lo), np.int64)
    for batch in _batches(table, candidates):
        seatings = [s for c in batch for s in table.seatings(candidates[c])]
        cells = [table.cell(candidates[c]) for c in batch for _ in range(n)]
        for start in range(lo, hi, MOST_DEALS):
            stop = min(hi, start + MOST_DEALS)
            played = game.play(seatings, stop - start, start, spec, cells)
            for j, c in enumerate(batch):
                row = out[c, start - lo:stop - lo]
                for r in range(n):
                    row += np.asarray(objective.value(game.seating(played, j * n + r), r), np.int64)
    return out


def _reseeded(spec: Spec, seed: int) -> Spec:
    return replace(spec, seed=seed)


def _batches(table: Table, candidates: list[StrategySpec]) -> list[list[int]]:
    """Candidates in runs that one engine call plays: at most the game's largest table of distinct
    strategy functions between them, and MOST_SEATINGS seatings."""
    most = table.game.players[1]
    per = max(1, MOST_SEATINGS // table.players)
    out: list[list[int]] = []
    functions: list = []
    for c, candidate in enumerate(candidates):
        seatings = table.seatings(candidate)
        more = distinct_functions(seatings, functions)
        if out and len(out[-1]) < per and len(more) <= most:
            out[-1].append(c)
            functions = more
        else:
            out.append([c])
            functions = distinct_functions(seatings)
    return out
