"""Drivers over many rounds: parallel play for statistics, logged rounds (in batches) for traces.

Round j of match m in a run with seed S draws from key = rng.hand_state(rng.match_seed(S, m), j),
so any split into chunks or threads gives bit-identical results. A run of single rounds plays
round 0 of matches first, first+1, … (so its rounds are the first rounds of the same run's
matches). The parallel drivers play each deal in every rotation of the lineup (order[r, s]: the
lineup entry seated at s in rotation r; params and model per rotation) before the next, and add
it to the tally (simkit.stats.tally) as it is played.
"""

import numba as nb
import numpy as np

from simkit.core.blocks import block_range
from simkit.core.lowlevel import arranged, copy_rows, put
from simkit.core.rng import hand_state, match_seed
from simkit.games.ezelen import view as V
from simkit.games.ezelen.deal import DECK_MAX, STACK_DTYPE, deal
from simkit.games.ezelen.engine import (
    ERR_WIDTH,
    FIRST_SIGNAL,
    LOSER,
    OUTCOME_SIZE,
    REASON,
    STATE_WIDTH,
    TURNS,
    play_round,
    start_round,
)
from simkit.games.ezelen.measures import add_match_end, add_round, add_rounds
from simkit.games.ezelen.rules import DONKEY_AT, MAX_PLAYERS, N_VALUES
from simkit.games.ezelen.strategy import LINEUP, MEMORY_SIZE
from simkit.stats.tally import DEALS, TALLY, TALLY_WIDE, buffers, counting, deal_end, flush

_F2 = nb.float64[:, ::1]
_ROTATED = (nb.int64[:, ::1], nb.float64[:, :, ::1], nb.float64[:, :, ::1])  # order[r, s], params, model [r, s, :]
_ROUNDS_SIG = nb.int64[:, ::1](
    LINEUP, *_ROTATED, nb.int64, nb.float64, nb.int64, nb.uint64, nb.int64,
    nb.int8[:, ::1], nb.int8[:, ::1], nb.int32[:, ::1], nb.int32[:, ::1], nb.int64, TALLY,
)
_MATCHES_SIG = nb.int64[:, ::1](
    LINEUP, *_ROTATED, nb.int64, nb.float64, nb.int64, nb.int64, nb.uint64, nb.int64,
    nb.int8[:, ::1], nb.int64[:, ::1], nb.int8[:, :, ::1], nb.int64[:, :, ::1], nb.int64[:, ::1],
    nb.int8[::1], nb.int8[::1], nb.int32[::1], nb.int32[::1], nb.int64, TALLY_WIDE,
)
_LOGGED_SIG = nb.int64(
    LINEUP, _F2, _F2, nb.int64, nb.float64, nb.int64, nb.uint64[::1], nb.boolean, nb.boolean, nb.int64,
    nb.int64[::1], nb.int64[:, :, ::1], nb.int64[:, :, ::1], nb.int64[:, :, ::1], nb.float64[:, ::1],
    nb.int64[:, ::1], nb.int64[::1],
)

NO_ERROR = np.iinfo(np.int64).max
ERR_ROW = 2 + ERR_WIDTH  # match, round, then the engine's err row (a driver's table has the rotation first)


@nb.njit(cache=True)
def _scratch():
    """Per-thread working arrays: hands, views, memory, seat streams, stack, round state, copy
    times, outcome, err."""
    return (np.zeros((MAX_PLAYERS, N_VALUES), dtype=np.int64), np.zeros((MAX_PLAYERS, V.SIZE), dtype=np.int64),
            np.zeros((MAX_PLAYERS, MEMORY_SIZE), dtype=np.int64), np.zeros((MAX_PLAYERS, 1), dtype=np.uint64),
            np.zeros(DECK_MAX, dtype=STACK_DTYPE), np.zeros((MAX_PLAYERS, STATE_WIDTH), dtype=np.int64),
            np.zeros(MAX_PLAYERS, dtype=np.float64), np.zeros(OUTCOME_SIZE, dtype=np.int64),
            np.zeros(ERR_WIDTH, dtype=np.int64))


@nb.njit(cache=True)
def _round_scratch():
    """`_scratch`, with the deal as dealt, the round's generator, no letters and no log."""
    hands, views, memory, rngs, stack, state, copies, outcome, e = _scratch()
    return (hands, views, memory, rngs, stack, state, copies, outcome, e, np.zeros_like(hands),
            np.zeros(1, dtype=np.uint64), np.zeros(MAX_PLAYERS, dtype=np.int64),
            np.zeros((0, MAX_PLAYERS), dtype=np.int64))


