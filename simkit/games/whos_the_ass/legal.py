"""Which actions the rules allow: the engine's check of every action, and the list of legal
actions that strategies (random, and users' own) walk through. Compiled, allocation-free."""

import numba as nb
import numpy as np

from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.action import LEAD_ASS, PASS, make_set, set_jokers, set_numbers, set_value
from simkit.games.whos_the_ass.rules import JOKER


@nb.njit(inline="always", cache=True)
def is_set(hand, action):
    """W7, W8: `action` is a set the hand holds; numbers with jokers take the numbers' value,
    jokers alone count 14. The ass is never part of a set."""
    if action < 0 or action >= 4096:
        return False
    v = set_value(action)
    m = set_numbers(action)
    j = set_jokers(action)
    if j > hand[JOKER]:
        return False
    if 1 <= v <= 13:
        return m >= 1 and hand[v] >= m
    return v == 14 and m == 0 and j >= 1


@nb.njit(inline="always", cache=True)
def lead_is_legal(hand, action, may_lead_ass):
    """W7, W11, W15: the leader leads a set, or the ass when allowed; never a pass."""
    if action == LEAD_ASS:
        return may_lead_ass and hand[0] > 0
    return is_set(hand, action)


@nb.njit(inline="always", cache=True)
def follow_is_legal(hand, action, count, top):
    """W9: pass, or exactly `count` cards as a set of strictly higher value."""
    if action == PASS:
        return True
    return is_set(hand, action) and set_numbers(action) + set_jokers(action) == count and (
        set_value(action) > top
    )


@nb.njit(inline="always", cache=True)
def joker_value_allowed(value, ass_joker):
    """W13: a lone joker in an ass trick counts as 1 or 14 / always 1 / any of 1..14."""
    if ass_joker == 0:
        return value == 1 or value == 14
    if ass_joker == 1:
        return value == 1
    return 1 <= value <= 14


@nb.njit(inline="always", cache=True)
def ass_play_is_legal(hand, action, ass_joker):
    """W12, W13: exactly one card, a number card or a lone joker with an allowed value."""
    if action < 0 or action >= 4096:
        return False
    v = set_value(action)
    m = set_numbers(action)
    j = set_jokers(action)
    if m == 1 and j == 0:
        return 1 <= v <= 13 and hand[v] >= 1
    if m == 0 and j == 1:
        return hand[JOKER] >= 1 and joker_value_allowed(v, ass_joker)
    return False


@nb.njit(cache=True)
def nth_legal(hand, view, nth):
    """Walk the distinct legal actions of the deciding player in a fixed order.

    Returns the number of legal actions when `nth` < 0, else the action with index `nth`.
    Distinct means distinct as (value, numbers, jokers): the cards played and what they count as.
    The order: leading, the ass, then by value, by number cards, by jokers, then jokers alone;
    following, pass, then by value and number cards, then jokers alone; in an ass trick, number
    cards by value, then a joker by declared value. Blocks are counted, not walked one by one.
    """
    phase = view[V.PHASE]
    jokers = hand[JOKER]
    k = 0
    if phase == V.LEAD:
        if view[V.MAY_LEAD_ASS] == 1 and hand[0] > 0:
            if nth == 0:
                return LEAD_ASS
            k = 1
        per = jokers + 1  # each number of cards of a value goes with 0..jokers jokers
        for u in range(np.uint64(1), np.uint64(14)):
            block = hand[u] * per
            if k <= nth < k + block:
                r = nth - k
                return make_set(u, 1 + r // per, r % per)
            k += block
        if k <= nth < k + jokers:
            return make_set(14, 0, 1 + nth - k)
        k += jokers
    elif phase == V.FOLLOW:
        count = view[V.COUNT]
        top = view[V.TOP]
        if nth == 0:
            return PASS
        k = 1
        fewest = max(1, count - jokers)  # number cards needed when every joker helps
        for u in range(np.uint64(max(top + 1, 1)), np.uint64(14)):
            most = min(hand[u], count)
            block = most - fewest + 1 if most >= fewest else 0
            if k <= nth < k + block:
                m = fewest + nth - k
                return make_set(u, m, count - m)
            k += block
        if top < 14 and jokers >= count:
            if nth == k:
                return make_set(14, 0, count)
            k += 1
    else:
        for u in range(np.uint64(1), np.uint64(14)):
            if hand[u] > 0:
                if k == nth:
                    return make_set(u, 1, 0)
                k += 1
        if jokers > 0:
            option = view[V.ASS_JOKER]
            if option == 2:  # any of 1..14
                if k <= nth < k + 14:
                    return make_set(1 + nth - k, 0, 1)
                k += 14
            else:
                if k == nth:
                    return make_set(1, 0, 1)
                k += 1
                if option == 0:  # 1 or 14
                    if k == nth:
                        return make_set(14, 0, 1)
                    k += 1
    if nth < 0:
        return np.int64(k)
    return PASS
