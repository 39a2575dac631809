"""A run's results as exact, mergeable statistics (simkit.stats.moments): what `simkit run` keeps by
default, and all the report reads.

A chunk is a range of deals, played in every cell and every seat rotation; the engine plays each
deal in all of a cell's rotations in a row and adds its rows as it goes (simkit.stats.tally), so all
the rows of a deal are reduced together: its seats, its rotated replays, an Ezelen match's
rounds; and the same deal in the other cells of its player count are added up by deal slot (for
the means pooled over cells). Groups:

- seat rows (a seat in a hand, round or match): `strategy` (cell, strategy), `seat` (cell, seat)
  and `pooled` (player count, strategy: over all cells of that player count);
- table rows (a hand or round of a table, and each deal's replays): `table` (cell).

Each group keeps the moments of its per-deal sums of the game's measures (simkit/games/__init__.py,
Measures), and every ordered pair of strategies at one table their cross moments (so the report
can take any of them as the baseline of paired differences); histograms of a seat
measure per strategy and of a table measure per cell. All integers: a chunk's statistics are
int64, a run's the exact sum of its chunks'. The stored file is small and does not grow with the
number of hands.
"""

import dataclasses
import time
from dataclasses import dataclass, field

import numpy as np

from simkit import games
from simkit.core.blocks import most_blocks
from simkit.experiments.chunks import rotated, seat_labels
from simkit.experiments.dealt import deal_fold, group_by_deal
from simkit.experiments.linked import Linked, linked_sums, variants
from simkit.experiments.spec import Spec
from simkit.games.dealt import parse_by
from simkit.stats.by_deal import By
from simkit.stats.deal_groups import DealGroups
from simkit.stats.moments import ROW, Counts, Folding, Moments, Scratch, exact_add, fill_known
from simkit.stats.tally import Tally
from simkit.strategies import decisions
from simkit.strategies.plugins import load_strategy_files

REPLAY = games.REPLAY
_POOL: dict = {}  # scratch memory reused from chunk to chunk in this process (see simkit.stats.moments.buffer),
#                   and the histograms' widths (a value beyond them costs a replay of its engine call)


