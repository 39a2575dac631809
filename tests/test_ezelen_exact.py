"""Exactly checkable facts (docs/rules/ezelen.md): the chance that somebody is dealt a set (Z1,
Z2, Z4), by counting; and, for the `random` policy (M7) with 2 and 3 players, the distribution of
the turn of the first signal, from the finite Markov chain over hand configurations. The fast
engine's simulation must agree within its 99.9% confidence intervals.

Tempo faults are switched off: before the first signal they are the only thing besides the turn
limit that could end a round, and the first-signal turn depends on nothing else of the model.
"""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest

from simkit.games.ezelen import batch
from simkit.games.ezelen.strategy import seats_for

Z999 = 3.2905  # two-sided 99.9% normal quantile
ROUNDS = 200_000
NO_FAULTS = {"tempo_fault": 0.0}
NO_LIMIT = {"max_turns": 1_000_000}


def p_dealt_a_set(n: int) -> Fraction:
    """Inclusion–exclusion over k (player, value) pairs, distinct players and distinct values: k
    given players holding k given full sets leaves (4n-4k)!/(4!)^(n-k) of the (4n)!/(4!)^n deals."""
    total = Fraction(0)
    for k in range(1, n + 1):
        pairs = math.comb(n, k) * math.perm(n, k)
        total += (-1) ** (k + 1) * pairs * Fraction(24 ** k * math.factorial(4 * n - 4 * k), math.factorial(4 * n))
    return total


def configurations(n: int) -> list[tuple[tuple[int, ...], ...]]:
    """Every hand configuration: n x n counts (player x value), each row and column summing to 4."""
    rows = [r for r in itertools.product(range(5), repeat=n) if sum(r) == 4]
    found = []

    def extend(prefix, columns):
        if len(prefix) == n:
            if all(c == 4 for c in columns):
                found.append(tuple(prefix))
            return
        for r in rows:
            if all(c + x <= 4 for c, x in zip(columns, r)):
                extend(prefix + [r], [c + x for c, x in zip(columns, r)])

    extend([], [0] * n)
    return found


def deal_probability(m, n: int) -> Fraction:
    """Of the (4n)!/(4!)^n equally likely deals, prod over values of 4!/prod m_ij! give these counts."""
    ways = 1
    for j in range(n):
        ways *= math.factorial(4) // math.prod(math.factorial(m[i][j]) for i in range(n))
    return Fraction(ways * 24 ** n, math.factorial(4 * n))


def has_set(m) -> bool:
    return any(4 in row for row in m)


def step(m, n: int) -> dict:
    """Z3 with M7: each player passes value j with chance m_ij / 4, all at once, to the left."""
    out: dict = {}
    choices = [[j for j in range(n) if m[i][j] > 0] for i in range(n)]
    for passed in itertools.product(*choices):
        p = math.prod(m[i][passed[i]] / 4 for i in range(n))
        new = [list(row) for row in m]
        for i in range(n):
            new[i][passed[i]] -= 1
            new[(i + 1) % n][passed[i]] += 1
        key = tuple(tuple(row) for row in new)
        out[key] = out.get(key, 0.0) + p
    return out


def first_signal_distribution(n: int, horizon: int):
    """P(first signal at turn t) for t < horizon, the tail beyond, and the exact mean and variance."""
    states = configurations(n)
    transient = [m for m in states if not has_set(m)]
    index = {m: k for k, m in enumerate(transient)}
    q = np.zeros((len(transient), len(transient)))
    r = np.zeros(len(transient))  # chance of completing a set in the next turn
    for m in transient:
        for new, p in step(m, n).items():
            if new in index:
                q[index[m], index[new]] += p
            else:
                r[index[m]] += p
    start = np.array([float(deal_probability(m, n)) for m in transient])
    p0 = 1.0 - start.sum()
    pmf = [p0]
    x = start
    for _ in range(1, horizon):
        pmf.append(float(x @ r))
        x = x @ q
    fundamental = np.linalg.inv(np.eye(len(transient)) - q)
    steps = fundamental @ np.ones(len(transient))  # expected turns to a set from each configuration
    mean = float(start @ steps)
    second = float(start @ ((2 * fundamental - np.eye(len(transient))) @ steps))
    return np.array(pmf), float(x.sum()), mean, second - mean ** 2, p0


def chi2_sf_even(stat: float, df: int) -> float:
    """The chi-square survival function for an even number of degrees of freedom (a Poisson sum)."""
    half = stat / 2
    return math.exp(-half) * sum(half ** k / math.factorial(k) for k in range(df // 2))


def within(p_hat: float, p: float, n: int) -> bool:
    return abs(p_hat - p) <= Z999 * math.sqrt(p * (1 - p) / n) + 1e-12


@pytest.mark.parametrize("n", range(2, 14))
def test_z2_z4_the_chance_that_somebody_is_dealt_a_set(n):
    exact = float(p_dealt_a_set(n))
    res = batch.play(seats_for(["random"], n), ROUNDS, 100 + n, {"max_turns": 0}, NO_FAULTS)
    assert within(float(np.mean(res.first_signal == 0)), exact, ROUNDS), (n, exact)


def test_the_set_formula_against_counting_configurations():
    for n in (2, 3):
        counted = sum(deal_probability(m, n) for m in configurations(n) if has_set(m))
        assert counted == p_dealt_a_set(n)
        assert sum(deal_probability(m, n) for m in configurations(n)) == 1
    assert p_dealt_a_set(2) == Fraction(1, 35)


@pytest.mark.parametrize("n", [2, 3])
def test_m7_z3_first_signal_turn_of_random_passing_matches_the_markov_chain(n):
    pmf, tail, mean, variance, p0 = first_signal_distribution(n, horizon=3000)
    assert tail < 1e-12 and abs(pmf.sum() - 1) < 1e-9
    assert abs(p0 - float(p_dealt_a_set(n))) < 1e-12
    assert abs(float(np.arange(len(pmf)) @ pmf) - mean) < 1e-6

    res = batch.play(seats_for(["random"], n), ROUNDS, 7 * n, NO_LIMIT, NO_FAULTS)
    first = res.first_signal.astype(np.int64)
    assert first.min() >= 0  # every round saw a signal
    cdf = np.cumsum(pmf)
    for k in (0, 1, 2, 3, 5, 10, 20, 40, 80):
        assert within(float(np.mean(first <= k)), float(cdf[k]), ROUNDS), (n, k)
    assert abs(first.mean() - mean) <= Z999 * math.sqrt(variance / ROUNDS), (first.mean(), mean)
    # chi-square over turns 0..9 and the rest: 11 cells, 10 degrees of freedom
    observed = np.append(np.bincount(np.minimum(first, 10), minlength=11)[:10], np.sum(first >= 10))
    expected = ROUNDS * np.append(pmf[:10], 1 - cdf[9])
    stat = float(((observed - expected) ** 2 / expected).sum())
    assert chi2_sf_even(stat, 10) > 0.001, stat
