"""The fast engine: one game of Eigenwijs over flat arrays, compiled with numba.

A game is dealt from its generator (`deal`, E3, the shuffle of H8), then `play_game` plays it
turn by turn (E5–E14) with the model of H2–H6, making the draws of H8 in their order, so the
plain-Python reference engine (simkit.games.eigenwijs.reference) writes the same record. Strategies
are called as `strats[seat](view, params[seat], rngs[seat])`; every response is checked and an
illegal one ends the game with a return code (no exceptions in the hot loop).

State: `stacks[s]` is seat s's stack as a ring (`heads[s]` its top, `sizes[s]` its cards),
`piles[p]` pile p from its bottom card (`pile_sizes[p]` its cards). Cards are small codes
(simkit.games.eigenwijs.rules), kept as int8.
"""

import math

import numba as nb
import numpy as np

from simkit.core.lowlevel import readonly, seat_table
from simkit.core.rng import below, normal, seat_state, uniform
from simkit.games.eigenwijs import model as M
from simkit.games.eigenwijs import view as V
from simkit.games.eigenwijs.cards import chick_open, open_cards, right_response
from simkit.games.eigenwijs.rules import (
    COUNT,
    EMPTY,
    FALSE_SLAP,
    HESITATION,
    JULLIE,
    MAX_COUNT,
    MAX_PILES,
    MAX_PLAYERS,
    NIEMAND,
    NO_CALL,
    ON,
    PRECIES,
    SLAP,
    TIE,
    WIJ,
    WON,
    WRONG,
)

# outcome of a game: scalars, then per-seat blocks of MAX_PLAYERS
WINNER = 0       # the seat that played its last card, -1 if capped
TURNS = 1        # turns played
TIES = 2         # turns that ended in a tie (E8)
TAKEN = 3        # cards taken in all (E8, E9)
START = 4        # the seat that flipped first (E4)
TAKES = 8        # per seat: times it took the cards (any reason)
WRONGS = TAKES + MAX_PLAYERS        # per seat: wrong words (E9) that cost it the cards
HESITATIONS = WRONGS + MAX_PLAYERS  # per seat: hesitations (E9) that cost it the cards
FALSE_SLAPS = HESITATIONS + MAX_PLAYERS  # per seat: false slaps (E9) that cost it the cards
LAST_SLAPS = FALSE_SLAPS + MAX_PLAYERS   # per seat: ties it slapped last at (E8)
LEFT = LAST_SLAPS + MAX_PLAYERS          # per seat: cards in its stack at the end
OUTCOME_SIZE = LEFT + MAX_PLAYERS
_PER_REASON = (0, 0, LAST_SLAPS, WRONGS, HESITATIONS, FALSE_SLAPS)  # by rules.ENDINGS code

# a turn's log row (traces): int64 and float64 parts
L_SEAT, L_CARD, L_PILE, L_RIGHT, L_MEANT, L_SAID, L_WHY, L_TAKER, L_TAKEN, L_FALSE = range(10)
LOG_WIDTH = 10
F_CALL, F_AT, F_SLAPS = 0, 1, 2
FLOG_WIDTH = F_SLAPS + MAX_PLAYERS

# err row: status, seat, turn, response
OK = 0
ILLEGAL = 1
ERR_WIDTH = 4


@nb.njit(inline="always", cache=True)
def _top(stacks, heads, sizes, s):
    """Take the top card of seat s's stack."""
    card = stacks[s, heads[s]]
    heads[s] = heads[s] + 1 if heads[s] + 1 < stacks.shape[1] else 0
    sizes[s] -= 1
    return card


@nb.njit(inline="always", cache=True)
def _under(stacks, heads, sizes, s, card):
    """Put `card` under seat s's stack."""
    at = heads[s] + sizes[s]
    if at >= stacks.shape[1]:
        at -= stacks.shape[1]
    stacks[s, at] = card
    sizes[s] += 1


