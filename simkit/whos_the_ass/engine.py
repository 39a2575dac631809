"""The fast engine: one hand of Who's the Ass? over flat arrays, compiled with numba.

Rules W6–W17 in the order they act. Strategies are called as `strats[seat](hand, view,
params[seat], rng)`; every action is checked and an illegal one ends the hand with a return
code (no exceptions in the hot loop, so the same code can later become a CUDA device function).
"""

import numba as nb

from simkit.lowlevel import readonly, seat_table, unowned
from simkit.rng import seat_state
from simkit.whos_the_ass import view as V
from simkit.whos_the_ass.action import LEAD_ASS, PASS, set_jokers, set_numbers, set_value
from simkit.whos_the_ass.legal import ass_play_is_legal, follow_is_legal, lead_is_legal
from simkit.whos_the_ass.rules import DECK_SIZE, JOKER, MAX_PLAYERS, N_CODES, PENALTY

# W16 bounds a hand: a normal trick discards a card, ass tricks never come twice in a row.
MAX_TRICKS = 2 * DECK_SIZE + 2
LOG_WIDTH = 3 + MAX_PLAYERS  # per trick: kind, leader, one action per seat in acting order, result
KIND_NORMAL = 0
KIND_ASS = 1
# err row: status, seat, trick, action, phase
OK = 0
ILLEGAL = 1
TOO_LONG = 2
ERR_WIDTH = 5

_PENALTY = PENALTY


@nb.njit(inline="always", cache=True)
def _take_from_hand(hands, view, seat, action):
    """Move the cards of `action` from the seat's hand onto the table; returns its value."""
    v = set_value(action)
    m = set_numbers(action)
    j = set_jokers(action)
    if m > 0:
        card = v if v != 14 else JOKER
        hands[seat, card] -= m
        view[V.TABLE + card] += m
    if j > 0:
        hands[seat, JOKER] -= j
        view[V.TABLE + JOKER] += j
    view[V.HAND_SIZES + seat] -= m + j
    view[V.PLAYED + seat] = v
    return v


@nb.njit(inline="always", cache=True)
def _fail(err, code, seat, trick, action, phase):
    err[0] = code
    err[1] = seat
    err[2] = trick
    err[3] = action
    err[4] = phase
    return -1


