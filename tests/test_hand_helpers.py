"""The hand helpers strategies use agree with their plain-Python definitions."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.whos_the_ass.hand import highest_value, lowest_fillable, lowest_value, number_cards

hands = st.lists(st.integers(0, 4), min_size=15, max_size=15).map(lambda h: np.array(h, dtype=np.int64))


@settings(max_examples=500, deadline=None)
@given(hands, st.integers(0, 14), st.integers(1, 5))
def test_helpers(hand, bound, count):
    numbers = range(1, 14)
    assert lowest_value(hand, bound, count) == next((v for v in numbers if v > bound and hand[v] >= count), 0)
    assert lowest_value(hand) == next((v for v in numbers if hand[v] >= 1), 0)
    assert highest_value(hand, bound, count) == next(
        (v for v in reversed(numbers) if v < bound and hand[v] >= count), 0)
    assert lowest_fillable(hand, bound, count) == next(
        (v for v in numbers if v > bound and hand[v] >= 1 and hand[v] + hand[14] >= count), 0)
    assert number_cards(hand) == hand[1:14].sum()