@dataclass(frozen=True)
class Layout:
    """The groups of a run, fixed by its spec: (grouping, cell, players, key) each, and the pairs
    (g, b) of strategy groups of one cell. Pooled groups exist only for a strategy at more than
    one table of a player count (otherwise its cell's own strategy group is the pooled one)."""

    groups: tuple[tuple[str, int, int, str], ...]
    pairs: tuple[tuple[int, int], ...]  # a cell's strategies; then each rule variant's strategy with its reference's
    measures: games.Measures
    cells: tuple[dict, ...]
    table_pairs: tuple[tuple[int, int], ...] = ()  # (a rule variant's cell, its reference cell): paired tables
    by: By | None = None  # the features of the deal each cell's seats are also grouped by (a spec's `by`)

    def by_groups(self, ci: int) -> int:
        """Cell ci's groups by the deal: its strategies x the features' value combinations."""
        return len(self.cells[ci]["strategies"]) * self.by.groups if self.by else 0

    @property
    def seat_measures(self) -> tuple[str, ...]:
        return self.measures.seat

    @property
    def table_measures(self) -> tuple[str, ...]:
        return self.measures.table + REPLAY

    @property
    def seat_counted(self) -> tuple[int, ...]:
        """The seat measures whose deals are counted (`present`): those a mean or share is per."""
        m = self.measures
        return _indices(self.seat_measures, ("rows", m.per, "matches") + tuple(den for _, den in m.shares + m.means))

    @property
    def table_counted(self) -> tuple[int, ...]:
        m = self.measures
        return _indices(self.table_measures, ("rows", "signalled", "replays")
                        + tuple(den for _, den in m.table_shares + m.table_means))

    @property
    def known_counts(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The seat and table measures that count rows, where they are the same in every deal of a
        group (each deal one hand, round or match per rotation; none where a deal holds many rows)."""
        if self.measures.many_rows:
            return (), ()
        return _indices(self.seat_measures, ("rows",)), _indices(self.table_measures, ("rows", "replays"))

    def index(self) -> dict[tuple[str, int, int, str], int]:
        return {g: i for i, g in enumerate(self.groups)}


def _indices(names: tuple[str, ...], wanted: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(sorted({names.index(w) for w in wanted if w in names}))


def layout(spec: Spec) -> Layout:
    cells = spec.cells()
    groups: list[tuple[str, int, int, str]] = []
    described = []
    for ci, cell in enumerate(cells):
        lineup = seat_labels(spec, cell)
        names = list(dict.fromkeys(lineup))
        groups += [("strategy", ci, cell.players, name) for name in names]
        groups += [("seat", ci, cell.players, str(s)) for s in range(cell.players)]
        described.append({"cell": ci, "players": cell.players, "lineup": lineup, "strategies": names,
                          "rotations": cell.rotations(spec.seating), "seating": spec.seating,
                          "sweep": dict(cell.sweep), **({"rules": dict(cell.rules)} if cell.rules else {})})
    for n in spec.players:  # a strategy at more than one table of n players: its rows pooled over them
        tables = [name for c in cells if c.players == n for name in dict.fromkeys(seat_labels(spec, c))]
        groups += [("pooled", -1, n, name) for name in dict.fromkeys(tables) if tables.count(name) > 1]
    strategies = [i for i, g in enumerate(groups) if g[0] == "strategy"]
    pairs = tuple((g, b) for g in strategies for b in strategies if g != b and groups[g][1] == groups[b][1])
    at = {g: i for i, g in enumerate(groups)}
    table_pairs = variants(spec)
    pairs += tuple((at[("strategy", ci, cells[ci].players, name)], at[("strategy", ri, cells[ci].players, name)])
                   for ci, ri in table_pairs for name in described[ci]["strategies"])
    measures = games.get(spec.game).measures(spec.match["mode"])
    by = parse_by(spec.game, ",".join(spec.by)) if spec.by else None
    return Layout(tuple(groups), pairs, measures, tuple(described), table_pairs, by)


@dataclass
class Statistics:
    """A run's (or a chunk's) statistics: seat groups' and tables' moments, and histograms."""

    layout: Layout
    seat: Moments
    table: Moments
    seat_histograms: dict[int, np.ndarray] = field(default_factory=dict)   # strategy group -> counts by value
    table_histograms: dict[int, np.ndarray] = field(default_factory=dict)  # cell -> counts by value
    by: tuple[DealGroups, ...] = ()  # per cell, its seats grouped by what they were dealt (Layout.by)

    def __add__(self, other: "Statistics") -> "Statistics":
        return Statistics(self.layout, self.seat + other.seat, self.table + other.table,
                          _add_histograms(self.seat_histograms, other.seat_histograms),
                          _add_histograms(self.table_histograms, other.table_histograms),
                          tuple(a + b for a, b in zip(self.by, other.by)))

    def __eq__(self, other) -> bool:
        return (self.seat == other.seat and self.table == other.table
                and _same_histograms(self.seat_histograms, other.seat_histograms)
                and _same_histograms(self.table_histograms, other.table_histograms)
                and len(self.by) == len(other.by) and all(a == b for a, b in zip(self.by, other.by)))


def _add_histograms(a: dict, b: dict) -> dict:
    out = {}
    for key in a.keys() | b.keys():
        x, y = a.get(key, np.zeros(0, np.int64)), b.get(key, np.zeros(0, np.int64))
        size = max(len(x), len(y))
        out[key] = exact_add(np.pad(x, (0, size - len(x))), np.pad(y, (0, size - len(y))))
    return out


def _same_histograms(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(np.trim_zeros(a[k], "b"), np.trim_zeros(b[k], "b")) for k in a)


def wanted(names: tuple[str, ...], ratios: list[tuple[str, str]], known: tuple[int, ...] = ()) -> np.ndarray:
    """The (m, k) products a table of measures needs: those of every ratio num / den that gets an
    interval, but for those of a count `known` to be the same in every deal (simkit.stats.moments.fill_known)."""
    out = set()
    for num, den in ratios:
        if num in names and den in names:
            a, b = names.index(num), names.index(den)
            out |= {(a, a), (a, b), (b, a), (b, b)}
    out = {(a, b) for a, b in out if a not in known and b not in known}
    return np.array(sorted(out), np.int64).reshape(-1, 2)


def reduce_chunk(spec: Spec, lo: int, hi: int, strategy_files: tuple[str, ...] = (),
                 on_play=None, warm_up: bool = False, clock: list[float] | None = None,
                 lay: Layout | None = None) -> Statistics:
    """Play deals lo..hi-1 in every cell and rotation and reduce them to statistics: the engine
    adds every deal to a tally as it plays it (simkit.stats.tally). A pure function of its arguments (a
    Dask worker runs it too); `on_play(cell, rotation, played)` sees each engine call's arrays
    (the rows, when asked for, are made from them). `warm_up` plays only the first cell's first
    rotation: enough to compile (or load) everything. `clock[0]`, if given, gains the seconds
    spent in the engine's calls. `lay`: the spec's layout, if the caller has it already."""
    load_strategy_files(strategy_files)  # a Dask worker has not seen the user's files yet
    game = games.get(spec.game)
    lay = lay or layout(spec)
    deals = hi - lo
    seat = Moments.zeros(len(lay.groups), len(lay.seat_measures), len(lay.pairs))
    table = Moments.zeros(len(lay.cells), len(lay.table_measures), len(lay.table_pairs))
    pool = _POOL
    prepared = _prepared(spec, lay, warm_up)
    linked = prepared.linked
    pooled = Scratch(len(prepared.pooled) + len(linked.seat_groups), deals, len(lay.seat_measures), pool, "pooled",
                     prepared.dtype) if prepared.pooled or linked.seat_groups else None
    tables = Scratch(len(linked.tables), deals, len(lay.table_measures), pool, "linked tables", prepared.dtype) \
        if linked.tables else None
    seat_hist = Counts(len(lay.groups), pool.get(("width", "seat"), 256))
    table_hist = Counts(len(lay.cells), pool.get(("width", "table"), 256))
    by = [DealGroups.zeros(lay.by_groups(ci)) for ci in range(len(lay.cells))] if lay.by else []
    for c in prepared.batches:
        c.folds[0].reset(pooled.sums if pooled is not None else None)
        c.folds[1].reset(tables.sums if tables is not None else None)
        c.tally.reset(c.folds, (seat_hist.width, table_hist.width))
        started = time.perf_counter()
        fold, starts = deal_fold(lay, c.replays, len(game.features)) if lay.by and not warm_up else (None, {})
        in_engine = fold is not None and game.folds_by
        played = game.play(c.seatings, deals, lo, c.spec, c.cells, tally=c.tally.arrays,
                           rows=on_play is not None or (fold is not None and not in_engine),
                           **({"fold": fold.arrays} if in_engine else {}))
        if clock is not None:
            clock[0] += time.perf_counter() - started
        if on_play is not None:
            for r, (ci, rotation) in enumerate(c.replays):
                on_play(ci, rotation, game.seating(played, r))
        if fold is not None:
            group_by_deal(game, spec, lay, c.replays, played, lo, deals, fold, starts, by, game.folds_by)
        seat_need, table_need = c.tally.overflow()
        if seat_need or table_need:  # a value beyond a histogram: the same deals again, counted wide enough
            seat_hist.widen(seat_need)
            table_hist.widen(table_need)
            pool[("width", "seat")], pool[("width", "table")] = seat_hist.width, table_hist.width
            c.tally.reset(c.folds, (seat_hist.width, table_hist.width), sums=False)
            game.play(c.seatings, deals, lo, c.spec, c.cells, tally=c.tally.arrays)
    seat_known, table_known = lay.known_counts
    for c in prepared.batches:  # the tallies read once all are played: Python between the calls costs more
        seat_hist.add(c.tally.seat_counts.sum(axis=0), c.strategies)
        table_hist.add(c.tally.table_counts.sum(axis=0), c.tables)
        c.folds[0].into(seat, c.placed[0])
        c.folds[1].into(table, c.placed[1])
    if pooled is not None:
        part = pooled.moments(linked.seat_local, prepared.pair_want, counted=prepared.seat_counted)
        if prepared.pooled:
            seat.place(prepared.pooled, part.head(len(prepared.pooled)))
        seat.cross[list(linked.seat_pairs)] = part.cross
    if tables is not None:
        part = tables.moments(linked.table_local, prepared.table_want, counted=prepared.table_counted)
        table.cross[:] = part.cross
    _rows_known(seat, seat_known, deals, prepared.seat_rows)
    _rows_known(table, table_known, deals, prepared.table_rows)
    fill_known(seat, seat_known, lay.pairs)
    fill_known(table, table_known, lay.table_pairs)
    return Statistics(lay, seat, table, seat_hist.by_group(), table_hist.by_group(), tuple(by))


def engine_calls(spec: Spec) -> int:
    """The engine calls that play a chunk of `spec`: one per batch of its cells (`_batches`)."""
    game = games.get(spec.game)
    cells = [(ci, cell, game.seats_for(list(cell.lineup), cell.players)) for ci, cell in enumerate(spec.cells())]
    return len(_batches(cells, len(layout(spec).seat_measures), game.players[1]))


def _rows_known(part: Moments, columns: tuple[int, ...], deals: int, per_deal: np.ndarray) -> None:
    """The counts known beforehand (simkit.stats.tally: a deal is one hand, round or match in each
    rotation), which the engine neither adds nor folds: group g has per_deal[g] in every one of
    the deals, each of which it is present in."""
    for k in columns:
        part.present[:, k] = deals * (per_deal > 0)
        part.total[:, k] = deals * per_deal


@dataclass
class _Batch:
    """Cells of a run played in one engine call (`_batches`), and what reducing their deals needs
    that does not change from chunk to chunk: the seatings (each cell's rotations in turn), the
    cell of each and (cell index, rotation) of each, the cells' indices (their tables, local ids
    0.. in the call), the layout's strategy groups of its seat histogram, its foldings and tally
    (reset for each chunk), and where `Folding.into` puts their moments in the chunk's: its groups
    (local ids 0..: every cell's strategies, then every cell's seats) at their ids in the layout,
    its pairs, folded for (g, b) with g < b only, as the layout's (b, g) too, transposed."""

    seatings: list
    cells: list
    replays: list[tuple[int, int]]
    tables: list[int]
    strategies: list[int]
    folds: tuple[Folding, Folding]
    tally: Tally
    placed: tuple[tuple, tuple]
    spec: Spec  # the run's spec with the rules its cells are played under


