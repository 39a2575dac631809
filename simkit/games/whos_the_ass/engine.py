"""The fast engine: one hand of Who's the Ass? over flat arrays, compiled with numba.

A hand in play is a state of two arrays: `hands` (each seat's hand row: 15 counts and the HELD
mask, simkit.games.whos_the_ass.hand) and `view` (the public
view, simkit.games.whos_the_ass.view, which also says who decides next and what the trick needs). It can
be copied, `start`ed from a deal, moved on by `step` (one action: rules W6–W17 in the order they
act) and played to its end from any position by `play_on`, the strategies deciding; `play` is
`start` then `play_on`, and the legal actions are simkit.games.whos_the_ass.legal.nth_legal's. A search
plays its rollouts with the same functions. Strategies are called as `strats[seat](hand, view,
params[seat], rng)`, `hand` the seat's hand row (every seat's, row by row, where params[seat, SEES_ALL]
is 1: `cheat`, the search's ceiling; no strategy's parameter reaches that slot); every action is
checked and an illegal one ends the hand with a return code
(no exceptions in the hot loop, so the same code can later become a CUDA device function).
"""

import numba as nb
import numpy as np

from simkit.core.lowlevel import readonly, seat_table, unowned
from simkit.core.rng import seat_state
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.action import LEAD_ASS, PASS, set_jokers, set_numbers, set_value
from simkit.games.whos_the_ass.hand import HAND_WIDTH, HELD, held_and_size
from simkit.games.whos_the_ass.legal import ass_play_is_legal, follow_is_legal, lead_is_legal
from simkit.games.whos_the_ass.rules import JOKER, MAX_PLAYERS, MAX_TRICKS, N_CODES, PENALTY  # noqa: F401 (MAX_TRICKS: the engine's bound, imported from here)
from simkit.strategies.registry import SEES_ALL

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
def _take(hands, seat, card, k):
    """Take k cards of code `card` from the seat's hand, keeping its HELD mask."""
    hands[seat, card] -= k
    if hands[seat, card] == 0:
        hands[seat, HELD] &= ~(np.int64(1) << card)


@nb.njit(inline="always", cache=True)
def _take_from_hand(hands, view, seat, action):
    """Move the cards of `action` from the seat's hand onto the table; returns its value."""
    v = set_value(action)
    m = set_numbers(action)
    j = set_jokers(action)
    if m > 0:
        card = v if v != 14 else JOKER
        _take(hands, seat, card, m)
        view[V.TABLE + card] += m
    if j > 0:
        _take(hands, seat, JOKER, j)
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


@nb.njit(inline="always", cache=True)
def _open_trick(hands, view, n, leader, after_ass):
    """Trick view[TRICK] starts: `leader` to lead; the ass may be led unless the trick before
    was an ass trick (W6, W15)."""
    for c in range(N_CODES):
        view[V.TABLE + c] = 0
    for s in range(n):
        view[V.PLAYED + s] = V.NOT_ACTED
    view[V.LEADER] = leader
    view[V.SEAT] = leader
    view[V.PHASE] = V.LEAD
    view[V.COUNT] = 0
    view[V.TOP] = -1
    view[V.TOP_SEAT] = -1
    view[V.MAY_LEAD_ASS] = 1 if hands[leader, 0] > 0 and not after_ass else 0


@nb.njit(inline="always", cache=True)
def _clear_table(hands, view, taker, ass_trick):
    """The trick's cards go to the taker's hand (ass trick, W14) or out of play (W10); the table
    is emptied when the next trick opens."""
    if ass_trick:
        for c in range(N_CODES):
            k = view[V.TABLE + c]
            if k > 0:
                hands[taker, c] += k
                hands[taker, HELD] |= np.int64(1) << c
                view[V.HAND_SIZES + taker] += k
    else:
        for c in range(N_CODES):
            view[V.DISCARDED + c] += view[V.TABLE + c]


@nb.njit(inline="always", cache=True)
def start(hands, view, n, ass_joker, leader, scores, hand_no):
    """The state of a dealt hand before its first lead: `hands` (rows >= n of HAND_WIDTH, the
    counts dealt; HELD is set here) and `view` (V.SIZE) are the whole state of a hand in play;
    `step` moves it on. Only the history entries the last hand used are cleared, not the whole
    history block: a hand costs what it plays."""
    for k in range(V.HISTORY, V.HISTORY + view[V.HISTORY_LEN]):
        view[k] = 0
    view[:V.HISTORY] = 0
    view[V.PLAYERS] = n
    view[V.FIRST_LEADER] = leader
    view[V.ASS_JOKER] = ass_joker
    view[V.HAND_NO] = hand_no
    for s in range(n):
        held, size = held_and_size(hands[s])
        hands[s, HELD] = held
        view[V.HAND_SIZES + s] = size
        view[V.SCORES + s] = scores[s]
        if hands[s, 0] > 0:
            view[V.ASS_HOLDER] = s  # W3
    _open_trick(hands, view, n, leader, False)


