"""Drivers over many hands: parallel play for statistics, serial play with logs for traces.

Hand i always starts from rng.hand_state(seed, i), so any split into chunks or threads gives
bit-identical results. The parallel drivers play each deal in every rotation of the lineup
(order[r, s]: the lineup entry seated at s in rotation r) before the next, and add it to the
tally (simkit.stats.tally) while its results are in the cache.
"""

import numba as nb
import numpy as np

from simkit.core.blocks import block_range
from simkit.core.lowlevel import arranged, copy_rows, put
from simkit.core.rng import hand_state, match_seed
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.alone import PLAY_ALONE
from simkit.games.whos_the_ass.deal import STACK_DTYPE, STACK_SIZE, deal
from simkit.games.whos_the_ass.engine import ERR_WIDTH, LOG_WIDTH, penalty_of, play, seed_seats, start
from simkit.games.whos_the_ass.features import count_features
from simkit.games.whos_the_ass.hand import HAND_WIDTH
from simkit.games.whos_the_ass.measures import add_hands, add_match
from simkit.games.whos_the_ass.rules import MAX_PLAYERS
from simkit.games.whos_the_ass.strategy import LINEUP
from simkit.stats.deal_fold import FOLD, add_deal, features_of, folding
from simkit.stats.tally import DEALS, TALLY, TALLY_WIDE, buffers, counting, flush

_PARAMS = nb.float64[:, ::1]
_ROTATED = (nb.int64[:, ::1], nb.float64[:, :, ::1])  # order[r, s], params[r, s, :]
_ALONE = (PLAY_ALONE, nb.int64)  # (whos_the_ass.alone) the loop of a one-strategy table, and whether to use it
_PLAY_SIG = nb.int64[:, ::1](
    LINEUP, *_ROTATED, *_ALONE, nb.int64, nb.int64, nb.uint64, nb.int64,
    nb.int16[:, :, ::1], nb.int16[:, ::1], nb.int8[:, ::1], FOLD, nb.int64, TALLY,
)
_MATCH_SIG = nb.int64[:, ::1](
    LINEUP, *_ROTATED, *_ALONE, nb.int64, nb.int64, nb.uint64, nb.int64, nb.int64, nb.int64,
    nb.int64[:, :, ::1], nb.int64[:, ::1], nb.int64, TALLY_WIDE,
)
_TRACE_SIG = nb.void(
    LINEUP, _PARAMS, nb.int64, nb.int64, nb.uint64, nb.int64,
    nb.int64[:, :, ::1], nb.int64[:, :, ::1], nb.int64[:, :, ::1], nb.int64[::1], nb.int64[::1],
)

NO_ERROR = np.iinfo(np.int64).max
ERR_ROW = 2 + ERR_WIDTH  # rotation, hand (or match), then the engine's err row


@nb.njit(cache=True)
def _scratch():
    """A block's working arrays: hands, view, stack, rng, seat streams, scores, (no) log, err,
    the deal as dealt."""
    return (np.zeros((MAX_PLAYERS, HAND_WIDTH), dtype=np.int64), np.zeros(V.SIZE, dtype=np.int64),
            np.zeros(STACK_SIZE, dtype=STACK_DTYPE), np.zeros(1, dtype=np.uint64),
            np.zeros((MAX_PLAYERS, 1), dtype=np.uint64), np.zeros(MAX_PLAYERS, dtype=np.int64),
            np.zeros((0, LOG_WIDTH), dtype=np.int64), np.zeros(ERR_WIDTH, dtype=np.int64),
            np.zeros((MAX_PLAYERS, HAND_WIDTH), dtype=np.int64))


@nb.njit(inline="always", cache=True)
def _play_seating(strats, order, params, whole, alone, r, n, ass_joker, leader, hands, view, rngs, scores, hand_no,
                  log, err):
    """Play the dealt hand in seating r: through the lineup, or (`alone`) the whole hand in `whole`."""
    if alone:
        start(hands, view, n, ass_joker, leader, scores, hand_no)
        return whole(params[r], hands, view, rngs, log, err)
    return play(arranged(strats, order[r]), params[r], n, ass_joker, leader, hands, view, rngs, scores, hand_no, log,
                err)


@nb.njit(cache=True, _nrt=False)
def _play_range(strats, order, params, whole, alone, n, ass_joker, seed, first, lo, hi, penalties, tricks, ass_end,
                fold, err, tally, b, scratch, kept):
    """Hands first+lo .. first+hi-1, each dealt once and played in every rotation r, into
    [r, lo..hi-1], and each into the fold of a spec's `by` (unless it is empty) and into the
    tally (as block b, its buffers `kept`) once played in every rotation; stops at the first
    illegal move (err: rotation, hand, the engine's row). In arrays made beforehand
    (`_scratch`), without numba's reference counting (see simkit.stats.tally)."""
    hands, view, stack, rng, rngs, scores, log, e, dealt = scratch
    counted, since = counting(tally), lo
    replayed = order.shape[0] > 1  # one seating plays the deal where it is dealt: no copy
    by = folding(fold)
    for h in range(lo, hi):
        key = hand_state(seed, first + h)
        rng[0] = key
        leader = deal(dealt if replayed else hands, stack, n, rng)
        if by:
            count_features(dealt if replayed else hands, n, features_of(fold, b))
        for r in range(order.shape[0]):
            if replayed:
                copy_rows(hands[:n], dealt[:n])
            seed_seats(rngs, key, n)
            t = _play_seating(strats, order, params, whole, alone, r, n, ass_joker, leader, hands, view, rngs,
                              scores, 0, log, e)
            if t < 0:
                err[0], err[1] = r, first + h
                put(err, 2, e)
                return
            tricks[r, h] = t
            ass_end[r, h] = view[V.ASS_HOLDER]
            for s in range(n):
                penalties[r, h, s] = penalty_of(hands[s])
        if by:
            add_deal(fold, b, penalties, h, features_of(fold, b))
        if counted and (h + 1 - since == DEALS or h + 1 == hi):  # the deals since the last fold, at once
            add_hands(penalties, ass_end, tricks, since, h + 1, tally, kept, b)
            since = h + 1
    if counted:
        flush(tally, kept, b)


