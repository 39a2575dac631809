"""The fast engine: one round of Ezelen over flat arrays, compiled with numba.

A beat is played in the order of M6, steps (1)–(6); the readings this engine and the reference
engine share are written down in docs/rules/ezelen.md (Readings). Strategies are called as
`strats[seat](hand, view, params[seat], memory[seat], rngs[seat])`; every value is checked and
an illegal one ends the round with a return code (no exceptions in the hot loop, so the same code
can later become a CUDA device function).

The round's generator `rng` (rng.hand_state of the round, after the deal) makes every model draw,
in this order within beat t: (2) for each seat in seat order that has neither signalled nor
noticed, one uniform (noticing) and, if it notices, one normal (two words, its reaction time);
(3) one `below(k)` if k >= 2 players, not all of them signallers, share the latest copy time; (5) for each seat in seat
order that has neither signalled nor noticed, one uniform (tempo fault), then one `below(k)` if
k >= 2 seats commit their second fault. Draws are made whatever the probabilities (0 included),
so changing a probability changes no other draw.
"""

import math

import numba as nb
import numpy as np

from simkit.core.lowlevel import readonly, seat_table, unowned
from simkit.core.rng import normal, pick_equal, seat_state, uniform
from simkit.games.ezelen import model as M
from simkit.games.ezelen import view as V
from simkit.games.ezelen.rules import CARDS_PER_VALUE, LAST, N_VALUES, STALLED, TEMPO, TIE
from simkit.games.ezelen.strategy import MAX_PARAMS, MEMORY_SIZE

# per-seat state, one int64 row per seat
SIGNAL = 0   # Z4: the turn the seat signalled, -1 if it has not
NOTICE = 1   # M2: the beat the seat noticed a signal, -1 if it has not
FAULTS = 2   # M4: tempo faults so far
FAULT1 = 3   # the turns of the first and second fault, -1 if none
FAULT2 = 4
PASS = 5     # the value the seat passes in the current turn
STATE_WIDTH = 6
# outcome of a round
LOSER = 0         # the seat that gets a letter, -1 if none
REASON = 1        # rules.LAST, TEMPO, TIE or STALLED
TURNS = 2         # turns whose passes were made
FIRST_SIGNAL = 3  # the turn of the first signal, -1 if none
OUTCOME_SIZE = 4
# err row: status, seat, turn, value
OK = 0
ILLEGAL = 1
ERR_WIDTH = 4
NEVER = np.inf  # the copy time of a player who has not copied and has nothing pending


@nb.njit(inline="always", cache=True)
def _holds_set(hand, last, n):
    """Z4: whether the hand is a set. After a turn only the value just received can have made one
    (a set held before was signalled then, or its holder had copied and may not signal again)."""
    if last >= 0:
        return hand[last] == CARDS_PER_VALUE
    for v in range(n):
        if hand[v] == CARDS_PER_VALUE:
            return True
    return False


@nb.njit(inline="always", cache=True)
def _signals(hands, views, state, copies, n, t, now):
    """M6 (1), Z4, M3: every player holding a set who has not copied signals, copying now.
    Returns how many of them had not noticed before."""
    new = 0
    for s in range(n):
        if copies[s] > now and _holds_set(hands[s], views[s, V.LAST_RECEIVED], n):
            state[s, SIGNAL] = t
            copies[s] = min(now, copies[s])
            if state[s, NOTICE] < 0:
                new += 1
    return new


@nb.njit(inline="always", cache=True)
def _noticing(model, state, copies, n, t, now, rng):
    """M6 (2), M2, M3: the noticing draws and reaction times; returns how many noticed."""
    copied = 0
    for s in range(n):
        if copies[s] <= now:
            copied += 1
    new = 0
    for s in range(n):
        if state[s, SIGNAL] < 0 and state[s, NOTICE] < 0:
            p = min(model[s, M.ATTENTION] * (model[s, M.BASE_NOTICE] + model[s, M.CASCADE] * copied), 1.0)
            if uniform(rng) < p:
                state[s, NOTICE] = t
                copies[s] = now + model[s, M.REACTION_MEDIAN] * math.exp(model[s, M.REACTION_SIGMA] * normal(rng))
                new += 1
    return new


@nb.njit(inline="always", cache=True)
def _last_to_copy(state, copies, n, rng):
    """Z5, M3: whoever holds the latest copy time alone loses, a late signaller too; -1 (a tie)
    when two or more players share it and all of them signalled (then in the same turn). Any
    other shared latest time: the round's generator picks the loser among its holders."""
    latest = copies[0]
    for s in range(1, n):
        latest = max(latest, copies[s])
    k = 0
    signalled = 0
    for s in range(n):
        if copies[s] == latest:
            k += 1
            if state[s, SIGNAL] >= 0:
                signalled += 1
    if k > 1 and signalled == k:
        return -1
    return pick_equal(copies, n, latest, k, rng)


