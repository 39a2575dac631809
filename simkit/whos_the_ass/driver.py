"""Drivers over many hands: parallel play for statistics, serial play with logs for traces.

Hand i always starts from rng.hand_state(seed, i), so any split into chunks or threads gives
bit-identical results.
"""

import numba as nb
import numpy as np

from simkit.blocks import block_range
from simkit.rng import hand_state, match_seed
from simkit.tally import ROWS, TALLY, add_rows, buffers, counting
from simkit.whos_the_ass import view as V
from simkit.whos_the_ass.deal import STACK_DTYPE, STACK_SIZE, deal
from simkit.whos_the_ass.engine import ERR_WIDTH, LOG_WIDTH, penalty_of, play, seed_seats
from simkit.whos_the_ass.measures import hand_rows, match_rows
from simkit.whos_the_ass.rules import MAX_PLAYERS, N_CODES
from simkit.whos_the_ass.strategy import LINEUP

_PARAMS = nb.float64[:, ::1]
_PLAY_SIG = nb.int64[:, ::1](
    LINEUP, _PARAMS, nb.int64, nb.int64, nb.uint64, nb.int64,
    nb.int16[:, ::1], nb.int16[::1], nb.int8[::1], nb.int64, TALLY,
)
_MATCH_SIG = nb.int64[:, ::1](
    LINEUP, _PARAMS, nb.int64, nb.int64, nb.uint64, nb.int64, nb.int64, nb.int64,
    nb.int64[:, ::1], nb.int64[::1], nb.int64, TALLY,
)
_TRACE_SIG = nb.void(
    LINEUP, _PARAMS, nb.int64, nb.int64, nb.uint64, nb.int64,
    nb.int64[:, :, ::1], nb.int64[:, :, ::1], nb.int64[:, :, ::1], nb.int64[::1], nb.int64[::1],
)

NO_ERROR = np.iinfo(np.int64).max


@nb.njit(cache=True)
def _play_range(strats, params, n, ass_joker, seed, first, lo, hi, penalties, tricks, ass_end, err):
    """Hands first+lo .. first+hi-1 into rows lo..hi-1; stops at the first illegal move."""
    hands = np.zeros((MAX_PLAYERS, N_CODES), dtype=np.int64)
    view = np.zeros(V.SIZE, dtype=np.int64)
    stack = np.zeros(STACK_SIZE, dtype=STACK_DTYPE)
    rng = np.zeros(1, dtype=np.uint64)
    rngs = np.zeros((MAX_PLAYERS, 1), dtype=np.uint64)
    scores = np.zeros(MAX_PLAYERS, dtype=np.int64)
    log = np.zeros((0, LOG_WIDTH), dtype=np.int64)
    e = np.zeros(ERR_WIDTH, dtype=np.int64)
    for r in range(lo, hi):
        rng[0] = hand_state(seed, first + r)
        seed_seats(rngs, rng[0], n)
        leader = deal(hands, stack, n, rng)
        t = play(strats, params, n, ass_joker, leader, hands, view, rngs, scores, 0, log, e)
        if t < 0:
            err[0] = first + r
            err[1:] = e
            return
        tricks[r] = t
        ass_end[r] = view[V.ASS_HOLDER]
        for s in range(n):
            penalties[r, s] = penalty_of(hands[s])


@nb.njit(cache=True)
def _tally_hands(penalties, ass_end, tricks, lo, hi, tally, b):
    """Block b's hands lo..hi-1 (deal slots lo..hi-1) into the tally, while they are in the cache."""
    slot, seat, table, kept = buffers(tally, penalties.shape[1])
    for at in range(lo, hi, ROWS):
        count = min(ROWS, hi - at)
        hand_rows(penalties, ass_end, tricks, at, count, slot, seat, table)
        add_rows(tally, b, slot, seat, table, count, kept)


@nb.njit(_PLAY_SIG, parallel=True, nogil=True, cache=True)
def play_hands(strats, params, n, ass_joker, seed, first, penalties, tricks, ass_end, blocks, tally):
    """Play len(tricks) hands, hands `first`.. of the run, on all threads in `blocks` blocks;
    hand r is deal slot r of the tally (simkit.tally; empty: none), added block by block.

    Returns an error table, one row per block: (failing hand or NO_ERROR, status, seat, trick,
    action, phase); the lowest failing hand is the same whatever the blocking.
    """
    count = tricks.shape[0]
    errs = np.full((blocks, 1 + ERR_WIDTH), NO_ERROR, dtype=np.int64)
    for b in nb.prange(blocks):
        lo, hi = block_range(b, blocks, count)
        _play_range(strats, params, n, ass_joker, seed, first, lo, hi, penalties, tricks, ass_end, errs[b])
        if counting(tally) and errs[b, 0] == NO_ERROR:
            _tally_hands(penalties, ass_end, tricks, lo, hi, tally, b)
    return errs


