"""Ezelen test helpers — scripted seats and a runner that plays a hand-made deal through both
engines and insists they agree — and the tests of the helpers themselves."""

import numpy as np
import pytest

from simkit.core.errors import IllegalMove
from simkit.core.rng import PyRng
from simkit.games.ezelen import batch, reference
from simkit.games.ezelen import view as V
from simkit.games.ezelen.rules import check_rules
from simkit.games.ezelen.strategy import Seat, compile_decision


def _scripted(hand, view, params, memory, rng):
    # pass params[t] in turn t while the script lasts (16 turns), then the lowest value held
    t = view[V.TURN]
    if t < 16 and params[t] >= 0:
        return np.int64(params[t])
    for v in range(13):
        if hand[v] > 0:
            return v
    return -1


SCRIPTED = compile_decision(_scripted)


def script(*values: int, model: dict | None = None) -> Seat:
    """A seat that passes the given values, one per turn, then always its lowest value."""
    padded = tuple(float(v) for v in values) + (-1.0,) * (16 - len(values))
    return Seat("script", SCRIPTED, padded, model=tuple((model or {}).items()))


LOWEST = script()  # always passes its lowest value: a fixed tie-break (M5)


def play_both(deal, seats, rules=None, model=None, key=0, letters=None):
    """Play `deal` in the compiled and the reference engine; they must agree move by move."""
    rules = check_rules(rules or {})
    fast = batch.play_deal(seats, deal, rules, model, key=key, letters=letters)
    ref = reference.play_round(deal, seats, rules, model, PyRng(key), key, letters)
    for k, value in ref.items():
        assert fast[k] == value, k
    return fast


def illegal_both(deal, seats, rules=None, model=None, key=0) -> str:
    """Both engines must stop with the same IllegalMove; its message."""
    rules = check_rules(rules or {})
    with pytest.raises(IllegalMove) as fast:
        batch.play_deal(seats, deal, rules, model, key=key)
    with pytest.raises(IllegalMove) as ref:
        reference.play_round(deal, seats, rules, model, PyRng(key), key)
    assert str(fast.value) == str(ref.value)
    return str(fast.value)


def test_a_script_passes_its_values_then_its_lowest():
    deal = [[0, 0, 1, 2], [1, 1, 2, 2], [0, 0, 1, 2]]
    t = play_both(deal, [script(2, 1), script(2, 2), script(1)], {"max_turns": 3}, {"tempo_fault": 0.0})
    assert t["turns"] == [[2, 2, 1], [1, 2, 0], [0, 1, 0]]
    assert t["loss_reason"] == "stalled"


def test_illegal_both_compares_the_messages():
    message = illegal_both([[0, 0, 1, 1], [0, 0, 1, 1]], [script(0), script(5)])
    assert "seat 1" in message
