"""The heuristic families: documented behaviour on hand-made positions, and composition."""

import numpy as np
import pytest
from conftest import positions
from hypothesis import given, settings

from simkit.core.errors import SimkitError
from simkit.games.whos_the_ass import reference
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.action import LEAD_ASS, PASS, make_set
from simkit.games.whos_the_ass.rules import GAME
from simkit.strategies import registry
from simkit.strategies.whos_the_ass.baseline import lowest


def decide(spec, hand, view):
    info, vector, _ = registry.resolve(GAME, spec)
    params = np.zeros(16)
    params[: len(vector)] = vector
    return int(info.decide(np.array(hand, dtype=np.int64), view, params, np.zeros(1, np.uint64)))


def hand_of(*cards):
    return list(np.bincount(np.array(cards, dtype=np.int64), minlength=15))


def view_of(phase, count=0, top=-1, may_lead_ass=False, seat=0, leader=0, players=4, holder=0, table=(),
            ass_joker=0):
    v = np.zeros(V.SIZE, dtype=np.int64)
    v[V.PHASE], v[V.COUNT], v[V.TOP], v[V.MAY_LEAD_ASS] = phase, count, top, int(may_lead_ass)
    v[V.SEAT], v[V.LEADER], v[V.PLAYERS], v[V.ASS_HOLDER], v[V.ASS_JOKER] = seat, leader, players, holder, ass_joker
    for c in table:
        v[V.TABLE + c] += 1
    return v


@settings(max_examples=1500, deadline=None)
@given(positions())
def test_compose_with_nothing_set_is_the_baseline(position):
    hand, view = position
    expected = lowest(hand, view, np.zeros(16), np.zeros(1, np.uint64))
    for spec in ("compose()", "dump", "dodge", "compose(lead=lowest, follow=lowest, ass=dodge, jokers=as_needed)"):
        assert decide(spec, hand, view) == expected, spec


def test_compose_equals_lowest_through_whole_hands():
    from simkit.games.whos_the_ass import batch
    from simkit.games.whos_the_ass.strategy import seats_for

    a = batch.play(seats_for(["compose()"], 5), 3000, 4)
    b = batch.play(seats_for(["lowest"], 5), 3000, 4)
    assert np.array_equal(a.penalties, b.penalties)


# --- joker timing ---------------------------------------------------------------------------

def test_spend_adds_jokers_to_a_lead_and_lowest_does_not():
    hand = hand_of(3, 3, 7, 14, 14)
    assert decide("spend", hand, view_of(V.LEAD)) == make_set(3, 2, 2)
    assert decide("lowest", hand, view_of(V.LEAD)) == make_set(3, 2, 0)


def test_hoard_keeps_jokers_until_release_at():
    hand = hand_of(5, 8, 9, 10, 14)  # five cards: a raise over a pair of 6s needs the joker
    assert decide("hoard(release_at=3)", hand, view_of(V.FOLLOW, count=2, top=6)) == PASS
    assert decide("spend", hand, view_of(V.FOLLOW, count=2, top=6)) == make_set(8, 1, 1)
    assert decide("hoard(release_at=5)", hand, view_of(V.FOLLOW, count=2, top=6)) == make_set(8, 1, 1)


def test_hoard_spends_jokers_that_let_it_go_out():
    hand = hand_of(9, 9, 14)
    assert decide("hoard(release_at=0)", hand, view_of(V.FOLLOW, count=3, top=7)) == make_set(9, 2, 1)
    assert decide("hoard(release_at=0)", hand, view_of(V.LEAD)) == make_set(9, 2, 1)
    assert decide("hoard(release_at=0)", hand_of(9, 10, 14), view_of(V.LEAD)) == make_set(9, 1, 0)


# --- ass handling ---------------------------------------------------------------------------

def test_dump_leads_the_ass_and_delay_sheds_the_largest_set_first():
    hand = hand_of(0, 2, 5, 5, 5, 9, 11, 12)  # eight cards
    view = view_of(V.LEAD, may_lead_ass=True)
    assert decide("dump", hand, view) == LEAD_ASS
    assert decide("delay(delay_until=6)", hand, view) == make_set(5, 3, 0)
    assert decide("delay(delay_until=8)", hand, view) == LEAD_ASS


def test_dodge_plays_the_lowest_card_and_grab_takes_as_the_last_player():
    hand = hand_of(2, 9, 12)
    last = dict(seat=3, leader=0, players=4, holder=-1)
    cheap = view_of(V.ASS_TRICK, top=8, table=(0, 4, 8), **last)  # 20 + 4 + 8 = 32 points
    assert decide("dodge", hand, cheap) == make_set(2, 1, 0)
    assert decide("grab(max_cost=35)", hand, cheap) == make_set(9, 1, 0)
    assert decide("grab(max_cost=30)", hand, cheap) == make_set(2, 1, 0)  # too costly
    not_last = view_of(V.ASS_TRICK, top=8, table=(0, 4, 8), seat=2, leader=0, players=4, holder=-1)
    assert decide("grab(max_cost=35)", hand, not_last) == make_set(2, 1, 0)  # could still be beaten
    tie = view_of(V.ASS_TRICK, top=9, table=(0, 4, 9), **last)
    assert decide("grab(max_cost=40)", hand, tie) == make_set(9, 1, 0)  # the last of equals takes (W14)