@nb.njit(_PLAY_SIG, parallel=True, nogil=True, cache=True)
def play_hands(strats, order, params, whole, alone, n, ass_joker, seed, first, penalties, tricks, ass_end, fold,
               blocks, tally):
    """Play hands `first`.. of the run (tricks.shape[1] of them) in every rotation r of the
    lineup (or, with `alone`, by `whole`: simkit.games.whos_the_ass.alone), into penalties[r], tricks[r],
    ass_end[r] (and into the fold of a spec's `by`, unless it is empty: simkit.stats.deal_fold),
    on all threads in `blocks` blocks, each hand in every rotation before the next;
    hand i is deal slot i of the tally (simkit.stats.tally; empty: none), added as it is played.

    Returns an error table, one row per block: (rotation, failing hand, or NO_ERROR twice, then
    status, seat, trick, action, phase); the first failure in (hand, rotation) order is the same
    whatever the blocking.
    """
    count = tricks.shape[1]
    errs = np.full((blocks, ERR_ROW), NO_ERROR, dtype=np.int64)
    for b in nb.prange(blocks):
        lo, hi = block_range(b, blocks, count)
        _play_range(strats, order, params, whole, alone, n, ass_joker, seed, first, lo, hi, penalties, tricks, ass_end,
                    fold, errs[b], tally, b, _scratch(), buffers(tally))
    return errs


@nb.njit(_TRACE_SIG, nogil=True, cache=True)
def trace_hands(strats, params, n, ass_joker, seed, first, deals, finals, logs, tricks, err):
    """Play hands serially, keeping each deal, final hands and trick log (for traces)."""
    view = np.zeros(V.SIZE, dtype=np.int64)
    stack = np.zeros(STACK_SIZE, dtype=STACK_DTYPE)
    rng = np.zeros(1, dtype=np.uint64)
    rngs = np.zeros((MAX_PLAYERS, 1), dtype=np.uint64)
    scores = np.zeros(MAX_PLAYERS, dtype=np.int64)
    hands = np.zeros((MAX_PLAYERS, HAND_WIDTH), dtype=np.int64)
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


@nb.njit(inline="always", cache=True)
def _reached(scores, n, threshold):
    """Whether a total of the n seats has reached the threshold (W18)."""
    for s in range(n):
        if scores[s] >= threshold:
            return True
    return False


@nb.njit(cache=True, _nrt=False)
def _match_range(strats, order, params, whole, alone, n, ass_joker, seed, first, hands_per_match, threshold, lo, hi,
                 totals, lengths, err, tally, b, scratch, kept):
    """Matches first+lo .. first+hi-1, each in every rotation r, into [r, lo..hi-1], and each
    into the tally (as block b, its buffers `kept`) once played in every rotation; stops at the
    first illegal move (err: rotation, match, the engine's row). In arrays made beforehand,
    without numba's reference counting."""
    hands, view, stack, rng, rngs, _, log, e, _ = scratch
    counted = counting(tally)
    for m in range(lo, hi):
        ms = match_seed(seed, first + m)
        for r in range(order.shape[0]):
            scores = totals[r, m]
            scores[:] = 0
            j = 0
            while True:
                rng[0] = hand_state(ms, j)
                seed_seats(rngs, rng[0], n)
                leader = deal(hands, stack, n, rng)
                if _play_seating(strats, order, params, whole, alone, r, n, ass_joker, leader, hands, view, rngs,
                                 scores, j, log, e) < 0:
                    err[0], err[1] = r, first + m
                    put(err, 2, e)
                    return
                for s in range(n):
                    scores[s] += penalty_of(hands[s])
                j += 1
                if hands_per_match > 0 and j >= hands_per_match:
                    break
                if threshold > 0 and _reached(scores, n, threshold):
                    break
            lengths[r, m] = j
        if counted:
            add_match(totals, lengths, m, tally, kept, b)
    if counted:
        flush(tally, kept, b)


@nb.njit(_MATCH_SIG, parallel=True, nogil=True, cache=True)
def play_matches(strats, order, params, whole, alone, n, ass_joker, seed, first, hands_per_match, threshold, totals,
                 lengths, blocks, tally):
    """W18: matches `first`.., each of `hands_per_match` hands or until a total reaches
    `threshold` (whichever is set, >0), each in every rotation r of the lineup before the next.
    Fills the totals and hands played of each rotation (and the tally: match i is deal slot i);
    errors as play_hands."""
    count = lengths.shape[1]
    errs = np.full((blocks, ERR_ROW), NO_ERROR, dtype=np.int64)
    for b in nb.prange(blocks):
        lo, hi = block_range(b, blocks, count)
        _match_range(strats, order, params, whole, alone, n, ass_joker, seed, first, hands_per_match, threshold, lo, hi,
                     totals, lengths, errs[b], tally, b, _scratch(), buffers(tally))
    return errs


_DEALT_SIG = nb.int64(
    LINEUP, _PARAMS, nb.int64, nb.int64, nb.int64[:, ::1], nb.uint64, nb.int64[:, ::1], nb.int64[::1],
)


@nb.njit(_DEALT_SIG, nogil=True, cache=True)
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
