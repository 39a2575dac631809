"""The float draws Ezelen's model uses (M2–M4): compiled and plain-Python twins agree bit for bit,
so the two engines' times agree exactly."""

import math

import numba as nb
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.core.rng import MASK64, PyRng, normal, uniform

U64 = st.integers(0, 2**64 - 1)


@nb.njit(cache=True)
def _draws(state, count):
    out = np.empty(2 * count)
    for i in range(count):
        out[2 * i] = uniform(state)
        out[2 * i + 1] = normal(state)
    return out


@settings(max_examples=200, deadline=None)
@given(state=U64)
def test_uniform_and_normal_agree_bit_for_bit(state):
    compiled = np.array([state], dtype=np.uint64)
    plain = PyRng(state)
    draws = _draws(compiled, 20)
    for i in range(20):
        assert draws[2 * i] == plain.uniform()
        assert draws[2 * i + 1] == plain.normal()  # libm's log, cos and sqrt on both sides
    assert int(compiled[0]) == plain.state


@nb.njit(cache=True)
def _normal(state):
    return normal(state)


def test_normal_where_its_first_word_is_zero():
    # mix64(0) = 0, so from this state the next 64 bits are all zero: u1 is 2**-53, never 0
    state = (2**64 - 0x9E3779B97F4A7C15) & MASK64
    z = _normal(np.array([state], dtype=np.uint64))
    assert z == PyRng(state).normal() and math.isfinite(z) and abs(z) <= math.sqrt(2 * 53 * math.log(2))


def test_uniform_is_in_0_1_and_normal_is_standard():
    draws = _draws(np.array([12345], dtype=np.uint64), 200_000)
    u, z = draws[0::2], draws[1::2]
    assert u.min() >= 0.0 and u.max() < 1.0 and abs(u.mean() - 0.5) < 4 * math.sqrt(1 / 12 / len(u))
    assert abs(z.mean()) < 4 / math.sqrt(len(z)) and abs(z.std() - 1) < 0.01
    assert abs(np.mean(z < -1.959964) - 0.025) < 4 * math.sqrt(0.025 * 0.975 / len(z))