@nb.njit(inline="always", cache=True)
def _tempo(model, state, n, t, rng):
    """M6 (5), M4, Z6: tempo faults; returns the seat whose second fault loses, or -1."""
    second = 0
    for s in range(n):
        if state[s, SIGNAL] < 0 and state[s, NOTICE] < 0 and uniform(rng) < model[s, M.TEMPO_FAULT]:
            f = state[s, FAULTS]
            state[s, FAULT1 + f] = t
            state[s, FAULTS] = f + 1
            if f == 1:
                second += 1
    if second == 0:
        return -1
    return pick_equal(state[:, FAULTS], n, 2, second, rng)  # (a second fault ends the round: all are new)


@nb.njit(inline="always", cache=True)
def _end(outcome, loser, reason, t, first):
    outcome[LOSER] = loser
    outcome[REASON] = reason
    outcome[TURNS] = t
    outcome[FIRST_SIGNAL] = first
    return t


@nb.njit(inline="always", cache=True)
def _move_cards(hands, views, state, n, t):
    """Z3, Z4: a signaller passes on the card arriving from its right (from the nearest
    non-signaller upstream); then every card moves one seat to the left, all at once."""
    for s in range(n):
        if state[s, SIGNAL] >= 0:
            r = s - 1 if s > 0 else n - 1
            while state[r, SIGNAL] >= 0:
                r = r - 1 if r > 0 else n - 1
            state[s, PASS] = state[r, PASS]
    for s in range(n):
        v = state[s, PASS]
        to = s + 1 if s + 1 < n else 0
        hands[s, v] -= 1
        hands[to, v] += 1
        views[s, V.PASSED + v] += 1
        views[to, V.RECEIVED + v] += 1
        views[to, V.LAST_RECEIVED] = v
    for s in range(n):
        views[s, V.TURN] = t + 1


# _nrt=False: play_round allocates nothing, and reference counting on every array passed to a
# strategy costs about as much as a simple decision (see simkit/games/whos_the_ass/engine.py).
@nb.njit(cache=True, _nrt=False)
def play_round(strats, params, model, n, beat, max_turns, hands, views, memory, rngs, rng, state, copies,
               outcome, log, err):
    """Play one dealt round to its end (M6). Returns the turns played, or -1 with `err` set.

    `hands` (13 counts per seat), `views`, `memory` and `rngs` (each seat's stream) are set up
    by start_round; `rng` is the round's generator after the deal. Fills `state` (STATE_WIDTH per
    seat), `copies` (each seat's copy time, NEVER if none) and `outcome`; `log` (max_turns x
    MAX_PLAYERS, or empty) receives every turn's passes when tracing.
    """
    hands = unowned(hands, (hands.shape[0], N_VALUES))
    views = unowned(views, (views.shape[0], V.SIZE))
    memory = unowned(memory, (memory.shape[0], MEMORY_SIZE))
    params = unowned(params, (params.shape[0], MAX_PARAMS))
    model = unowned(model, (model.shape[0], M.COLUMNS))
    rngs = unowned(rngs, (rngs.shape[0], 1))
    state = unowned(state, (state.shape[0], STATE_WIDTH))
    table = seat_table(strats)
    recording = log.shape[0] > 0
    for s in range(n):
        state[s, SIGNAL] = -1
        state[s, NOTICE] = -1
        state[s, FAULTS] = 0
        state[s, FAULT1] = -1
        state[s, FAULT2] = -1
        copies[s] = NEVER
    first = -1
    known = 0  # players who have signalled or noticed
    t = 0
    while True:
        now = t * beat
        known += _signals(hands, views, state, copies, n, t, now)  # (1)
        if first < 0 and known > 0:
            first = t
        if first >= 0 and t > first:  # (2)
            known += _noticing(model, state, copies, n, t, now, rng)
        if known == n:  # (3)
            loser = _last_to_copy(state, copies, n, rng)
            return _end(outcome, loser, LAST if loser >= 0 else TIE, t, first)
        if t == max_turns:  # (4), M5
            return _end(outcome, -1, STALLED, t, first)
        loser = _tempo(model, state, n, t, rng)  # (5)
        if loser >= 0:
            return _end(outcome, loser, TEMPO, t, first)
        for s in range(n):  # (6), M1
            if state[s, SIGNAL] < 0:
                v = table[s](readonly(hands[s]), readonly(views[s]), readonly(params[s]), memory[s], rngs[s])
                if v < 0 or v >= n or hands[s, v] == 0:
                    err[0] = ILLEGAL
                    err[1] = s
                    err[2] = t
                    err[3] = v
                    return -1
                state[s, PASS] = v
        _move_cards(hands, views, state, n, t)
        if recording:
            for s in range(n):
                log[t, s] = state[s, PASS]
        t += 1


@nb.njit(cache=True, _nrt=False)
def start_round(views, memory, rngs, key, n, round_no, letters):
    """Fresh views, zeroed memory and each seat's random stream for the round dealt from `key`."""
    for s in range(n):
        for i in range(V.SIZE):
            views[s, i] = 0
        for i in range(MEMORY_SIZE):
            memory[s, i] = 0
        views[s, V.PLAYERS] = n
        views[s, V.SEAT] = s
        views[s, V.ROUND] = round_no
        views[s, V.LAST_RECEIVED] = -1
        for j in range(n):
            views[s, V.LETTERS + j] = letters[j]
        rngs[s, 0] = seat_state(key, s)
