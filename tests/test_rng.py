"""The counter-based generator: compiled and plain-Python versions agree draw for draw."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.core.rng import PyRng, below, hand_state, match_seed, next_u64, py_hand_state, py_match_seed

U64 = st.integers(0, 2**64 - 1)


@settings(max_examples=200, deadline=None)
@given(seed=U64, index=st.integers(0, 2**40))
def test_hand_state_agrees(seed, index):
    assert int(hand_state(np.uint64(seed), index)) == py_hand_state(seed, index)
    assert int(match_seed(np.uint64(seed), index)) == py_match_seed(seed, index)


@settings(max_examples=100, deadline=None)
@given(state=U64, m=st.integers(1, 2**31))
def test_draws_agree(state, m):
    a = np.array([state], dtype=np.uint64)
    b = PyRng(state)
    for _ in range(5):
        assert int(next_u64(a)) == b.next_u64()
        assert int(below(a, m)) == b.below(m)
    assert int(a[0]) == b.state


def test_below_is_in_range_and_roughly_uniform():
    rng = PyRng(12345)
    counts = np.bincount([rng.below(7) for _ in range(70_000)], minlength=7)
    assert counts.shape == (7,)
    assert np.all(np.abs(counts - 10_000) < 500)  # about 5 standard deviations


def test_different_hands_get_different_streams():
    states = {py_hand_state(1, i) for i in range(10_000)} | {py_hand_state(2, i) for i in range(10_000)}
    assert len(states) == 20_000
