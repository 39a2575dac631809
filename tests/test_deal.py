"""W1, W4, W5, W6: the deck, the deal and who leads first."""

import math

import numba as nb
import numpy as np
import pytest

from simkit.core.errors import SimkitError
from simkit.core.rng import hand_state
from simkit.games.whos_the_ass import batch, reference
from simkit.games.whos_the_ass.deal import FRESH_STACK, STACK_DTYPE, STACK_SIZE, deal
from simkit.games.whos_the_ass.rules import CARDS_PER_PLAYER, cards_per_player
from simkit.games.whos_the_ass.strategy import seats_for


@nb.njit(cache=True)
def _deal_many(seed, n, count, counts, ass_seats):
    hands = np.zeros((12, 15), dtype=np.int64)
    stack = np.zeros(STACK_SIZE, dtype=STACK_DTYPE)
    rng = np.zeros(1, dtype=np.uint64)
    for i in range(count):
        rng[0] = hand_state(seed, i)
        ass_seats[i] = deal(hands, stack, n, rng)
        counts[i] = hands[:n]


def deal_many(n, count, seed=1):
    counts = np.zeros((count, n, 15), dtype=np.int64)
    ass = np.zeros(count, dtype=np.int64)
    _deal_many(np.uint64(seed), n, count, counts, ass)
    return counts, ass


def test_w1_deck():
    deck = np.bincount(np.append(FRESH_STACK, 0), minlength=15)
    assert deck.sum() == 110
    assert deck[0] == 1 and deck[14] == 5
    assert list(deck[1:14]) == [8] * 13


@pytest.mark.parametrize("n", [10, 11])
def test_w1_all_110_cards_dealt_when_the_deck_runs_out(n):
    counts, _ = deal_many(n, 50)
    assert np.all(counts.sum(axis=1) == np.bincount(np.append(FRESH_STACK, 0), minlength=15))


@pytest.mark.parametrize("n", range(3, 13))
def test_w4_cards_per_player(n):
    expected = {3: 13, 4: 13, 5: 13, 6: 13, 7: 13, 8: 13, 9: 12, 10: 11, 11: 10, 12: 9}[n]
    assert cards_per_player(n) == CARDS_PER_PLAYER[n] == expected
    counts, _ = deal_many(n, 200)
    assert np.all(counts.sum(axis=2) == expected)


@pytest.mark.parametrize("n", [0, 1, 2, 13, 20, -3])
def test_w4_wrong_player_count_is_an_error(n):
    with pytest.raises(SimkitError, match="3 to 12 players"):
        cards_per_player(n)
    with pytest.raises(SimkitError, match="3 to 12 players"):
        batch.play(seats_for(["lowest"], max(n, 1)), 10, 0)


def _chi2_upper(df: int, z: float = 3.719) -> float:
    """Wilson–Hilferty: the chi-square quantile at about p = 1e-4."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


@pytest.mark.parametrize("n", [3, 4, 5, 7, 10, 12])
def test_w5_ass_seat_distribution_is_exact(n):
    """P(seat s gets the ass) = |{p in 0..38 : p mod n = s}| / 39, checked by chi-square."""
    count = 390_000
    counts, ass = deal_many(n, count, seed=n)
    assert np.all(counts[:, :, 0].sum(axis=1) == 1)  # the ass is always dealt
    assert np.all(counts[np.arange(count), ass, 0] == 1)  # and to the seat deal() names
    expected = np.array([sum(1 for p in range(39) if p % n == s) for s in range(n)]) / 39 * count
    observed = np.bincount(ass, minlength=n)
    chi2 = float(((observed - expected) ** 2 / expected).sum())
    assert chi2 < _chi2_upper(n - 1), (observed, expected)


def test_w5_distribution_test_can_fail():
    """The chi-square check rejects a deal that ignored the 39-card window (uniform seats)."""
    n, count = 5, 390_000
    rng = np.random.default_rng(0)
    observed = np.bincount(rng.integers(0, n, count), minlength=n)
    expected = np.array([sum(1 for p in range(39) if p % n == s) for s in range(n)]) / 39 * count
    assert ((observed - expected) ** 2 / expected).sum() > _chi2_upper(n - 1)


@pytest.mark.parametrize("n", range(3, 13))
def test_w5_reference_deal_is_the_same_deal(n):
    counts, _ = deal_many(n, 30, seed=99)
    for i in range(30):
        hands, _ = reference.deal(99, i, n)
        assert hands == [list(np.repeat(np.arange(15), counts[i, s])) for s in range(n)]


def test_w6_the_ass_holder_leads_the_first_trick():
    for n in (3, 6, 12):
        for rec in batch.traces(seats_for(["random"], n), 40, 5):
            holder = next(s for s in range(n) if 0 in rec["deal"][s])
            assert rec["tricks"][0]["leader"] == holder


def test_w6_the_ass_may_be_led_at_once():
    for rec in batch.traces(seats_for(["lowest"], 4), 40, 5):
        assert rec["tricks"][0]["kind"] == "ass"  # `lowest` leads the ass whenever allowed
