"""Pig's fast engine in one module: a game over flat arrays (`play_game`), what it adds to a run's
tally (`add_game`, simkit.stats.tally) and the parallel driver over many games in every rotation
(`play_games`). One module, because numba checks a cached function against its own file only: a
driver cached apart from the engine it inlines could be loaded stale after an edit of the engine.

Game g of a run with seed S draws from key = hand_state(S, g): the start seat, then the dice in
the order rolled; each seat's strategy from seat_state(key, seat). Every rotation of a lineup
replays the same game (the same dice), so strategies compare on the same deals.
"""

import numba as nb
import numpy as np

from simkit.core.blocks import block_range
from simkit.core.lowlevel import arranged, readonly, seat_table
from simkit.core.rng import below, hand_state, seat_state
from simkit.stats.tally import (
    TALLY,
    buffers,
    counting,
    deal_end,
    flush,
    replay_end,
    seat_adds,
    seat_count,
    table_adds_at,
    table_count,
)

from . import view as V
from .rules import FACES, HOLD, MAX_PLAYERS, ROLL
from .strategy import LINEUP

# a game's outcome: scalars, then per-seat blocks of MAX_PLAYERS
WINNER = 0  # the seat that reached the goal, -1 if capped (P4)
TURNS = 1   # turns played
START = 2   # the seat that began (P1)
SCORE = 4   # per seat: points banked
BUSTS = SCORE + MAX_PLAYERS  # per seat: turns lost to a 1 (P2)
ROLLS = BUSTS + MAX_PLAYERS  # per seat: dice rolled
OUTCOME_SIZE = ROLLS + MAX_PLAYERS
NO_ERROR = np.iinfo(np.int64).max
ERR_WIDTH = 4  # rotation, game (NO_ERROR: none), seat, what it answered

_GAMES_SIG = nb.void(LINEUP, nb.int64[:, ::1], nb.float64[:, :, ::1], nb.int64, nb.int64, nb.int64, nb.uint64,
                     nb.int64, nb.int64, nb.int64[:, :, ::1], nb.int64[:, ::1], TALLY)


@nb.njit(cache=True, _nrt=False)
def play_game(strats, params, n, goal, max_turns, start, dice, rngs, view, out):
    """One game to its end (P1-P4) from `dice` after the start seat's draw: the outcome into `out`.
    Returns -1 when all went well, else the seat whose answer was neither HOLD nor ROLL (its answer
    in out[WINNER], the turn in out[TURNS])."""
    table = seat_table(strats)
    shown = readonly(view)
    out[:] = 0
    out[WINNER] = -1
    out[START] = start
    view[:] = 0
    view[V.PLAYERS] = n
    view[V.GOAL] = goal
    seat = start
    for turn in range(max_turns):
        total = 0
        rolls = 0
        while True:
            face = 1 + below(dice, FACES)
            rolls += 1
            if face == 1:
                out[BUSTS + seat] += 1
                total = 0
                break
            total += face
            if view[V.SCORES + seat] + total >= goal:
                break
            view[V.SEAT], view[V.TOTAL], view[V.ROLLS], view[V.TURN] = seat, total, rolls, turn
            said = table[seat](shown, readonly(params[seat]), rngs[seat])
            if said == HOLD:
                break
            if said != ROLL:
                out[WINNER], out[TURNS] = said, turn
                return seat
        out[ROLLS + seat] += rolls
        view[V.SCORES + seat] += total
        out[SCORE + seat] = view[V.SCORES + seat]
        out[TURNS] = turn + 1
        if view[V.SCORES + seat] >= goal:
            out[WINNER] = seat
            return -1
        seat = seat + 1 if seat + 1 < n else 0
    return -1


@nb.njit(inline="always", cache=True)
def add_game(tally, kept, b, r, n, goal, out):
    """A game in rotation r into the tally: per seat (measures.SEAT) points short of the goal, won,
    busts, rolls; per table (measures.TABLE) won, turns, rolls; the histograms of the points short
    and of the turns."""
    winner = out[WINNER]
    rolls = np.int64(0)
    for s in range(n):
        rolls += out[ROLLS + s]
        short = np.int64(goal - min(out[SCORE + s], goal))
        seat_adds(tally, kept, r, s, 1, (short, np.int64(s == winner), np.int64(out[BUSTS + s]),
                                         np.int64(out[ROLLS + s])))
        seat_count(tally, b, r, s, short)
    table_adds_at(tally, kept, 0, r, 1, (np.int64(winner >= 0), np.int64(out[TURNS]), rolls))
    table_count(tally, b, r, out[TURNS])
    replay_end(tally, kept, r)


@nb.njit(cache=True, _nrt=False)
def _games_range(strats, order, params, n, goal, max_turns, seed, first, lo, hi, outcomes, err, tally, b, kept,
                 dice, rngs, view, out):
    """Games first+lo .. first+hi-1 of block b, each in every rotation before the next; stops at the
    first illegal answer (err)."""
    counted = counting(tally)
    for i in range(lo, hi):
        key = hand_state(seed, first + i)
        dice[0] = key
        start = below(dice, n)
        after = dice[0]
        for r in range(order.shape[0]):
            dice[0] = after
            for s in range(n):
                rngs[s, 0] = seat_state(key, s)
            bad = play_game(arranged(strats, order[r]), params[r], n, goal, max_turns, start, dice, rngs, view, out)
            if bad >= 0:
                err[0], err[1], err[2], err[3] = r, first + i, bad, out[WINNER]
                return
            if outcomes.shape[1] > i:
                for k in range(OUTCOME_SIZE):
                    outcomes[r, i, k] = out[k]
            if counted:
                add_game(tally, kept, b, r, n, goal, out)
        if counted:
            deal_end(tally, kept, b, i)
    if counted:
        flush(tally, kept, b)


@nb.njit(_GAMES_SIG, parallel=True, nogil=True, cache=True)
def play_games(strats, order, params, n, goal, max_turns, seed, first, count, outcomes, errs, tally):
    """Games first..first+count-1 in every rotation r of the lineup (order[r, s]: the function seated
    at s), on all threads in len(errs) blocks: outcome rows into outcomes[r, i] where it has a row
    for game i, each game into the tally (its deal slot i; empty: none). errs[b]: block b's first
    illegal answer (ERR_WIDTH), the game NO_ERROR where there was none."""
    blocks = errs.shape[0]
    for b in nb.prange(blocks):
        lo, hi = block_range(b, blocks, count)
        _games_range(strats, order, params, n, goal, max_turns, seed, first, lo, hi, outcomes, errs[b], tally, b,
                     buffers(tally), np.zeros(1, np.uint64), np.zeros((MAX_PLAYERS, 1), np.uint64),
                     np.zeros(V.SIZE, np.int64), np.zeros(OUTCOME_SIZE, np.int64))
