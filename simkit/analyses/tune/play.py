"""Candidates played on shared deals: each candidate sits with the field, and every deal is played
once per seat rotation (the candidate at seat r in rotation r), the same deals for every
candidate (common random numbers: their differences are paired on deals). What comes back is
the objective per candidate and deal, summed over its rotations: whole numbers, so that any
split of the deals into rounds, engine calls or workers adds up to the same totals."""

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np

from simkit import games
from simkit.analyses.tune.race import Sums
from simkit.analyses.tune.space import Candidate
from simkit.experiments.chunks import rotated
from simkit.experiments.spec import Cell, Spec
from simkit.strategies.decisions import batches
from simkit.strategies.spec import StrategySpec

MOST_SEATINGS = 128  # seatings an engine call plays (its arrays: seatings x deals x seats)
MOST_DEALS = 4096    # deals an engine call plays
SPAN = 8192          # deals a task plays and sums: the values it holds are candidates x SPAN
LEAST_SPAN = 64      # deals a task plays at least, when a round is split among workers


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

    def __getstate__(self) -> dict:
        """Sent to a worker without the resolved seats (it resolves its own)."""
        return {**self.__dict__, "_seats": {}}

    @property
    def game(self) -> games.Game:
        return games.get(self.spec.game)

    @property
    def players(self) -> int:
        return len(self.field) + 1

    def cell(self, candidate: "StrategySpec | Candidate") -> Cell:
        return Cell(self.players, (getattr(candidate, "spec", candidate),) + self.field)

    def seatings(self, candidate: "StrategySpec | Candidate") -> list[list]:
        """The candidate's rotations, resolved (rotation r puts it at seat r, with the profile's
        model values, and those its setting works out, over those its strategy brings: as a
        profile like Ezelen's `watcher` does)."""
        key = getattr(candidate, "label", None) or str(candidate)
        if key not in self._seats:
            spec = getattr(candidate, "spec", candidate)
            seats = list(self.game.seats_for([spec, *self.field], self.players))  # resolved once, then rotated
            model = dict(self.profile) | dict(getattr(candidate, "model", ()))
            if model:
                seats[0] = replace(seats[0], model=tuple((dict(seats[0].model) | model).items()))
            self._seats[key] = [rotated(tuple(seats), r) for r in range(self.players)]
        return self._seats[key]


def deal_values(table: Table, candidates: list, lo: int, hi: int, seed: int | None = None) -> np.ndarray:
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


def span_sums(span: tuple[int, int], table: Table, candidates: list[StrategySpec], seed: int | None = None,
              files: tuple[str, ...] = (), cross: bool = True) -> Sums:
    """The candidates' sums (and, with `cross`, sums of products) over deals span[0]..span[1]-1:
    what a task returns, in this process or on a Dask worker (which loads the user's files first)."""
    from simkit.strategies.plugins import load_strategy_files

    load_strategy_files(files)
    return Sums.of(deal_values(table, candidates, *span, seed), cross)


def sums_over(pool, table: Table, candidates: list[StrategySpec], lo: int, hi: int, seed: int | None = None,
              files: tuple[str, ...] = (), cross: bool = True,
              progress: Callable[[int], None] | None = None) -> Sums:
    """The candidates' sums over deals lo..hi-1, played in spans on `pool` (simkit.experiments.
    executors) and added up: whole numbers, so the same for any split and any order the spans
    finish in. On several workers a round is split so that each has a few spans to play."""
    size = SPAN if pool.workers == 1 else max(LEAST_SPAN, min(SPAN, -(-(hi - lo) // (4 * pool.workers))))
    spans = [(a, min(hi, a + size)) for a in range(lo, hi, size)]
    total = Sums.zeros(len(candidates))
    for (a, b), part in pool.map(span_sums, spans, table, candidates, seed, files, cross):
        total.merge(np.arange(len(candidates)), part)
        if progress:
            progress(len(candidates) * table.players * (b - a))
    return total


def _reseeded(spec: Spec, seed: int) -> Spec:
    return replace(spec, seed=seed)


def _batches(table: Table, candidates: list[StrategySpec]) -> list[list[int]]:
    """Candidates in runs that one engine call plays: at most the game's largest table of distinct
    strategy functions between them, and MOST_SEATINGS seatings."""
    per = max(1, MOST_SEATINGS // table.players)
    return batches([(table.seatings(c), 1, None) for c in candidates], table.game.players[1], per)
