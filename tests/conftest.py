"""Shared test helpers: scripted strategies and a runner that plays a hand-made deal through
both engines and insists they agree."""

import numpy as np
import pytest

from simkit.errors import IllegalMove
from simkit.rng import PyRng
from simkit.whos_the_ass import batch, reference
from simkit.whos_the_ass import view as V
from simkit.whos_the_ass.action import PASS, make_set
from simkit.whos_the_ass.strategy import Seat, compile_decision, seats_for


def _scripted(hand, view, params, rng):
    # each seat acts once per trick, so a seat's action in trick t is params[t]
    return np.int64(params[view[V.TRICK]])


SCRIPTED = compile_decision(_scripted)


def script(*actions: int) -> Seat:
    """A seat that plays the given actions, one per trick (at most 16 tricks)."""
    return Seat("script", SCRIPTED, tuple(float(a) for a in actions))


def S(value: int, numbers: int = 1, jokers: int = 0) -> int:
    return int(make_set(value, numbers, jokers))


J1 = S(1, 0, 1)     # a lone joker declared 1 (ass trick)
J14 = S(14, 0, 1)   # a lone joker as 14
ASS = S(0, 1, 0)    # leading the ass
P = int(PASS)


def play_both(deal, seats, ass_joker="1or14"):
    """Play `deal` in the compiled and the reference engine; they must agree move by move."""
    fast = batch.play_deal(seats, deal, {"ass_joker": ass_joker})
    ref = reference.play_hand(deal, reference.compiled_deciders(seats, PyRng(0)), ass_joker,
                              labels=[s.label for s in seats])
    assert fast["tricks"] == ref["tricks"]
    assert fast["final_hands"] == ref["final_hands"]
    assert fast["penalties"] == ref["penalties"]
    return fast


def illegal_both(deal, seats, ass_joker="1or14", seat=None, trick=0):
    """Both engines must stop with IllegalMove naming the seat, in the given trick (a script that
    runs out of moves makes an illegal move later, which must not count)."""
    with pytest.raises(IllegalMove) as fast:
        batch.play_deal(seats, deal, {"ass_joker": ass_joker})
    with pytest.raises(IllegalMove) as ref:
        reference.play_hand(deal, reference.compiled_deciders(seats, PyRng(0)), ass_joker,
                            labels=[s.label for s in seats])
    if seat is not None:
        assert f"at seat {seat} " in str(fast.value) and f"at seat {seat} " in str(ref.value)
    assert f", trick {trick}:" in str(fast.value) and f", trick {trick}:" in str(ref.value)
    return str(fast.value)


@pytest.fixture(scope="session")
def lowest4():
    return seats_for(["lowest"], 4)
