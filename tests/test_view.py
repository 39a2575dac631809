"""W3 and the public view: what the compiled engine shows a strategy is consistent with the game."""

import numpy as np
import pytest

from simkit.core.errors import IllegalMove
from simkit.core.rng import below
from simkit.games.whos_the_ass import batch, reference
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.legal import nth_legal
from simkit.games.whos_the_ass.strategy import Seat, compile_decision, seats_for

BAD = np.int64(4095)  # never legal: the auditor's way to fail the hand


def _auditor(hand, view, params, rng):
    """Play at random, but make an illegal move if the view contradicts the player's own hand."""
    me = view[V.SEAT]
    n = view[V.PLAYERS]
    if (hand[0] > 0) != (view[V.ASS_HOLDER] == me):  # W3: the ass holder is public
        return BAD
    if view[V.HAND_SIZES + me] != hand[:15].sum():
        return BAD
    cards = 0
    for s in range(n):
        cards += view[V.HAND_SIZES + s]
    for c in range(15):
        cards += view[V.DISCARDED + c] + view[V.TABLE + c]
    if params[0] > 0 and cards != params[0]:  # card conservation from the public counts alone
        return BAD
    phase = view[V.PHASE]
    if phase == V.LEAD and (view[V.LEADER] != me or view[V.PLAYED + me] != V.NOT_ACTED):
        return BAD
    if phase != V.LEAD and view[V.PLAYED + me] != V.NOT_ACTED:
        return BAD
    if phase == V.ASS_TRICK and (view[V.TABLE] != 1 or view[V.ASS_HOLDER] != -1):
        return BAD
    return nth_legal(hand, view, below(rng, nth_legal(hand, view, -1)))


AUDITOR = compile_decision(_auditor)


@pytest.mark.parametrize("n", [3, 4, 7, 10, 12])
def test_w3_the_view_agrees_with_the_table(n):
    dealt = {3: 39, 4: 52, 7: 91, 10: 110, 12: 108}[n]
    seats = [Seat("auditor", AUDITOR, (float(dealt),))] * n
    res = batch.play(seats, 3000, 17)  # raises IllegalMove if any view was inconsistent
    assert res.tricks.min() > 0


def test_the_auditor_can_fail():
    seats = [Seat("auditor", AUDITOR, (999.0,))] * 4  # a wrong card total
    with pytest.raises(IllegalMove, match="4095|invalid"):
        batch.play(seats, 10, 17)


def test_w3_w10_the_reference_view_agrees_with_the_table():
    """test_view.py audits the compiled engine's view; this audits the reference engine's."""
    audits = 0
    for n in (3, 4, 7, 12):
        seats = seats_for(["random"], n)
        for i in range(15):
            dealt, rng = reference.deal(17, i, n)
            total = sum(len(h) for h in dealt)
            inner = reference.compiled_deciders(seats, rng)

            def audited(seat, hand, view, inner=inner, total=total):
                nonlocal audits
                audits += 1
                holder = view[V.ASS_HOLDER]
                assert (hand[0] > 0) == (holder == seat)
                if view[V.PHASE] == V.ASS_TRICK:
                    assert holder == -1 and view[V.TABLE] == 1  # the ass lies on the table
                else:
                    assert 0 <= holder < n  # W3: the ass is always in somebody's hand, shown to all
                assert view[V.HAND_SIZES + seat] == hand[:15].sum()
                cards = view[V.HAND_SIZES:V.HAND_SIZES + n].sum()
                cards += view[V.DISCARDED:V.DISCARDED + 15].sum() + view[V.TABLE:V.TABLE + 15].sum()
                assert cards == total  # W10: a normal trick's cards move to the discards
                return inner[seat](seat, hand, view)

            reference.play_hand(dealt, [audited] * n, "1or14")
    assert audits > 1000


# --- W6: a hand-made deal is led by the ass holder, whoever that is ---------------------------


def _view_hash(hand, view, params, rng):
    """Choose a legal action by a hash of the whole view: any slot that differs changes play."""
    h = np.uint64(1469598103934665603)
    for i in range(view.shape[0]):
        h = (h ^ np.uint64(view[i] + 1000)) * np.uint64(1099511628211)
    count = nth_legal(hand, view, -1)
    return nth_legal(hand, view, np.int64(h % np.uint64(count)))


VIEW_HASH = Seat("view_hash", compile_decision(_view_hash))


@pytest.mark.parametrize("n", [3, 4, 6, 9, 12])
def test_both_engines_show_strategies_the_same_view_slot_for_slot(n):
    from simkit.games.whos_the_ass.rules import check_rules

    for option in ("1or14", "1", "any"):
        rules = check_rules({"ass_joker": option})
        seats = [VIEW_HASH] * n
        for k, fast in enumerate(batch.traces(seats, 25, 41, rules)):
            assert fast == reference.trace_hand(41, k, seats, rules)
