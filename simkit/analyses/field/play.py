"""A field's profiles played on shared deals: a task plays a run of profiles (every distinct
seating of each) on a span of deals, the same deals for every profile (common random numbers),
and returns whole-number sums per row (a profile and one of its strategies): the strategy's
objective summed over its seats and the profile's seatings, per deal, then over the deals; the
sums of squares; and the sums weighted by each bootstrap replicate's Poisson(1) weight of the
deal. Whole numbers: any split of profiles and deals into tasks, workers or resumed runs adds up
to the same table, bit for bit."""

import math
from dataclasses import dataclass, replace

import numpy as np

from simkit.analyses.field import profiles
from simkit.analyses.field.spec import Field
from simkit.experiments.spec import Cell
from simkit.strategies.decisions import batches

MOST_SEATINGS = 128    # seatings an engine call plays
MOST_CELLS = 1 << 19   # seatings x deals of an engine call (its arrays: seatings x deals x seats)
MOST_DEALS = 4096      # deals an engine call plays
SPAN = 8192            # deals a task plays
BOOT_BLOCK = 1024      # deals whose bootstrap weights are drawn together (aligned: any span, the same weights)


@dataclass(frozen=True)
class Rows:
    """The rows of a field's table at n players: row r is strategy member[r] in profile
    profile[r], seated copies[r] times in each of its seatings[r] distinct seatings."""

    profile: np.ndarray
    member: np.ndarray
    copies: np.ndarray
    seatings: np.ndarray
    first: np.ndarray  # first[p]: profile p's first row (first[P]: the number of rows)

    @classmethod
    def of(cls, k: int, n: int) -> "Rows":
        counts = profiles.multisets(k, n)
        profile, member = np.nonzero(counts)
        first = np.searchsorted(profile, np.arange(len(counts) + 1))
        seatings = np.array([profiles.arrangements(c) for c in counts], np.int64)
        return cls(profile.astype(np.int64), member.astype(np.int64), counts[profile, member], seatings[profile],
                   first.astype(np.int64))


@dataclass
class Part:
    """What a task returns: the sums of rows first..first+len-1 over its span of deals."""

    first: int
    sums: np.ndarray      # int64, per row
    squares: np.ndarray   # int64, per row: sum over deals of the per-deal value squared
    boot: np.ndarray      # int64, rows x replicates: sum over deals of weight x value


def tasks(field: Field, n: int, deals: int) -> list[tuple[int, int, int, int]]:
    """(first profile, end profile, first deal, end deal) of every task at n players: runs of
    profiles that one engine call seats (their seatings and distinct strategy functions), each
    over spans of the deals."""
    k = len(field.pool)
    counts = profiles.multisets(k, n)
    seats = entry_seats(field, n)
    items = [([[seats[i] for i in profiles.members(c)]], int(profiles.arrangements(c)), None) for c in counts]
    runs = batches(items, field.game.players[1], MOST_SEATINGS)
    return [(run[0], run[-1] + 1, lo, min(deals, lo + SPAN)) for run in runs for lo in range(0, deals, SPAN)]


def entry_seats(field: Field, n: int) -> list:
    """Each pool entry as a resolved seat (its strategy, with the entry's model values over those
    its strategy brings)."""
    out = []
    for e in field.pool:
        seat = field.game.seats_for([e.spec], n)[0]
        if e.model:
            seat = replace(seat, model=tuple((dict(seat.model) | dict(e.model)).items()))
        out.append(seat)
    return out


def weights(seed: int, n: int, lo: int, hi: int, replicates: int) -> np.ndarray:
    """The bootstrap's Poisson(1) weight of deals lo..hi-1 in each replicate (replicates x deals):
    drawn per aligned block of deals from the seed, so that any span of the deals sees the same;
    by the inverse of Poisson(1)'s distribution from PCG64's raw 64-bit outputs, which NumPy keeps
    the same from version to version (its samplers it need not), so a resume or a worker with
    another NumPy draws the same weights."""
    if not replicates:
        return np.zeros((0, hi - lo))
    parts = []
    for block in range(lo // BOOT_BLOCK, (hi - 1) // BOOT_BLOCK + 1):
        raw = np.random.PCG64(np.random.SeedSequence([seed, 0xB0075, n, block])).random_raw(replicates * BOOT_BLOCK)
        uniform = (raw >> np.uint64(11)).astype(np.float64) * 2.0 ** -53
        w = np.searchsorted(_POISSON_CDF, uniform, side="right").reshape(replicates, BOOT_BLOCK)
        a, b = max(lo, block * BOOT_BLOCK), min(hi, (block + 1) * BOOT_BLOCK)
        parts.append(w[:, a - block * BOOT_BLOCK:b - block * BOOT_BLOCK])
    return np.concatenate(parts, axis=1).astype(np.float64)


_POISSON_CDF = np.cumsum([math.exp(-1) / math.factorial(k) for k in range(24)])  # P(W <= k), W ~ Poisson(1)


def total_weights(seed: int, n: int, deals: int, replicates: int) -> np.ndarray:
    """Each replicate's total weight over deals 0..deals-1 (its number of deals, resampled)."""
    out = np.zeros(replicates, np.int64)
    for lo in range(0, deals, SPAN):
        out += weights(seed, n, lo, min(deals, lo + SPAN), replicates).sum(axis=1).astype(np.int64)
    return out


def play_task(task: tuple[int, int, int, int], field: Field, n: int, replicates: int,
              files: tuple[str, ...] = ()) -> Part:
    """Profiles task[0]..task[1]-1 on deals task[2]..task[3]-1: in this process, or on a Dask
    worker (which loads the user's strategy files first)."""
    from simkit.strategies.plugins import load_strategy_files

    load_strategy_files(files)
    p0, p1, lo, hi = task
    k = len(field.pool)
    rows = Rows.of(k, n)
    counts = profiles.multisets(k, n)[p0:p1]
    game, spec = field.game, field.at(n)
    objective = game.objective(spec.match["mode"])
    seats = entry_seats(field, n)
    orders = [(p0 + j, order) for j, c in enumerate(counts) for order in profiles.seatings(c)]
    seated = [[seats[i] for i in order] for _, order in orders]
    cells = [Cell(n, tuple(field.pool[i].spec for i in order)) for _, order in orders]
    first = int(rows.first[p0])
    where = {(int(p), int(m)): r - first for r, (p, m) in enumerate(zip(rows.profile, rows.member))
             if rows.first[p0] <= r < rows.first[p1]}
    values = np.zeros((int(rows.first[p1]) - first, hi - lo), np.int64)
    step = max(64, min(MOST_DEALS, MOST_CELLS // len(orders)))
    for start in range(lo, hi, step):
        stop = min(hi, start + step)
        played = game.play(seated, stop - start, start, spec, cells)
        for j, (p, order) in enumerate(orders):
            arrays = game.seating(played, j)
            for s, i in enumerate(order):
                values[where[p, i], start - lo:stop - lo] += np.asarray(objective.value(arrays, s), np.int64)
    boot = np.rint(values.astype(np.float64) @ weights(field.table.seed, n, lo, hi, replicates).T).astype(np.int64)
    return Part(first, values.sum(axis=1), (values * values).sum(axis=1), boot)
