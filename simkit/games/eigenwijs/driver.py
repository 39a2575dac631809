"""Drivers over many games: parallel play for statistics, logged games for traces.

Game g of a run with seed S draws from key = rng.hand_state(S, g) (H8), so any split into chunks
or threads gives bit-identical results. The parallel driver plays each game in every rotation of
the lineup (order[r, s]: the lineup entry seated at s in rotation r; params and model per
rotation) before the next, and adds it to the tally (simkit.stats.tally) as it is played.
"""

import numba as nb
import numpy as np

from simkit.core.blocks import block_range
from simkit.core.lowlevel import arranged
from simkit.core.rng import below, hand_state
from simkit.games.eigenwijs import view as V
from simkit.games.eigenwijs.engine import (
    DECK_DTYPE,
    ERR_WIDTH,
    OUTCOME_SIZE,
    deal,
    play_game,
    start_game,
)
from simkit.games.eigenwijs.measures import add_game
from simkit.games.eigenwijs.rules import DECK_MAX, MAX_PILES, MAX_PLAYERS
from simkit.games.eigenwijs.strategy import LINEUP
from simkit.stats.tally import TALLY, buffers, counting, deal_end, flush

# the rules as the engine takes them: players, piles, chicks, precies, rotating, colours, hesitation, max_turns
_RULES = (nb.int64, nb.int64, nb.boolean, nb.boolean, nb.boolean, nb.int64, nb.float64, nb.int64)
_GAMES_SIG = nb.int64[:, ::1](
    LINEUP, nb.int64[:, ::1], nb.float64[:, :, ::1], nb.float64[:, :, ::1], *_RULES, nb.int8[::1],
    nb.uint64, nb.int64, nb.int64, nb.int64[:, :, ::1], nb.int64, TALLY,
)
_LOGGED_SIG = nb.int64(
    LINEUP, nb.float64[:, ::1], nb.float64[:, ::1], *_RULES, nb.int8[::1], nb.uint64, nb.int64,
    nb.int8[:, ::1], nb.int64[::1], nb.int64[:, ::1], nb.float64[:, ::1], nb.int64[::1], nb.int64[::1],
)

NO_ERROR = np.iinfo(np.int64).max
ERR_ROW = 1 + ERR_WIDTH  # the game, then the engine's err row (a driver's table has the rotation first)


@nb.njit(cache=True)
def _scratch():
    """Per-thread working arrays: stacks, heads, sizes, piles, pile sizes, the shuffled deck, the
    dealt stacks, view, seat streams, the game's generator, slap times, outcome, err, no log."""
    return (np.zeros((MAX_PLAYERS, DECK_MAX), DECK_DTYPE), np.zeros(MAX_PLAYERS, np.int64),
            np.zeros(MAX_PLAYERS, np.int64), np.zeros((MAX_PILES, DECK_MAX), DECK_DTYPE),
            np.zeros(MAX_PILES, np.int64), np.zeros(DECK_MAX, DECK_DTYPE),
            np.zeros((MAX_PLAYERS, DECK_MAX), DECK_DTYPE), np.zeros(V.SIZE, np.int64),
            np.zeros((MAX_PLAYERS, 1), np.uint64), np.zeros(1, np.uint64), np.zeros(MAX_PLAYERS, np.float64),
            np.zeros(OUTCOME_SIZE, np.int64), np.zeros(ERR_WIDTH, np.int64),
            np.zeros((0, 0), np.int64), np.zeros((0, 0), np.float64))


@nb.njit(inline="always", cache=True)
def _deal_game(deck, seed_key, n, cards, dealt, heads, sizes, rng):
    """Game from `seed_key`: dealt into `dealt` (E3), then its start seat (E4); returns the cards
    per seat and the start seat, `rng` left after both draws (H8)."""
    rng[0] = seed_key
    per = deal(deck, cards, dealt, heads, sizes, n, rng)
    return per, below(rng, n)


@nb.njit(inline="always", cache=True)
def _stacks_as_dealt(stacks, heads, sizes, dealt, n, per):
    """Every seat's stack as dealt (`per` cards, top first): a game's start, in every rotation."""
    for s in range(n):
        heads[s] = 0
        sizes[s] = per
        for k in range(per):
            stacks[s, k] = dealt[s, k]