@nb.njit(cache=True, _nrt=False)
def _rounds_range(strats, order, params, model, n, beat, max_turns, seed, first, lo, hi, loser, reason, turns,
                  first_signal, err, tally, b, scratch, kept):
    """Rounds first+lo .. first+hi-1, each dealt once and played in every rotation r, into
    [r, lo..hi-1], and each into the tally (as block b, its buffers `kept`) once played in every
    rotation; stops at the first illegal move (err: rotation, round, 0, the engine's row). In
    arrays made beforehand (`_round_scratch`), without numba's reference counting (see
    simkit.stats.tally)."""
    hands, views, memory, rngs, stack, state, copies, outcome, e, dealt, rng, letters, log = scratch
    counted, since = counting(tally), lo
    for i in range(lo, hi):
        key = hand_state(match_seed(seed, first + i), 0)
        rng[0] = key
        deal(dealt, stack, n, rng)
        after = rng[0]  # the round's generator once dealt
        for r in range(order.shape[0]):
            copy_rows(hands, dealt)
            rng[0] = after
            start_round(views, memory, rngs, key, n, 0, letters)
            if play_round(arranged(strats, order[r]), params[r], model[r], n, beat, max_turns, hands, views, memory,
                          rngs, rng, state, copies, outcome, log, e) < 0:
                err[0], err[1], err[2] = r, first + i, 0
                put(err, 3, e)
                return
            loser[r, i] = outcome[LOSER]
            reason[r, i] = outcome[REASON]
            turns[r, i] = outcome[TURNS]
            first_signal[r, i] = outcome[FIRST_SIGNAL]
        if counted and (i + 1 - since == DEALS or i + 1 == hi):  # the rounds since the last fold, at once
            add_rounds(loser, reason, first_signal, turns, since, i + 1, tally, kept, b)
            since = i + 1
    if counted:
        flush(tally, kept, b)


@nb.njit(_ROUNDS_SIG, parallel=True, nogil=True, cache=True)
def play_rounds(strats, order, params, model, n, beat, max_turns, seed, first, loser, reason, turns, first_signal,
                blocks, tally):
    """Play single rounds (turns.shape[1] of them) in every rotation r of the lineup, into
    loser[r], reason[r], turns[r], first_signal[r], on all threads in `blocks` blocks, each round
    in every rotation before the next; round i is deal slot i of the tally (simkit.stats.tally; empty:
    none), added as it is played. Returns an error table, one row per block: (rotation, failing
    round or NO_ERROR, 0, status, seat, turn, value); the first failure in (round, rotation)
    order is the same whatever the blocking."""
    count = turns.shape[1]
    errs = np.full((blocks, 1 + ERR_ROW), NO_ERROR, dtype=np.int64)
    for b in nb.prange(blocks):
        lo, hi = block_range(b, blocks, count)
        _rounds_range(strats, order, params, model, n, beat, max_turns, seed, first, lo, hi, loser, reason, turns,
                      first_signal, errs[b], tally, b, _round_scratch(), buffers(tally))
    return errs


