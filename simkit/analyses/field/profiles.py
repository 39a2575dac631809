"""The profiles of a field: every multiset of size n of a pool of K strategies (C(K+n-1, n) of
them), each as a vector of counts; the distinct seatings of a profile (every order of its
strategies around the table: who leads into whom and who passes to whom matters, so each deal
is played in all of them, which includes every rotation); and, for the analysis, every multiset
of n-1 opponents with its multinomial coefficient."""

import itertools
import math

import numpy as np


def multisets(k: int, n: int) -> np.ndarray:
    """Every multiset of size n of k things, as counts (rows), in lexicographic order of the
    sorted members: (0,0,0,0), (0,0,0,1), ... for n = 4."""
    rows = [np.bincount(c, minlength=k) for c in itertools.combinations_with_replacement(range(k), n)]
    return np.array(rows, np.int64).reshape(-1, k)


def count(k: int, n: int) -> int:
    """C(k+n-1, n): how many multisets `multisets(k, n)` lists."""
    return math.comb(k + n - 1, n)


def members(counts: np.ndarray) -> tuple[int, ...]:
    """The sorted members of a multiset given by its counts: (0, 0, 1, 3)."""
    return tuple(int(i) for i in np.repeat(np.arange(len(counts)), counts))


def seatings(counts: np.ndarray) -> list[tuple[int, ...]]:
    """Every distinct order of the multiset's members around the table, seat 0 first: n! / prod
    c_i! of them (a profile of one strategy: one)."""
    return sorted(set(itertools.permutations(members(counts))))


def arrangements(counts: np.ndarray) -> int:
    """n! / prod c_i!: how many distinct seatings a profile has."""
    out = math.factorial(int(counts.sum()))
    for c in counts:
        out //= math.factorial(int(c))
    return out


def coefficients(opponents: np.ndarray) -> np.ndarray:
    """(n-1)! / prod q_i!: the multinomial coefficient of each multiset of opponents (rows of
    counts), the number of ordered draws that give it."""
    return np.array([arrangements(q) for q in opponents], np.float64)


def index_of(k: int, n: int) -> dict[tuple[int, ...], int]:
    """Each profile's row in `multisets(k, n)`, by its counts."""
    return {tuple(int(x) for x in row): i for i, row in enumerate(multisets(k, n))}