@dataclass
class _Prepared:
    """A run's cells made ready to reduce (`_prepared`), and the pooled groups' ids."""

    batches: list[_Batch]
    pooled: list[int]
    seat_rows: np.ndarray  # each seat group's rows in every deal (where they are known); pooled: its cells' added up
    table_rows: np.ndarray  # each cell's table rows in every deal: its replays
    seat_counted: tuple[int, ...]  # the seat measures whose deals are counted, but for those known
    pair_want: np.ndarray  # what the pooled groups ask for: they are reported by their mean alone
    dtype: type
    linked: Linked
    table_want: np.ndarray
    table_counted: tuple[int, ...]


# a batch's per-deal sums (groups x measures): 32 deals of them (128 KB) stay in the second-level cache; fewer,
# wider calls measured 2-3% faster with their statistics than at 256 (joker-timing, ezelen-attention)
MOST_COLUMNS = 512


def _batches(cells: list[tuple[int, object, list]], measures: int, max_players: int) -> list[list[int]]:
    """Cells (index, cell, seats) in runs that one engine call plays: consecutive cells of one
    player count and rules, at most `max_players` distinct strategy functions and MOST_COLUMNS
    per-deal sums between them. Every cell costs Python around its call; a batch's cells share the deal."""
    return decisions.batches([([seats], _group_count(cell) * measures, (cell.players, cell.rules))
                              for _, cell, seats in cells], max_players, MOST_COLUMNS)


