"""Rule variants' sums linked on the same deal slots: a spec that sweeps rule options plays each
variant in engine calls of its own (the engine takes one set of rules), so the cross moments of a
variant and its reference (Spec.reference), which its paired differences need, come from copies
of their per-deal sums made as they are folded (simkit.stats.moments.Folding's `into`)."""

from dataclasses import dataclass

import numpy as np

from simkit.experiments.spec import Spec


def variants(spec: Spec) -> tuple[tuple[int, int], ...]:
    """(cell, its reference cell) for every rule variant of a spec that sweeps rule options: the
    pairs of tables the report compares on the same deals (Spec.reference)."""
    cells = spec.cells()
    at = {cell: ci for ci, cell in enumerate(cells)}
    return tuple((ci, at[ref]) for ci, cell in enumerate(cells) if (ref := spec.reference(cell)) is not None)


@dataclass
class Linked:
    """Where the sums of rule variants' groups are copied on the same deal slots, so that a
    variant and its reference, played in engine calls of their own, get cross moments: the seat
    groups copied (after the pooled groups in the pooled sums) and the tables copied (sums of
    their own); each pair of the layout's they make, by its index there, and as local ids."""

    seat_groups: list[int]
    seat_pairs: list[int]
    seat_local: np.ndarray
    tables: list[int]
    table_local: np.ndarray


def linked_sums(lay, pooled: int) -> Linked:
    """What a layout's (simkit.experiments.statistics.Layout) rule variants link: its pairs of
    groups at two tables, and its pairs of tables; `pooled`, the pooled groups before the copies."""
    groups = lay.groups
    variant = [(p, g, b) for p, (g, b) in enumerate(lay.pairs) if groups[g][1] != groups[b][1]]
    seat_groups = list(dict.fromkeys(x for _, g, b in variant for x in (g, b)))
    tables = list(dict.fromkeys(x for pair in lay.table_pairs for x in pair))
    return Linked(seat_groups, [p for p, _, _ in variant],
                  np.array([(pooled + seat_groups.index(g), pooled + seat_groups.index(b)) for _, g, b in variant],
                           np.int64).reshape(-1, 2),
                  tables, np.array([(tables.index(a), tables.index(b)) for a, b in lay.table_pairs],
                                   np.int64).reshape(-1, 2))