# _nrt=False: play allocates nothing, and without it numba wraps every array slice it passes to
# a strategy in atomic reference-count updates (about a third of the time per hand).
@nb.njit(cache=True, _nrt=False)
def play(strats, params, n, ass_joker, leader, hands, view, rngs, scores, hand_no, log, err):
    """Play one dealt hand to its end (W16). Returns the number of tricks, or -1 with `err` set.

    `scores` are the match totals so far and `hand_no` the hand's number in its match (W18);
    `rngs[seat]` is each seat's random state (rng.seat_state).
    `hands` is (rows >= n) x N_CODES and `view` V.SIZE long, both C-contiguous; `log`
    (MAX_TRICKS x LOG_WIDTH, or empty) receives every trick when tracing.
    """
    # Views of the same memory with compile-time shapes and no owner: every strategy call passes
    # each array as 7 words, and these make 5 of them constants instead of stack reloads; row
    # offsets become constant multiples too. The callers own the memory for the whole call.
    hands = unowned(hands, (hands.shape[0], N_CODES))
    view = unowned(view, (V.SIZE,))
    params = unowned(params, (params.shape[0], params.shape[1]))
    rngs = unowned(rngs, (rngs.shape[0], 1))
    shown = readonly(view)  # what strategies get: the same memory, typed read-only
    view[:] = 0
    view[V.PLAYERS] = n
    view[V.ASS_JOKER] = ass_joker
    view[V.HAND_NO] = hand_no
    for s in range(n):
        view[V.HAND_SIZES + s] = hands[s].sum()
        view[V.SCORES + s] = scores[s]
        if hands[s, 0] > 0:
            view[V.ASS_HOLDER] = s  # W3
    recording = log.shape[0] > 0
    table = seat_table(strats)
    after_ass = False
    t = 0
    while True:
        if t >= MAX_TRICKS:
            return _fail(err, TOO_LONG, leader, t, 0, 0)
        for c in range(N_CODES):
            view[V.TABLE + c] = 0
        for s in range(n):
            view[V.PLAYED + s] = V.NOT_ACTED
        view[V.TRICK] = t
        view[V.LEADER] = leader
        view[V.SEAT] = leader
        view[V.PHASE] = V.LEAD
        view[V.COUNT] = 0
        view[V.TOP] = -1
        view[V.TOP_SEAT] = -1
        may_lead_ass = hands[leader, 0] > 0 and not after_ass  # W6, W15
        view[V.MAY_LEAD_ASS] = 1 if may_lead_ass else 0
        a = table[leader](readonly(hands[leader]), shown, readonly(params[leader]), rngs[leader])
        view[V.MAY_LEAD_ASS] = 0
        if not lead_is_legal(hands[leader], a, may_lead_ass):
            return _fail(err, ILLEGAL, leader, t, a, V.LEAD)
        if recording:
            log[t, 1] = leader
            log[t, 2] = a
        if a == LEAD_ASS:
            # W11-W14: the ass trick; everybody plays one card, the highest (last on ties) takes.
            _take_from_hand(hands, view, leader, a)
            view[V.ASS_HOLDER] = -1
            view[V.PHASE] = V.ASS_TRICK
            view[V.TOP] = 0
            view[V.TOP_SEAT] = leader
            top = 0
            taker = leader
            s = leader
            for i in range(1, n):
                s = s + 1 if s + 1 < n else 0
                view[V.SEAT] = s
                a = table[s](readonly(hands[s]), shown, readonly(params[s]), rngs[s])
                if not ass_play_is_legal(hands[s], a, ass_joker):
                    return _fail(err, ILLEGAL, s, t, a, V.ASS_TRICK)
                v = _take_from_hand(hands, view, s, a)
                if v >= top:  # W14: of equal highest values the last one takes
                    top = v
                    taker = s
                    view[V.TOP] = v
                    view[V.TOP_SEAT] = s
                if recording:
                    log[t, 2 + i] = a
            for c in range(N_CODES):
                hands[taker, c] += view[V.TABLE + c]
                view[V.HAND_SIZES + taker] += view[V.TABLE + c]
            view[V.ASS_HOLDER] = taker
            after_ass = True
            leader = taker
            kind = KIND_ASS
        else:
            # W7-W10: a normal trick; the count is fixed by the lead, each raise must go higher.
            top = _take_from_hand(hands, view, leader, a)
            count = set_numbers(a) + set_jokers(a)
            winner = leader
            view[V.PHASE] = V.FOLLOW
            view[V.COUNT] = count
            view[V.TOP] = top
            view[V.TOP_SEAT] = leader
            s = leader
            for i in range(1, n):
                s = s + 1 if s + 1 < n else 0
                view[V.SEAT] = s
                a = table[s](readonly(hands[s]), shown, readonly(params[s]), rngs[s])
                if not follow_is_legal(hands[s], a, count, top):
                    return _fail(err, ILLEGAL, s, t, a, V.FOLLOW)
                if recording:
                    log[t, 2 + i] = a
                if a == PASS:
                    view[V.PLAYED + s] = V.PASSED
                    continue
                top = _take_from_hand(hands, view, s, a)
                winner = s
                view[V.TOP] = top
                view[V.TOP_SEAT] = s
            for c in range(N_CODES):
                view[V.DISCARDED + c] += view[V.TABLE + c]
            after_ass = False
            leader = winner
            kind = KIND_NORMAL
        if recording:
            log[t, 0] = kind
            log[t, 2 + n] = leader
        t += 1
        for s in range(n):  # W16: the hand ends after a trick that leaves somebody without cards
            if view[V.HAND_SIZES + s] == 0:
                return t


@nb.njit(inline="always", cache=True)
def seed_seats(rngs, key, n):
    """Give every seat its own random stream for the hand dealt from `key`."""
    for s in range(n):
        rngs[s, 0] = seat_state(key, s)


@nb.njit(inline="always", cache=True)
def penalty_of(hand):
    """W17: number cards their value, a joker 14, the ass 20."""
    p = 0
    for c in range(N_CODES):
        p += hand[c] * _PENALTY[c]
    return p
