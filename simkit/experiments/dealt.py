"""A run's deals grouped by what each seat was dealt (a spec's `by`): an engine call's deals
added to a fold (simkit.stats.deal_fold), by the engine as it plays them where the game's engine
does (`folds_by`), or afterwards from its results and the deals dealt again (the game's
`dealt`), then each cell's part of it added to the cell's grouped moments
(simkit.stats.deal_groups): nothing kept per hand."""

import numpy as np

from simkit.experiments.chunks import rotated
from simkit.stats.deal_fold import DealFold


def deal_fold(lay, replays: list[tuple[int, int]], features: int) -> tuple[DealFold, dict[int, int]]:
    """The fold of an engine call's replays (cell, rotation): each seat counts as its cell's
    strategy, the cells' strategies one after the other; and where each cell's groups start."""
    starts, kinds = {}, 0
    for ci in dict.fromkeys(ci for ci, _ in replays):
        starts[ci] = kinds
        kinds += len(lay.cells[ci]["strategies"])
    kind = np.array([[starts[ci] + lay.cells[ci]["strategies"].index(label)
                      for label in rotated(tuple(lay.cells[ci]["lineup"]), r)] for ci, r in replays], np.int64)
    return DealFold(kind, kinds, lay.by.columns, lay.by.tops, features), starts


def group_by_deal(game, spec, lay, replays: list[tuple[int, int]], played: dict, lo: int, deals: int,
                  fold: DealFold, starts: dict[int, int], by: list, folded: bool) -> None:
    """An engine call's deals into each cell's groups by what each seat was dealt: `folded` by
    the engine as it played them, or now from the objective's measure per replay and seat and
    what each seat was dealt, from the engine's arrays (`dealt_of`) or the deals dealt again."""
    if not folded:
        n = lay.cells[replays[0][0]]["players"]
        objective = game.objective(spec.match["mode"])
        values = np.stack([np.stack([objective.value(seating, s) for s in range(n)], axis=-1)
                           for seating in (game.seating(played, j) for j in range(len(replays)))])
        if values.dtype == bool:  # a share's rows (Ezelen: the round lost): counted as 0 and 1
            values = values.view(np.int8)
        fold.add(values, game.dealt_of(played, n) if game.dealt_of else game.dealt(spec.seed, lo, deals, n))
    first, second = fold.finish()
    for ci, start in starts.items():
        by[ci].add_moments(first, second, deals, start * lay.by.groups)