@nb.njit(_TRACE_SIG, cache=True)
def trace_hands(strats, params, n, ass_joker, seed, first, deals, finals, logs, tricks, err):
    """Play hands serially, keeping each deal, final hands and trick log (for traces)."""
    view = np.zeros(V.SIZE, dtype=np.int64)
    stack = np.zeros(STACK_SIZE, dtype=STACK_DTYPE)
    rng = np.zeros(1, dtype=np.uint64)
    rngs = np.zeros((MAX_PLAYERS, 1), dtype=np.uint64)
    scores = np.zeros(MAX_PLAYERS, dtype=np.int64)
    hands = np.zeros((MAX_PLAYERS, N_CODES), dtype=np.int64)
    e = np.zeros(ERR_WIDTH, dtype=np.int64)
    for r in range(tricks.shape[0]):
        rng[0] = hand_state(seed, first + r)
        seed_seats(rngs, rng[0], n)
        leader = deal(hands, stack, n, rng)
        deals[r] = hands
        t = play(strats, params, n, ass_joker, leader, hands, view, rngs, scores, 0, logs[r], e)
        if t < 0:
            err[0] = first + r
            err[1:] = e
            return
        tricks[r] = t
        finals[r] = hands


@nb.njit(cache=True)
def _match_range(strats, params, n, ass_joker, seed, first, hands_per_match, threshold, lo, hi,
                 totals, lengths, err):
    hands = np.zeros((MAX_PLAYERS, N_CODES), dtype=np.int64)
    view = np.zeros(V.SIZE, dtype=np.int64)
    stack = np.zeros(STACK_SIZE, dtype=STACK_DTYPE)
    rng = np.zeros(1, dtype=np.uint64)
    rngs = np.zeros((MAX_PLAYERS, 1), dtype=np.uint64)
    log = np.zeros((0, LOG_WIDTH), dtype=np.int64)
    e = np.zeros(ERR_WIDTH, dtype=np.int64)
    for r in range(lo, hi):
        ms = match_seed(seed, first + r)
        scores = totals[r]
        scores[:] = 0
        j = 0
        while True:
            rng[0] = hand_state(ms, j)
            seed_seats(rngs, rng[0], n)
            leader = deal(hands, stack, n, rng)
            if play(strats, params, n, ass_joker, leader, hands, view, rngs, scores, j, log, e) < 0:
                err[0] = first + r
                err[1:] = e
                return
            for s in range(n):
                scores[s] += penalty_of(hands[s])
            j += 1
            if hands_per_match > 0 and j >= hands_per_match:
                break
            if threshold > 0 and scores[:n].max() >= threshold:
                break
        lengths[r] = j


@nb.njit(cache=True)
def _tally_matches(totals, lengths, lo, hi, tally, b):
    """Block b's matches lo..hi-1 (deal slots lo..hi-1) into the tally."""
    slot, seat, table, kept = buffers(tally, totals.shape[1])
    for at in range(lo, hi, ROWS):
        count = min(ROWS, hi - at)
        match_rows(totals, lengths, at, count, slot, seat, table)
        add_rows(tally, b, slot, seat, table, count, kept)


@nb.njit(_MATCH_SIG, parallel=True, nogil=True, cache=True)
def play_matches(strats, params, n, ass_joker, seed, first, hands_per_match, threshold, totals,
                 lengths, blocks, tally):
    """W18: matches `first`.., each of `hands_per_match` hands or until a total reaches
    `threshold` (whichever is set, >0). Fills the totals and hands played (and the tally: match
    r is deal slot r); errors as play_hands."""
    count = lengths.shape[0]
    errs = np.full((blocks, 1 + ERR_WIDTH), NO_ERROR, dtype=np.int64)
    for b in nb.prange(blocks):
        lo, hi = block_range(b, blocks, count)
        _match_range(strats, params, n, ass_joker, seed, first, hands_per_match, threshold, lo, hi,
                     totals, lengths, errs[b])
        if counting(tally) and errs[b, 0] == NO_ERROR:
            _tally_matches(totals, lengths, lo, hi, tally, b)
    return errs



_DEALT_SIG = nb.int64(
    LINEUP, _PARAMS, nb.int64, nb.int64, nb.int64[:, ::1], nb.uint64, nb.int64[:, ::1], nb.int64[::1],
)


@nb.njit(_DEALT_SIG, cache=True)
def play_dealt(strats, params, n, ass_joker, hands, key, log, err):
    """Play one given deal (hands is changed into the final hands); for positions set up by hand,
    with the seats' random streams drawn from `key`. Returns the number of tricks, or -1."""
    view = np.zeros(V.SIZE, dtype=np.int64)
    rngs = np.zeros((MAX_PLAYERS, 1), dtype=np.uint64)
    seed_seats(rngs, key, n)
    scores = np.zeros(MAX_PLAYERS, dtype=np.int64)
    leader = 0
    for s in range(n):
        if hands[s, 0] > 0:
            leader = s  # W6
    return play(strats, params, n, ass_joker, leader, hands, view, rngs, scores, 0, log, err)