def test_grab_declares_a_joker_as_the_rule_option_allows():
    hand = hand_of(2, 14)
    kw = dict(seat=3, leader=0, players=4, holder=-1, table=(0, 4, 11))
    assert decide("grab", hand, view_of(V.ASS_TRICK, top=11, ass_joker=0, **kw)) == make_set(14, 0, 1)
    assert decide("grab", hand, view_of(V.ASS_TRICK, top=11, ass_joker=2, **kw)) == make_set(11, 0, 1)
    assert decide("grab", hand, view_of(V.ASS_TRICK, top=11, ass_joker=1, **kw)) == make_set(2, 1, 0)


# --- low-card reserve ----------------------------------------------------------------------

def test_keep_low_keeps_the_k_lowest_while_another_player_holds_the_ass():
    hand = hand_of(1, 2, 2, 6, 9)
    others = view_of(V.LEAD, seat=0, holder=2)
    mine = view_of(V.LEAD, seat=0, holder=0)
    assert decide("keep_low(k=2)", hand, others) == make_set(2, 1, 0)  # the 1 and one 2 are kept
    assert decide("keep_low(k=3)", hand, others) == make_set(6, 1, 0)
    assert decide("keep_low(k=3)", hand, mine) == make_set(1, 1, 0)  # holding the ass itself: no reserve
    assert decide("keep_low(k=5)", hand, others) == make_set(1, 1, 0)  # all kept: rule W7 still needs a lead
    assert decide("keep_low(k=2)", hand, view_of(V.FOLLOW, count=1, top=1, holder=2)) == make_set(2, 1, 0)
    assert decide("keep_low(k=3)", hand, view_of(V.FOLLOW, count=1, top=1, holder=2)) == make_set(6, 1, 0)


# --- shedding style ---------------------------------------------------------------------------

def test_greedy_leads_the_largest_set_and_will_not_break_one():
    hand = hand_of(2, 7, 7, 7, 11, 11)
    assert decide("greedy", hand, view_of(V.LEAD)) == make_set(7, 3, 0)
    assert decide("greedy", hand, view_of(V.FOLLOW, count=1, top=5)) == PASS  # 7s and 11s would break
    assert decide("lowest", hand, view_of(V.FOLLOW, count=1, top=5)) == make_set(7, 1, 0)
    assert decide("greedy", hand, view_of(V.FOLLOW, count=2, top=8)) == make_set(11, 2, 0)


def test_highest_sheds_high_cards_first():
    hand = hand_of(2, 7, 7, 11, 13)
    assert decide("highest", hand, view_of(V.LEAD)) == make_set(13, 1, 0)
    assert decide("highest", hand, view_of(V.FOLLOW, count=1, top=5)) == make_set(13, 1, 0)
    assert decide("highest", hand, view_of(V.FOLLOW, count=2, top=5)) == make_set(7, 2, 0)


# --- composition and specs ----------------------------------------------------------------------

def test_compose_mixes_decision_points():
    info, vector, label = registry.resolve(GAME, "compose(lead=greedy, ass=dodge, jokers=hoard(release_at=3))")
    assert label == "compose(lead=greedy, ass=dodge, jokers=hoard(release_at=3))"
    hand = hand_of(0, 2, 7, 7, 7, 14)
    assert decide(label, hand, view_of(V.LEAD)) == make_set(7, 3, 0)  # greedy lead, no joker hoarded
    assert decide(label, hand_of(5, 8, 9, 10, 12, 14), view_of(V.FOLLOW, count=2, top=6)) == PASS


@pytest.mark.parametrize("spec, message", [
    ("compose(lead=hoard)", "cannot decide lead"),
    ("compose(colour=greedy)", "no decision point 'colour'"),
    ("compose(lead=3)", "needs a strategy name"),
    ("compose(jokers=hoard(release_at=99))", "outside 0..13"),
    ("hoard(release_at=greedy)", "needs a number"),
    ("delay(x=1)", "has no parameter 'x'"),
    ("keep_low(k=1.5)", "must be a whole number"),
])
def test_bad_specs_are_clear_errors(spec, message):
    with pytest.raises(SimkitError, match=message):
        registry.resolve(GAME, spec)


def test_families_play_legally_in_the_reference_engine_too():
    from simkit.games.whos_the_ass.strategy import seats_for

    seats = seats_for(["greedy", "highest", "keep_low(k=3)", "grab(max_cost=60)", "hoard", "delay"], 6)
    for i in range(30):
        hands, rng = reference.deal(9, i, 6)
        reference.play_hand(hands, reference.compiled_deciders(seats, rng))


def test_hoard_goes_out_with_jokers_alone():
    hand = hand_of(14, 14)
    assert decide("hoard(release_at=0)", hand, view_of(V.FOLLOW, count=2, top=5)) == make_set(14, 0, 2)
    assert decide("hoard(release_at=0)", hand, view_of(V.FOLLOW, count=1, top=5)) == PASS  # would not go out