@nb.njit(inline="always", cache=True)
def _lead(hands, view, seat, action):
    """The leader's `action`, checked, goes down (W7, W11): the count is fixed by the lead and each
    raise must go higher (W9), or the ass trick begins."""
    view[V.MAY_LEAD_ASS] = 0
    top = _take_from_hand(hands, view, seat, action)
    view[V.TOP_SEAT] = seat
    if action == LEAD_ASS:  # W11: the ass trick; everybody plays one card
        view[V.ASS_HOLDER] = -1
        view[V.PHASE] = V.ASS_TRICK
        top = 0
    else:
        view[V.PHASE] = V.FOLLOW
        view[V.COUNT] = set_numbers(action) + set_jokers(action)
    view[V.TOP] = top


@nb.njit(inline="always", cache=True)
def _follow(hands, view, seat, action):
    """A follower's checked `action` in a normal trick: a pass, or a raise that now wins (W9)."""
    if action == PASS:
        view[V.PLAYED + seat] = V.PASSED
        return
    view[V.TOP] = _take_from_hand(hands, view, seat, action)
    view[V.TOP_SEAT] = seat


@nb.njit(inline="always", cache=True)
def _play_to_ass(hands, view, seat, action):
    """A checked card played to the ass trick; the highest takes, of equal highest values the
    last one (W14)."""
    v = _take_from_hand(hands, view, seat, action)
    if v >= view[V.TOP]:
        view[V.TOP] = v
        view[V.TOP_SEAT] = seat


@nb.njit(inline="always", cache=True)
def _log_action(log, t, leader, n, seat, action):
    if log.shape[0] > 0:
        log[t, 1] = leader
        log[t, 2 + (seat - leader if seat >= leader else seat + n - leader)] = action


@nb.njit(inline="always", cache=True)
def _close_trick(hands, view, n, taker, ass_trick, log, err):
    """The trick is complete: its winner (normal) or taker (ass trick) leads the next (W10, W14).
    Returns 0 while the hand goes on, the number of tricks once it has ended (W16), or -1 past
    MAX_TRICKS."""
    t = view[V.TRICK]
    _clear_table(hands, view, taker, ass_trick)
    if ass_trick:
        view[V.ASS_HOLDER] = taker
    if log.shape[0] > 0:
        log[t, 0] = KIND_ASS if ass_trick else KIND_NORMAL
        log[t, 2 + n] = taker
    t += 1
    view[V.TRICK] = t
    for s in range(n):  # W16: the hand ends after a trick that leaves somebody without cards
        if view[V.HAND_SIZES + s] == 0:
            return t
    if t >= MAX_TRICKS:
        return _fail(err, TOO_LONG, taker, t, 0, 0)
    _open_trick(hands, view, n, taker, ass_trick)
    return 0


@nb.njit(inline="always", cache=True)
def step(hands, view, action, log, err):
    """The deciding player (view[SEAT]) plays `action`; once the trick is complete it is resolved
    and the next one opened. Returns 0 while the hand goes on, the number of tricks once it has
    ended (W16), or -1 with `err` set for an illegal action (the state then as it was) or a hand
    past MAX_TRICKS. `log` (MAX_TRICKS x LOG_WIDTH, or empty) receives every trick."""
    n = view[V.PLAYERS]
    seat = view[V.SEAT]
    leader = view[V.LEADER]
    t = view[V.TRICK]
    phase = view[V.PHASE]
    if phase == V.LEAD:
        if not lead_is_legal(hands[seat], action, view[V.MAY_LEAD_ASS] == 1):
            return _fail(err, ILLEGAL, seat, t, action, phase)
        _lead(hands, view, seat, action)
    elif phase == V.FOLLOW:
        if not follow_is_legal(hands[seat], action, view[V.COUNT], view[V.TOP]):
            return _fail(err, ILLEGAL, seat, t, action, phase)
        _follow(hands, view, seat, action)
    else:
        if not ass_play_is_legal(hands[seat], action, view[V.ASS_JOKER]):
            return _fail(err, ILLEGAL, seat, t, action, phase)
        _play_to_ass(hands, view, seat, action)
    _log_action(log, t, leader, n, seat, action)
    k = view[V.HISTORY_LEN]
    view[V.HISTORY + k] = action
    view[V.HISTORY_LEN] = k + 1
    seat = seat + 1 if seat + 1 < n else 0
    if seat != leader:
        view[V.SEAT] = seat
        return 0
    return _close_trick(hands, view, n, view[V.TOP_SEAT], phase == V.ASS_TRICK, log, err)