@nb.njit(cache=True, _nrt=False)
def _games_range(strats, order, params, model, n, n_piles, chicks, precies, rotating, colours, hesitation, max_turns,
                 deck, seed, first, lo, hi, outcomes, err, tally, b, scratch, kept):
    """Games first+lo .. first+hi-1, each dealt once and played in every rotation r, their outcome
    rows into outcomes[r, i] and each game into the tally (as block b, its buffers `kept`) once
    played in every rotation; stops at the first illegal response (err: rotation, game, the
    engine's row). In arrays made beforehand (`_scratch`), without numba's reference counting."""
    stacks, heads, sizes, piles, pile_sizes, cards, dealt, view, rngs, rng, slaps, outcome, e, log, flog = scratch
    counted = counting(tally)
    for i in range(lo, hi):
        key = hand_state(seed, first + i)
        per, start = _deal_game(deck, key, n, cards, dealt, heads, sizes, rng)
        after = rng[0]
        for r in range(order.shape[0]):
            _stacks_as_dealt(stacks, heads, sizes, dealt, n, per)
            rng[0] = after
            start_game(rngs, key, n)
            if play_game(arranged(strats, order[r]), params[r], model[r], n, n_piles, chicks, precies, rotating,
                         colours, hesitation, max_turns, stacks, heads, sizes, piles, pile_sizes, start, view, rngs,
                         rng, slaps, outcome, log, flog, e) < 0:
                err[0], err[1] = r, first + i
                for k in range(ERR_WIDTH):
                    err[2 + k] = e[k]
                return
            if outcomes.shape[1] > i:
                for k in range(OUTCOME_SIZE):
                    outcomes[r, i, k] = outcome[k]
            if counted:
                add_game(tally, kept, b, r, n, outcome)
        if counted:
            deal_end(tally, kept, b, i)
    if counted:
        flush(tally, kept, b)


@nb.njit(_GAMES_SIG, parallel=True, nogil=True, cache=True)
def play_games(strats, order, params, model, n, n_piles, chicks, precies, rotating, colours, hesitation, max_turns,
               deck, seed, first, count, outcomes, blocks, tally):
    """Play games first..first+count-1 in every rotation r of the lineup, into outcomes[r, i]
    (OUTCOME_SIZE each, where outcomes has a row for the game: none kept where it has none), on
    all threads in `blocks` blocks, each game in every rotation before the next; game i is deal
    slot i of the tally (simkit.stats.tally; empty: none). Returns an error table, one row
    per block: (rotation, failing game or NO_ERROR, status, seat, turn, response); the first
    failure in (game, rotation) order is the same whatever the blocking."""
    errs = np.full((blocks, 1 + ERR_ROW), NO_ERROR, dtype=np.int64)
    for b in nb.prange(blocks):
        lo, hi = block_range(b, blocks, count)
        _games_range(strats, order, params, model, n, n_piles, chicks, precies, rotating, colours, hesitation,
                     max_turns, deck, seed, first, lo, hi, outcomes, errs[b], tally, b, _scratch(), buffers(tally))
    return errs


@nb.njit(_LOGGED_SIG, nogil=True, cache=True)
def play_logged(strats, params, model, n, n_piles, chicks, precies, rotating, colours, hesitation, max_turns, deck,
                seed, number, dealt, start, log, flog, outcome, err):
    """Game `number` with every turn logged, for traces: `dealt` receives the deal (seat by seat,
    top card first), start[0] the start seat, `log` and `flog` (max_turns rows) the turns.
    Returns the turns played, or -1 with `err` set."""
    stacks, heads, sizes, piles, pile_sizes, cards, _, view, rngs, rng, slaps, _, _, _, _ = _scratch()
    key = hand_state(seed, number)
    per, first = _deal_game(deck, key, n, cards, dealt, heads, sizes, rng)
    start[0] = first
    _stacks_as_dealt(stacks, heads, sizes, dealt, n, per)
    start_game(rngs, key, n)
    return play_game(strats, params, model, n, n_piles, chicks, precies, rotating, colours, hesitation, max_turns,
                     stacks, heads, sizes, piles, pile_sizes, first, view, rngs, rng, slaps, outcome, log, flog, err)

