"""A run's deals grouped by what each seat was dealt (a spec's `by`): an engine call's results
added to each cell's grouped moments (simkit.stats.deal_groups), the deals dealt again by the
game (its `dealt`), a chunk at a time: nothing kept per hand."""

import numpy as np

from simkit.experiments.chunks import rotated


def group_by_deal(game, spec, lay, replays: list[tuple[int, int]], played: dict, lo: int, deals: int,
                  by: list) -> None:
    """Each cell of an engine call's deals into its groups by what each seat was dealt: the
    objective's measure per replay and seat, each seat's strategy, the deals dealt again."""
    objective = game.objective(spec.match["mode"])
    dealt: dict[int, np.ndarray] = {}
    for ci in dict.fromkeys(ci for ci, _ in replays):
        at = [j for j, (cj, _) in enumerate(replays) if cj == ci]
        cell = lay.cells[ci]
        n = cell["players"]
        if n not in dealt:
            dealt[n] = game.dealt(spec.seed, lo, deals, n)
        values = np.stack([np.stack([np.asarray(objective.value(game.seating(played, j), s)) for s in range(n)],
                                    axis=-1) for j in at])
        if values.dtype == bool:  # a share's rows (Ezelen: the round lost): counted as 0 and 1
            values = values.view(np.int8)
        strategy = np.array([[cell["strategies"].index(label) for label in rotated(tuple(cell["lineup"]), r)]
                             for _, r in (replays[j] for j in at)], np.int64)
        by[ci].add(values, strategy, dealt[n], lay.by)
