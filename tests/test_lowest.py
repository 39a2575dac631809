"""The baseline `lowest` behaves exactly as the rules digest specifies it: compared decision by
decision with a plain-Python transcription of the digest's text."""

import numpy as np
import pytest
from conftest import positions
from hypothesis import given, settings

from simkit.games.whos_the_ass import reference
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.action import LEAD_ASS, PASS, make_set
from simkit.games.whos_the_ass.rules import check_rules
from simkit.games.whos_the_ass.strategy import seats_for
from simkit.strategies.whos_the_ass.baseline import lowest

J = 14


def digest_lowest(hand, phase, count, top, may_lead_ass):
    """The digest's words, one sentence at a time."""
    if phase == V.LEAD:
        if may_lead_ass:
            return LEAD_ASS
        held = [v for v in range(1, 14) if hand[v] > 0]
        if held:
            return make_set(held[0], hand[held[0]], 0)
        return make_set(14, 0, hand[J])
    if phase == V.FOLLOW:
        k, c = count, top
        for v in range(1, 14):
            if c < v <= 13 and hand[v] >= k:
                return make_set(v, k, 0)
        for v in range(1, 14):
            if c < v <= 13 and hand[v] >= 1 and hand[v] + hand[J] >= k:
                return make_set(v, hand[v], k - hand[v])
        if c < 14 and hand[J] >= k:
            return make_set(14, 0, k)
        return PASS
    held = [v for v in range(1, 14) if hand[v] > 0]
    return make_set(held[0], 1, 0) if held else make_set(1, 0, 1)


@settings(max_examples=2000, deadline=None)
@given(positions())
def test_lowest_matches_the_digest_on_any_position(position):
    hand, view = position
    got = lowest(hand, view, np.zeros(16), np.zeros(1, np.uint64))
    assert got == digest_lowest(hand, view[V.PHASE], view[V.COUNT], view[V.TOP], bool(view[V.MAY_LEAD_ASS]))


def test_lowest_matches_the_digest_through_whole_hands():
    decisions = 0
    for n in (3, 4, 8, 12):
        seats = seats_for(["lowest"], n)
        for i in range(40):
            hands, rng = reference.deal(3, i, n)
            compiled = reference.compiled_deciders(seats, rng)

            def checked(seat, hand, view, f=compiled[0]):
                nonlocal decisions
                decisions += 1
                got = f(seat, hand, view)
                assert got == digest_lowest(hand, view[V.PHASE], view[V.COUNT], view[V.TOP],
                                            bool(view[V.MAY_LEAD_ASS]))
                return got

            reference.play_hand(hands, [checked] * n, check_rules({})["ass_joker"])
    assert decisions > 5000


def _view(phase, count=0, top=-1, may_lead_ass=False):
    view = np.zeros(V.SIZE, dtype=np.int64)
    view[V.PHASE], view[V.COUNT], view[V.TOP] = phase, count, top
    view[V.MAY_LEAD_ASS] = int(may_lead_ass)
    return view


@pytest.mark.parametrize("jokers", [1, 2, 3])
def test_lowest_with_only_jokers_leads_all_of_them_and_dodges_with_a_1(jokers):
    for ass in (0, 1):
        hand = np.zeros(15, dtype=np.int64)
        hand[0], hand[14] = ass, jokers

        def call(view, hand=hand):
            return lowest(hand, view, np.zeros(16), np.zeros(1, np.uint64))

        assert call(_view(V.LEAD)) == make_set(14, 0, jokers)  # all jokers as one set (value 14)
        assert call(_view(V.ASS_TRICK, top=0)) == make_set(1, 0, 1)  # a joker declared as 1
        assert call(_view(V.FOLLOW, count=jokers, top=13)) == make_set(14, 0, jokers)
        assert call(_view(V.FOLLOW, count=jokers, top=14)) == -1  # nothing beats 14


# --- W7, W11: the ass is never part of a set (the leader must hold a joker for this to bite) --
