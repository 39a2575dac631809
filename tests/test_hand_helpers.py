"""The hand helpers strategies use agree with their plain-Python definitions, on a hand row as
the engine hands it over (15 counts and the HELD mask) and on the 15 counts alone."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.games.whos_the_ass.hand import (
    HAND_WIDTH,
    HELD,
    highest_value,
    lowest_fillable,
    lowest_value,
    number_cards,
    with_held,
)

hands = st.lists(st.integers(0, 4), min_size=15, max_size=15).map(lambda h: np.array(h, dtype=np.int64))


@settings(max_examples=500, deadline=None)
@given(hands, st.integers(-1, 15), st.integers(1, 5))
def test_helpers(counts, bound, count):
    numbers = range(1, 14)
    row = with_held(counts)
    assert row.shape == (HAND_WIDTH,) and (row[:15] == counts).all()
    assert row[HELD] == sum(1 << c for c in range(15) if counts[c] > 0)
    for hand in (row, counts):
        assert lowest_value(hand, bound, count) == next((v for v in numbers if v > bound and hand[v] >= count), 0)
        assert lowest_value(hand) == next((v for v in numbers if hand[v] >= 1), 0)
        assert lowest_fillable(hand, bound, count) == next(
            (v for v in numbers if v > bound and hand[v] >= 1 and hand[v] + hand[14] >= count), 0)
        assert number_cards(hand) == counts[1:14].sum()
        assert highest_value(hand, bound, count) == next(
            (v for v in reversed(numbers) if v < bound and hand[v] >= count), 0)


def test_the_helpers_read_held_not_the_counts_on_a_hand_row():
    """On a row they find values through HELD: a row whose HELD disagrees with its counts shows
    it (so the tests above exercise the mask, not a scan)."""
    row = with_held(np.array([0, 0, 3] + [0] * 12, np.int64))
    row[HELD] = 1 << 7
    assert lowest_value(row) == 0  # bit 7 set but no card of 7: the count check refuses it
    row[7] = 1
    row[2] = 3
    row[HELD] = 1 << 7
    assert lowest_value(row) == 7 and lowest_value(row[:15]) == 2
