"""Counter-based randomness: hand i of a run with seed S draws only from hand_state(S, i).

splitmix64 (Steele, Lea, Flood 2014). Every constant is np.uint64 so numba never mixes in
float64. The same generator is written twice: compiled (engines, strategies) and plain Python
(reference engine), and tests check they agree draw for draw.
"""

import math

import numba as nb
import numpy as np

from simkit.core.errors import SimkitError

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_SALT = np.uint64(0x5EED5EED5EED5EED)
_MATCH_SALT = np.uint64(0x3A7C4E5D6F708192)
_SEAT_SALT1 = np.uint64(0xD1B54A32D192ED03)
_SEAT_SALT2 = np.uint64(0x8CB92BA72F3D8DD7)
_S29 = np.uint64(29)
_S35 = np.uint64(35)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_S11 = np.uint64(11)
_ONE = np.uint64(1)
UNIT = 2.0**-53  # 53 random bits times this: a float in [0, 1) with every value exact
TWO_PI = 2.0 * math.pi
MASK64 = (1 << 64) - 1
MAX_SEED = MASK64


def check_seed(seed: int | str) -> int:
    """A run's seed: a whole number 0..2**64-1 (as text too, decimal or 0x hex: the command
    line's), or one clear error. Every seed given to simkit is checked here."""
    if isinstance(seed, str):
        try:
            seed = int(seed, 16) if seed.strip().lower().startswith("0x") else int(seed)
        except ValueError:
            pass
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
        raise SimkitError(f"seed must be an integer from 0 to 2**64-1, got {seed!r}")
    return int(seed)


@nb.njit(inline="always", cache=True)
def mix64(z):
    """The splitmix64 finaliser: a bijection on uint64 with good avalanche."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@nb.njit(cache=True)
def hand_state(seed, index):
    """Initial generator state of hand `index` in a run with `seed` (both as uint64)."""
    return mix64(mix64(np.uint64(seed) ^ _SALT) + np.uint64(index) * GOLDEN)


@nb.njit(cache=True)
def match_seed(seed, match):
    """The seed of match `match` of a run: its hand j draws from hand_state(match_seed, j)."""
    return hand_state(np.uint64(seed) ^ _MATCH_SALT, match)


@nb.njit(cache=True)
def seat_state(key, seat):
    """The random state of `seat`'s strategy in the hand whose deal draws from `key`.

    Two different mixes of the key, combined, so that a strategy holding its state cannot step
    back to the deal's key (and so to the other hands) the way it could invert one splitmix64
    step; every seat draws from its own stream, so nobody can foresee another's random choices.
    Not cryptographic: it keeps honest strategies from seeing hidden cards by accident or design.
    """
    k = np.uint64(key)
    s = np.uint64(seat)
    a = mix64(k ^ _SEAT_SALT1 ^ ((s + np.uint64(1)) * GOLDEN))
    b = mix64(k + _SEAT_SALT2 + s)
    return a ^ ((b << _S29) | (b >> _S35))


@nb.njit(inline="always", cache=True)
def next_u64(state):
    """Advance state[0] and return the next 64 random bits."""
    state[0] += GOLDEN
    return mix64(state[0])


@nb.njit(inline="always", cache=True)
def draw_below(bits, m):
    """Map 64 random bits to 0..m-1 (m < 2**32) by multiply-shift on the top 32 bits."""
    return np.int64(((bits >> _S32) * np.uint64(m)) >> _S32)


@nb.njit(inline="always", cache=True)
def below(state, m):
    """A random integer in 0..m-1 (m < 2**32)."""
    return draw_below(next_u64(state), m)


@nb.njit(inline="always", cache=True)
def pick_equal(values, n, target, count, state):
    """A uniform choice among the `count` indices i < n with values[i] == target: its index (-1 if
    there is none). The generator is drawn only when there are several to choose from."""
    k = below(state, count) if count > 1 else 0
    for i in range(n):
        if values[i] == target:
            if k == 0:
                return i
            k -= 1
    return -1


@nb.njit(inline="always", cache=True)
def uniform(state):
    """A float in [0, 1): the top 53 of the next 64 bits, times 2**-53."""
    return np.float64(next_u64(state) >> _S11) * UNIT


@nb.njit(inline="always", cache=True)
def normal(state):
    """A standard normal by Box–Muller from two draws; the second value is discarded.

    u1 is in (0, 1] (the 53 bits plus one), so the logarithm never sees 0. log, sqrt and cos are
    the C library's, in the compiled and the plain-Python twin alike, so both agree bit for bit.
    """
    u1 = np.float64((next_u64(state) >> _S11) + _ONE) * UNIT
    u2 = np.float64(next_u64(state) >> _S11) * UNIT
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(TWO_PI * u2)


# --- the same generator in plain Python (reference engine) -----------------------------------

def py_mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def py_hand_state(seed: int, index: int) -> int:
    return py_mix64((py_mix64(seed ^ 0x5EED5EED5EED5EED) + index * 0x9E3779B97F4A7C15) & MASK64)


def py_match_seed(seed: int, match: int) -> int:
    return py_hand_state(seed ^ 0x3A7C4E5D6F708192, match)


def py_seat_state(key: int, seat: int) -> int:
    a = py_mix64(key ^ 0xD1B54A32D192ED03 ^ (((seat + 1) * 0x9E3779B97F4A7C15) & MASK64))
    b = py_mix64((key + 0x8CB92BA72F3D8DD7 + seat) & MASK64)
    return a ^ (((b << 29) | (b >> 35)) & MASK64)


class PyRng:
    """Plain-Python splitmix64 with the same draws as next_u64 / below."""

    def __init__(self, state: int):
        self.state = state

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        return py_mix64(self.state)

    def words32(self):
        """32-bit words, two from each draw (high half first), as the compiled deal uses them."""
        while True:
            bits = self.next_u64()
            yield bits >> 32
            yield bits & 0xFFFFFFFF

    def below(self, m: int) -> int:
        return ((self.next_u64() >> 32) * m) >> 32

    def uniform(self) -> float:
        return (self.next_u64() >> 11) * UNIT

    def normal(self) -> float:
        u1 = ((self.next_u64() >> 11) + 1) * UNIT
        u2 = (self.next_u64() >> 11) * UNIT
        return math.sqrt(-2.0 * math.log(u1)) * math.cos(TWO_PI * u2)