def _group_count(cell) -> int:
    """A cell's groups: its distinct strategies and its seats."""
    return len(dict.fromkeys(cell.lineup)) + cell.players


def _prepared(spec: Spec, lay: Layout, warm_up: bool) -> _Prepared:
    """The run's cells made ready to reduce, once per run in this process (kept in the pool while
    the same spec and layout objects come back, as the runner's chunks do): resolving strategies
    and making the tallies' lookups cost a millisecond a cell, a share of a small chunk's time."""
    blocks = most_blocks()
    key = ("prepared", warm_up, blocks)
    kept = _POOL.get(key)
    if kept is not None and kept[0] is spec and kept[1] is lay:
        return kept[2]
    game = games.get(spec.game)
    index = lay.index()
    ms, mt = len(lay.seat_measures), len(lay.table_measures)
    # every ratio the report gives an interval: the main mean, the shares (and the head to head)
    seat_counts, table_counts = lay.known_counts
    main = [(lay.measures.main, lay.measures.per)]
    seat_want = wanted(lay.seat_measures, main + list(lay.measures.shares) + list(lay.measures.means), seat_counts)
    pair_want = wanted(lay.seat_measures, main, seat_counts)
    table_want = wanted(lay.table_measures, [("first_signal", "signalled"), ("beats2", "replays")]
                        + list(lay.measures.table_shares) + list(lay.measures.table_means), table_counts)
    pooled_ids = [i for i, g in enumerate(lay.groups) if g[0] == "pooled"]
    linked = linked_sums(lay, len(pooled_ids))
    seat_rows, table_rows = np.zeros(len(lay.groups), np.int64), np.zeros(len(lay.cells), np.int64)
    # the counts known beforehand are filled in by `_rows_known`, not folded
    seat_counted = tuple(k for k in lay.seat_counted if k not in seat_counts)
    table_counted = tuple(k for k in lay.table_counted if k not in table_counts)
    # a deal's sums fit in int32 (half the memory to pass through) where it is single hands or rounds: a hand's
    # penalties over its seats are at most the deck's, a round's turns at most a million, in at most 12
    # rotations, even pooled over 32,767 cells; a match's totals (any length) and an Ezelen match's rows need int64
    dtype = np.int64 if lay.measures.many_rows or spec.match["mode"] != "single" else ROW
    plan = _plan(lay)
    pairs_of: dict[int, list[tuple[int, int]]] = {}
    for p, (g, b) in enumerate(lay.pairs):
        if lay.groups[g][1] == lay.groups[b][1]:  # a cell's own (a rule variant's are linked)
            pairs_of.setdefault(lay.groups[g][1], []).append((p, g, b))
    cells = []
    for ci, cell in enumerate(spec.cells()[:1] if warm_up else spec.cells()):
        seats = tuple(game.seats_for(list(cell.lineup), cell.players))  # a seat's strategy is where it sits
        cells.append((ci, cell, list(seats)))
    batches = []
    for members in _batches(cells, ms, game.players[1]):  # the engine's lineup holds this many functions
        # the batch's groups, local ids 0..: every cell's strategies, then every cell's seats
        own = [index[("strategy", cells[k][0], cells[k][1].players, name)]
               for k in members for name in lay.cells[cells[k][0]]["strategies"]]
        own += [index[("seat", cells[k][0], cells[k][1].players, str(s))]
                for k in members for s in range(cells[k][1].players)]
        local = {g: i for i, g in enumerate(own)}
        strategy_groups = sum(len(lay.cells[cells[k][0]]["strategies"]) for k in members)
        into: list[tuple[int, int]] = []  # (a local group, the pooled sums' group it is added to)
        table_into: list[tuple[int, int]] = []
        half, transposed = [], []
        seatings, of_cell, replays, group, side, hist, table = [], [], [], [], [], [], []
        strategies: list[int] = []
        for t, k in enumerate(members):
            ci, cell, seats = cells[k]
            n = cell.players
            names = lay.cells[ci]["lineup"]
            distinct = lay.cells[ci]["strategies"]
            for name in distinct:  # a deal's sums over the cells of its player count: the cells' added up
                if ("pooled", -1, n, name) in index:
                    into.append((local[index[("strategy", ci, n, name)]],
                                 pooled_ids.index(index[("pooled", -1, n, name)])))
                g = index[("strategy", ci, n, name)]
                if g in linked.seat_groups:  # and a rule variant's, copied for its pairs
                    into.append((local[g], len(pooled_ids) + linked.seat_groups.index(g)))
            if ci in linked.tables:
                table_into.append((t, linked.tables.index(ci)))
            for p, g, b in pairs_of.get(ci, []):
                if g < b:
                    half.append((local[g], local[b]))
            at = {pair: q for q, pair in enumerate(half)}
            for p, g, b in pairs_of.get(ci, []):
                transposed.append((p, at[(local[g], local[b])], False) if (local[g], local[b]) in at
                                  else (p, at[(local[b], local[g])], True))
            first = len(strategies)
            rotations = 1 if warm_up else cell.rotations(spec.seating)
            for r in range(rotations):
                labels = rotated(tuple(names), r)
                seatings.append(rotated(tuple(seats), r))
                of_cell.append(cell)
                replays.append((ci, r))
                group.append([[local[index[("strategy", ci, n, name)]] for name in labels],
                              [local[index[("seat", ci, n, str(s))]] for s in range(n)]])
                side.append(_sides(labels, distinct))
                hist.append([first + distinct.index(name) for name in labels])
                table.append(t)
            strategies += [index[("strategy", ci, n, name)] for name in distinct]
        folds = (Folding(len(own), ms, blocks, np.array(half, np.int64).reshape(-1, 2), seat_want, None, into,
                         dtype, seat_counted, pair_want, narrow=strategy_groups),
                 Folding(len(members), mt, blocks, None, table_want, dtype=dtype, counted=table_counted,
                         into=table_into))
        tally = Tally(np.array(group, np.int64), np.array(side, np.int64), folds=folds, **plan,
                      histogram_group=np.array(hist, np.int64), known=not lay.measures.many_rows,
                      tables=np.array(table, np.int64))
        for k, p in into:
            if p < len(pooled_ids):
                seat_rows[pooled_ids[p]] += tally.rows[k]
        seat_rows[own] = tally.rows
        tables = [cells[k][0] for k in members]
        table_rows[tables] = tally.replays
        batches.append(_Batch(seatings, of_cell, replays, tables, strategies, folds, tally,
                           (folds[0].placement(own, transposed), folds[1].placement(tables, [])),
                           _ruled(spec, cells[members[0]][1])))
    prepared = _Prepared(batches, pooled_ids, seat_rows, table_rows, seat_counted, pair_want, dtype, linked,
                         table_want, table_counted)
    _POOL[key] = (spec, lay, prepared)
    return prepared


def _ruled(spec: Spec, cell) -> Spec:
    """The spec as the engine plays a cell of it: with the cell's swept rule values."""
    return dataclasses.replace(spec, rules=spec.rules_of(cell)) if cell.rules else spec


def _plan(lay: Layout) -> dict:
    """Which measures a tally compares and counts (simkit.stats.tally.Tally's arguments): the game's
    measures count the histograms' values themselves."""
    m = lay.measures
    return {"main": lay.seat_measures.index(m.main), "seat_histogram": m.seat_histogram is not None,
            "table_histogram": m.table_histogram is not None}


def _sides(seated: list[str], distinct: list[str]) -> np.ndarray:
    """Each seat's side in a head to head (a table of two strategies): 0, 1; otherwise -1."""
    return np.array([distinct.index(label) if len(distinct) == 2 else -1 for label in seated], np.int64)