@nb.njit(cache=True, _nrt=False)
def deal(deck, cards, stacks, heads, sizes, n, rng):
    """E3 and H8: shuffle the deck as laid out (`deck`, into the scratch `cards`; swap i with
    i + below(size - i)) and deal card k to seat k mod n, top card first; the rest to the box.
    Returns the cards each seat got."""
    size = deck.shape[0]
    for k in range(size):
        cards[k] = deck[k]
    for i in range(size - 1):
        j = i + below(rng, size - i)
        tmp = cards[i]
        cards[i] = cards[j]
        cards[j] = tmp
    per = size // n
    for s in range(n):
        heads[s] = 0
        sizes[s] = per
    for k in range(per * n):
        stacks[k % n, k // n] = cards[k]
    return per


@nb.njit(inline="always", cache=True)
def _legal(response, chicks, precies):
    """H1 (as rules.response_is_legal)."""
    return (NIEMAND <= response <= JULLIE or response == SLAP or (precies and response == PRECIES)
            or (chicks and COUNT <= response <= COUNT + MAX_COUNT))


@nb.njit(inline="always", cache=True)
def _slip_chance(model, s, right, shown, chick):
    """H2: the chance that seat s says something else than it means."""
    p = model[s, M.SLIP] * (1.0 + model[s, M.CROWD] * (shown - 1))
    if right == WIJ or right == JULLIE:
        p *= model[s, M.GROUP]
    if chick:
        p *= model[s, M.CHICK_SLIP]
    if right == PRECIES:
        p *= model[s, M.PRECIES_SLIP]
    return min(p, 1.0)


@nb.njit(inline="always", cache=True)
def _word_at(i, jullie):
    """The i-th of the words in use (H2): Niemand, Ik, Jij, Wij, then Jullie where it can be right,
    then Precies with E14."""
    if i < 4:
        return i
    if i == 4 and jullie:
        return JULLIE
    return PRECIES


@nb.njit(inline="always", cache=True)
def _slipped(meant, jullie, words, rng):
    """H2: what a slip makes of `meant`: another of the `words` words in use, uniformly; a count
    one off; a word instead of a slap."""
    if meant >= COUNT:
        k = meant - COUNT
        if k == 0:
            return COUNT + 1
        if k == MAX_COUNT:
            return meant - 1
        return meant - 1 if below(rng, 2) == 0 else meant + 1
    mine = -1  # meant's place among the words in use
    for i in range(words):
        if _word_at(i, jullie) == meant:
            mine = i
    if mine < 0:  # a slap, or a word not in use: any word in use
        return _word_at(below(rng, words), jullie)
    i = below(rng, words - 1)  # one of the others, in order
    return _word_at(i if i < mine else i + 1, jullie)


@nb.njit(cache=True, _nrt=False)
def play_game(strats, params, model, n, n_piles, chicks, precies, rotating, colours, hesitation, max_turns,
              stacks, heads, sizes, piles, pile_sizes, start, view, rngs, rng, slaps, outcome, log, flog, err):
    """Play a dealt game to its end (E5–E14, H1–H6). Returns the turns played, or -1 with `err`
    set for an illegal response. `rng` is the game's generator after the deal and the start
    seat's draw; `rngs[s]` each seat's stream; `slaps` n floats of scratch; `outcome`
    OUTCOME_SIZE; `log` and `flog` (max_turns rows, or none) receive every turn for traces."""
    table = seat_table(strats)
    recording = log.shape[0] > 0
    outcome[:] = 0
    outcome[WINNER] = -1
    outcome[START] = start
    for p in range(n_piles):
        pile_sizes[p] = 0
    jullie = n > 2 or rotating  # E7: with 2 players and own piles Jullie cannot be right
    words = 4 + (1 if jullie else 0) + (1 if precies else 0)
    seat = start
    last_pile = -1
    previous = NO_CALL
    round_turn = 0
    t = 0
    shown = readonly(view)
    while t < max_turns:
        card = _top(stacks, heads, sizes, seat)
        pile = seat if not rotating else (last_pile + 1 if last_pile + 1 < n_piles else 0)
        last_pile = pile
        piles[pile, pile_sizes[pile]] = card
        pile_sizes[pile] += 1
        if recording:
            log[t, L_SEAT] = seat
            log[t, L_CARD] = card
            log[t, L_PILE] = pile
            log[t, L_WHY] = WON
        if sizes[seat] == 0:  # E10: the last card wins at once
            outcome[WINNER] = seat
            t += 1
            break
        # the view of the flipping player
        view[V.PLAYERS] = n
        view[V.SEAT] = seat
        view[V.PILES] = n_piles
        view[V.PILE] = pile
        view[V.PREVIOUS] = previous
        view[V.CHICKS] = 1 if chicks else 0
        view[V.PRECIES] = 1 if precies else 0
        view[V.COLOURS] = colours
        view[V.TURN] = t
        view[V.ROUND_TURN] = round_turn
        for s in range(MAX_PLAYERS):
            view[V.STACKS + s] = sizes[s] if s < n else 0
        for p in range(MAX_PILES):
            view[V.TOPS + p] = piles[p, pile_sizes[p] - 1] if p < n_piles and pile_sizes[p] > 0 else EMPTY
        meant = table[seat](shown, readonly(params[seat]), rngs[seat])
        if not _legal(meant, chicks, precies):
            err[0] = 1
            err[1] = seat
            err[2] = t
            err[3] = meant
            return -1
        tops = view[V.TOPS:]
        right = right_response(tops, n_piles, pile, precies, previous)
        visible = open_cards(tops, n_piles)
        chick = chick_open(tops, n_piles)
        said = meant
        if uniform(rng) < _slip_chance(model, seat, right, visible, chick):  # H2
            said = _slipped(meant, jullie, words, rng)
        median = model[seat, M.CALL_MEDIAN] * (1.0 + model[seat, M.CALL_CROWD] * (visible - 1))  # H3
        if chick:
            median *= model[seat, M.CHICK_TIME]
        call = median * math.exp(model[seat, M.CALL_SIGMA] * normal(rng))
        for s in range(n):  # H4
            slaps[s] = model[s, M.SLAP_MEDIAN] * math.exp(model[s, M.SLAP_SIGMA] * normal(rng))
        false_mask = 0
        for s in range(n):  # H5
            if s != seat and uniform(rng) < model[s, M.FALSE_SLAP]:
                false_mask |= 1 << s
        # H6: who takes, scanning the flipping player first, then clockwise
        taker = -1
        why = ON
        at = 0.0
        if right == SLAP:
            if said != SLAP:
                slaps[seat] += call
            taker = seat
            at = slaps[seat]
            why = TIE
            for k in range(1, n):
                s = seat + k if seat + k < n else seat + k - n
                if slaps[s] > at:
                    at = slaps[s]
                    taker = s
        else:
            if said == SLAP:
                false_mask |= 1 << seat
                taker, why, at = seat, FALSE_SLAP, slaps[seat]
            elif call > hesitation:
                taker, why, at = seat, HESITATION, hesitation
            elif said != right:
                taker, why, at = seat, WRONG, call
            for k in range(1, n):
                s = seat + k if seat + k < n else seat + k - n
                if (false_mask >> s) & 1 and (taker < 0 or slaps[s] < at):
                    taker, why, at = s, FALSE_SLAP, slaps[s]
        if recording:
            log[t, L_RIGHT] = right
            log[t, L_MEANT] = meant
            log[t, L_SAID] = said
            log[t, L_WHY] = why
            log[t, L_TAKER] = taker
            log[t, L_FALSE] = false_mask if right != SLAP else 0
            flog[t, F_CALL] = call
            flog[t, F_AT] = at
            for s in range(n):
                flog[t, F_SLAPS + s] = slaps[s]
        if taker >= 0:  # E8, E9: the taker puts every pile under its stack, pile by pile, bottom first
            taken = 0
            for p in range(n_piles):
                for i in range(pile_sizes[p]):
                    _under(stacks, heads, sizes, taker, piles[p, i])
                taken += pile_sizes[p]
                pile_sizes[p] = 0
            if recording:
                log[t, L_TAKEN] = taken
            outcome[TAKEN] += taken
            outcome[TAKES + taker] += 1
            outcome[_PER_REASON[why] + taker] += 1
            if why == TIE:
                outcome[TIES] += 1
            previous = NO_CALL
            round_turn = 0
            seat = taker  # E11
        else:
            if recording:
                log[t, L_TAKEN] = 0
            previous = said
            round_turn += 1
            seat = seat + 1 if seat + 1 < n else 0
        t += 1
    outcome[TURNS] = t
    for s in range(n):
        outcome[LEFT + s] = sizes[s]
    return t


@nb.njit(cache=True, _nrt=False)
def start_game(rngs, key, n):
    """Each seat's random stream for the game dealt from `key` (H8)."""
    for s in range(n):
        rngs[s, 0] = seat_state(key, s)


DECK_DTYPE = np.int8  # card codes: at most 8 x MAX_COLOURS + MAX_EGGS = 55