@nb.njit(inline="always", cache=True)
def _own_hand(hands, params, seat):
    return hands[seat]


@nb.njit(inline="always", cache=True)
def _every_hand_if_seen(hands, params, seat):
    """Every hand, row by row, to a seat that sees all (params[seat, SEES_ALL]); its own to others."""
    if params[seat, SEES_ALL] != 0:
        return hands.reshape(hands.shape[0] * HAND_WIDTH)
    return hands[seat]


@nb.njit(inline="always", cache=True)
def _fixed_shapes(params, hands, view, rngs):
    """Views of the same memory with compile-time shapes and no owner: every strategy call passes
    each array as 7 words, and these make 5 of them constants instead of stack reloads; row
    offsets become constant multiples too. The callers own the memory."""
    return (unowned(params, (params.shape[0], params.shape[1])), unowned(hands, (hands.shape[0], HAND_WIDTH)),
            unowned(view, (V.SIZE,)), unowned(rngs, (rngs.shape[0], 1)))


@nb.njit(inline="always", cache=True)
def _decide_until_end(decide, hand_of, table, params, hands, view, rngs, log, err):
    """The play loop: `decide(table, seat, hand, view, params, rng)`, with the hand `hand_of`
    gives, then `step`, until the hand ends. `decide` and `hand_of` are compiled functions
    passed in, so numba writes them into the loop. (A loop over whole tricks, the trick in
    locals, was measured within the noise and compiled twice as long: docs/performance.md.)"""
    shown = readonly(view)  # what strategies get: the same memory, typed read-only
    while True:
        s = view[V.SEAT]
        action = decide(table, s, readonly(hand_of(hands, params, s)), shown, readonly(params[s]), rngs[s])
        t = step(hands, view, action, log, err)
        if t != 0:
            return t


@nb.njit(inline="always", cache=True)
def _lineup_decides(table, seat, hand, view, params, rng):
    return table[seat](hand, view, params, rng)


# _nrt=False: play allocates nothing, and without it numba wraps every array slice it passes
# to a strategy in atomic reference-count updates (about a third of the time per hand).
@nb.njit(cache=True, _nrt=False)
def play_on(strats, params, hands, view, rngs, log, err):
    """Play the hand in `hands` and `view` (`start`, then any number of `step`s) to its end, the
    lineup's compiled strategies deciding; as `play`."""
    params, hands, view, rngs = _fixed_shapes(params, hands, view, rngs)
    table = seat_table(strats)
    # A seat that sees all (params[seat, SEES_ALL]) gets every hand, row by row. Whether any
    # does is asked once per hand: the loop without it passes a hand of a constant shape.
    for s in range(view[V.PLAYERS]):
        if params[s, SEES_ALL] != 0:
            return _decide_until_end(_lineup_decides, _every_hand_if_seen, table, params, hands, view, rngs, log, err)
    return _decide_until_end(_lineup_decides, _own_hand, table, params, hands, view, rngs, log, err)


@nb.njit(inline="always", cache=True)
def play_on_alone(decide, params, hands, view, rngs, log, err):
    """`play_on` with `decide(table, seat, hand, view, params, rng)` at every seat, written into
    the loop (simkit.games.whos_the_ass.alone, a search's rollouts), for a table where no seat
    sees all."""
    params, hands, view, rngs = _fixed_shapes(params, hands, view, rngs)
    return _decide_until_end(decide, _own_hand, 0, params, hands, view, rngs, log, err)


@nb.njit(cache=True)
def replay_step(hands, view, action, log, err):
    """`step`, compiled once rather than written into its caller: for replays of a history
    (a search's inference), where compile time matters more than a call."""
    return step(hands, view, action, log, err)


@nb.njit(cache=True, _nrt=False)
def play(strats, params, n, ass_joker, leader, hands, view, rngs, scores, hand_no, log, err):
    """Play one dealt hand to its end (W16). Returns the number of tricks, or -1 with `err` set.

    `scores` are the match totals so far and `hand_no` the hand's number in its match (W18);
    `rngs[seat]` is each seat's random state (rng.seat_state).
    `hands` is (rows >= n) x HAND_WIDTH and `view` V.SIZE long, both C-contiguous; `log`
    (MAX_TRICKS x LOG_WIDTH, or empty) receives every trick when tracing.
    """
    start(hands, view, n, ass_joker, leader, scores, hand_no)
    return play_on(strats, params, hands, view, rngs, log, err)


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