@nb.njit(cache=True, _nrt=False)
def _matches_range(strats, order, params, model, n, beat, max_turns, max_rounds, seed, first, lo, hi, donkey,
                   rounds, letters, reasons, offsets, loser_of, reason_of, turns_of, first_signal_of, err, tally, b,
                   scratch, kept):
    """Matches first+lo .. first+hi-1, each in every rotation r; with offsets[r] not empty also
    every round of match m into rows offsets[r, m].. of the per-round arrays. Match m is deal
    slot m of the tally (its buffers `kept`): its rounds and its end are added as they are
    played. In arrays made beforehand (`_round_scratch`: its letters are the match's, held so far),
    without numba's reference counting (see simkit.stats.tally)."""
    hands, views, memory, rngs, stack, state, copies, outcome, e, _, rng, held, log = scratch
    counted = counting(tally)
    for m in range(lo, hi):
        ms = match_seed(seed, first + m)
        for r in range(order.shape[0]):
            lineup = arranged(strats, order[r])
            held[:] = 0
            donkey[r, m] = -1
            j = 0
            while j < max_rounds:  # Z7: deal again until somebody spells E-Z-E-L
                key = hand_state(ms, j)
                rng[0] = key
                deal(hands, stack, n, rng)
                start_round(views, memory, rngs, key, n, j, held)
                if play_round(lineup, params[r], model[r], n, beat, max_turns, hands, views, memory, rngs, rng,
                              state, copies, outcome, log, e) < 0:
                    err[0], err[1], err[2] = r, first + m, j
                    put(err, 3, e)
                    return
                if offsets.shape[1] > 0:
                    row = offsets[r, m] + j
                    loser_of[row] = outcome[LOSER]
                    reason_of[row] = outcome[REASON]
                    turns_of[row] = outcome[TURNS]
                    first_signal_of[row] = outcome[FIRST_SIGNAL]
                if counted:
                    add_round(tally, kept, b, r, outcome[LOSER], outcome[REASON], outcome[FIRST_SIGNAL],
                              outcome[TURNS])
                j += 1
                reasons[r, m, outcome[REASON]] += 1
                loser = outcome[LOSER]
                if loser >= 0:
                    held[loser] += 1
                    if held[loser] == DONKEY_AT:
                        donkey[r, m] = loser
                        break
            rounds[r, m] = j
            for s in range(n):
                letters[r, m, s] = held[s]
            if counted:
                add_match_end(tally, kept, r, j, donkey[r, m], letters[r, m])
        if counted:
            deal_end(tally, kept, b, m)
    if counted:
        flush(tally, kept, b)


@nb.njit(_MATCHES_SIG, parallel=True, nogil=True, cache=True)
def play_matches(strats, order, params, model, n, beat, max_turns, max_rounds, seed, first, donkey, rounds, letters,
                 reasons, offsets, loser_of, reason_of, turns_of, first_signal_of, blocks, tally):
    """Z7: matches `first`.., each until somebody has four letters (donkey -1 if `max_rounds`
    rounds pass first), each in every rotation r of the lineup before the next (the first axis
    of donkey, rounds, letters, reasons and offsets: with offsets[r] not empty, every round of
    match m goes to rows offsets[r, m].. of the per-round arrays); match m is deal slot m of the
    tally (simkit.stats.tally, wide; empty: none). Errors as play_rounds, with the round in the third
    column."""
    count = rounds.shape[1]
    errs = np.full((blocks, 1 + ERR_ROW), NO_ERROR, dtype=np.int64)
    for b in nb.prange(blocks):
        lo, hi = block_range(b, blocks, count)
        _matches_range(strats, order, params, model, n, beat, max_turns, max_rounds, seed, first, lo, hi, donkey,
                       rounds, letters, reasons, offsets, loser_of, reason_of, turns_of, first_signal_of, errs[b],
                       tally, b, _round_scratch(), buffers(tally))
    return errs


@nb.njit(_LOGGED_SIG, nogil=True, cache=True)
def play_logged(strats, params, model, n, beat, max_turns, keys, deal_given, in_match, round0, letters, dealt, logs,
                states, copies, outcomes, err):
    """Rounds i = 0.. from keys[i], each with its passes logged, for traces. Single rounds
    (`in_match` false) are each round `round0` with `letters`; rounds of a match are rounds
    round0, round0+1, … that add to `letters` and stop after the one that makes a donkey.
    `dealt[i]` receives each deal, or holds it already when `deal_given`. Returns the rounds
    played, or -1 with `err` set (round i in err[0], the engine's row after it)."""
    hands, views, memory, rngs, stack, _, _, _, e = _scratch()
    rng = np.zeros(1, dtype=np.uint64)
    for i in range(keys.shape[0]):
        rng[0] = keys[i]
        if not deal_given:
            deal(dealt[i], stack, n, rng)
        hands[:] = dealt[i]
        round_no = round0 + i if in_match else round0
        start_round(views, memory, rngs, keys[i], n, round_no, letters)
        if play_round(strats, params, model, n, beat, max_turns, hands, views, memory, rngs, rng, states[i], copies[i],
                      outcomes[i], logs[i], e) < 0:
            err[0] = i
            err[1:] = e
            return -1
        loser = outcomes[i, LOSER]
        if in_match and loser >= 0:
            letters[loser] += 1
            if letters[loser] == DONKEY_AT:
                return i + 1
    return keys.shape[0]
