"""What the other seats' moves say about them: policy-based inference (Rebstock, Solinas, Buro,
Sturtevant 2019) over the hand's history (view.HISTORY), for the search.

A candidate model of a seat is a heuristic parameter vector (a built-in family at its defaults, or
the one `opponents=` forces) or uniform random play. For a deal of the unseen cards, the hand is
replayed from its start: at each decision of another seat that had a choice, every model says
what it would have played, and the seat's log-likelihood under the model grows by
log((1 - EPSILON) [it played that] + EPSILON / choices) (random play: log(1 / choices)). A pass
counts like any action: W9 always allows it, but a model that would have raised is the less
likely for it. Each seat's posterior over the models sums over the deals; its likeliest model
plays it in the rollouts (before its moves tell the models apart: the first, the baseline
`lowest`, which measured the strongest guess: docs/strategies.md). With weigh= the deals are
also resampled by how well those models explain the moves.

The cards a seat must still hold are public too (those it took in an ass trick and has not
played since): `flows` finds them and the deals are drawn with them in place.
"""

import math

import numba as nb
import numpy as np

from simkit.core.lowlevel import readonly
from simkit.core.rng import below, uniform
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.action import PASS, set_jokers, set_numbers, set_value
from simkit.games.whos_the_ass.engine import ERR_WIDTH, LOG_WIDTH, replay_step, start
from simkit.games.whos_the_ass.hand import HAND_WIDTH, HELD, held_mask, mark_held
from simkit.games.whos_the_ass.legal import nth_legal
from simkit.games.whos_the_ass.rules import GAME, JOKER, MAX_PLAYERS, N_CODES
from simkit.strategies import registry
from simkit.strategies.whos_the_ass import slots as P
from simkit.strategies.whos_the_ass.heuristics import heuristic
from simkit.strategies.whos_the_ass.random_play import random as random_play

EPSILON = 0.05  # how often a seat is taken to stray from its model: a mismatch is unlikely, not impossible
DROPPED = 12.0  # a model this many nats less likely than a seat's likeliest on a deal is dropped there
# random play explains any move a little, a heuristic on a deal drawn wrong explains it not at all:
# random play's prior is e^-3 of a heuristic's, or a heuristic field looks random too often
RANDOM_PRIOR = 3.0
RANDOM = P.SIZE - 2  # slot 14 of a model's vector: 1 = uniform random play (no heuristic slot uses it)
MODELS = ("lowest", "greedy", "highest", "spend", "hoard", "delay", "grab", "keep_low", "random")
_BIG = 1 << 20  # a hand that holds every card in plenty: replays the public flows without the deal


def _model_vectors() -> np.ndarray:
    """The candidate models: the built-in families at their defaults (`lowest` by its twin
    compose(), which makes its decisions), and random play."""
    rows = np.zeros((len(MODELS), P.SIZE), np.float64)
    for m, name in enumerate(MODELS):
        if name == "random":
            rows[m, RANDOM] = 1.0
        else:
            rows[m] = registry.resolve(GAME, "compose()" if name == "lowest" else name)[1]
    return rows


MODEL_VECTORS = _model_vectors()


@nb.njit(inline="always", cache=True)
def decides(hand, view, params, rng):
    """A model's action: the heuristic with its vector, or random play."""
    if params[RANDOM] != 0:
        return random_play(hand, view, params, rng)
    return heuristic(hand, view, params, rng)


@nb.njit(cache=True)
def flows(view, delta, known):
    """From the history alone: delta[s, c], the cards of code c seat s holds now less those it was
    dealt (taken in ass tricks less played), and known[s, c], the fewest it can hold now (what it
    took and has not been seen to give back). The hand is replayed by the engine's own `step`
    with hands too large to run out, so the flows follow the rules exactly; the ass (code 0) is
    public anyway and left out of `known`."""
    n = view[V.PLAYERS]
    hands = np.full((MAX_PLAYERS, HAND_WIDTH), _BIG, np.int64)
    mark_held(hands, n)
    state = np.zeros(V.SIZE, np.int64)
    start(hands, state, n, view[V.ASS_JOKER], view[V.FIRST_LEADER], view[V.SCORES:V.SCORES + MAX_PLAYERS], 0)
    owed = np.zeros((MAX_PLAYERS, N_CODES), np.int64)  # the most cards of a code a seat had given beyond its takings
    log = np.zeros((0, LOG_WIDTH), np.int64)
    err = np.zeros(ERR_WIDTH, np.int64)
    for k in range(view[V.HISTORY_LEN]):
        seat = state[V.SEAT]
        action = view[V.HISTORY + k]
        if action != PASS:  # what it has given beyond its takings, counted before it may take the trick
            value, numbers, jokers = set_value(action), set_numbers(action), set_jokers(action)
            card = JOKER if value == 14 else value
            owed[seat, card] = max(owed[seat, card], _BIG - hands[seat, card] + numbers)
            owed[seat, JOKER] = max(owed[seat, JOKER], _BIG - hands[seat, JOKER] + jokers)
        if replay_step(hands, state, action, log, err) < 0:
            raise ValueError("search: the hand's history breaks the rules (an engine fault)")
    for s in range(n):
        for c in range(N_CODES):
            delta[s, c] = hands[s, c] - _BIG
            known[s, c] = delta[s, c] + owed[s, c] if c != 0 else 0


@nb.njit(cache=True)
def judge(candidates, view, delta, models, ll):
    """ll[d, s, m]: the log-likelihood of seat s's moves in the history under model m on deal d
    (candidates[d]: the current hands of every seat); the deciding seat is not judged. The public
    view at each move is the same on every deal, so the hand is replayed once, on deal 0, and each
    deal's hand at a move is its current hand less the same flows. A model that falls DROPPED
    nats behind the seat's likeliest on a deal is set to -inf there, and once it has on every deal
    it is no longer asked. Raises where deal 0 cannot have led to the history (an engine fault:
    the deals are drawn with the known cards in place)."""
    n, me = view[V.PLAYERS], view[V.SEAT]
    deals, kinds = candidates.shape[0], models.shape[0]
    hands = np.zeros((MAX_PLAYERS, HAND_WIDTH), np.int64)
    for s in range(n):
        for c in range(N_CODES):
            hands[s, c] = candidates[0, s, c] - delta[s, c]
            if hands[s, c] < 0:
                raise ValueError("search: a deal drawn does not fit the hand's history (an engine fault)")
    state = np.zeros(view.shape[0], np.int64)
    start(hands, state, n, view[V.ASS_JOKER], view[V.FIRST_LEADER], view[V.SCORES:V.SCORES + MAX_PLAYERS],
          view[V.HAND_NO])
    log = np.zeros((0, LOG_WIDTH), np.int64)
    err = np.zeros(ERR_WIDTH, np.int64)
    asked = np.ones((MAX_PLAYERS, kinds), np.bool_)
    hand = np.zeros(HAND_WIDTH, np.int64)
    unused = np.zeros(1, np.uint64)  # a random state for the models: the heuristics draw nothing
    twins = alike(models)
    answer = np.zeros(kinds, np.int64)
    asked_now = np.zeros(kinds, np.int64)  # k * deals + d + 1 where answer[m] is for move k on deal d
    for k in range(view[V.HISTORY_LEN]):
        seat = state[V.SEAT]
        action = view[V.HISTORY + k]
        if seat != me:
            for d in range(deals):
                for c in range(N_CODES):
                    hand[c] = hands[seat, c] + candidates[d, seat, c] - candidates[0, seat, c]
                hand[HELD] = held_mask(hand[:N_CODES])
                choices = nth_legal(hand, state, -1)
                if choices <= 1:
                    continue
                best = -np.inf
                for m in range(kinds):
                    if not asked[seat, m] or ll[d, seat, m] == -np.inf:
                        continue
                    if models[m, RANDOM] != 0:
                        p = 1.0 / choices
                    else:
                        twin = twins[state[V.PHASE], m]  # a model that plays alike here has been asked
                        if twin != m and asked_now[twin] == k * deals + d + 1:
                            played = answer[twin]
                        else:
                            played = decides(readonly(hand), readonly(state), readonly(models[m]), unused)
                        answer[m] = played
                        asked_now[m] = k * deals + d + 1
                        p = EPSILON / choices + (1.0 - EPSILON if played == action else 0.0)
                    ll[d, seat, m] += math.log(p)
                    best = max(best, ll[d, seat, m])
                for m in range(kinds):
                    if ll[d, seat, m] < best - DROPPED:
                        ll[d, seat, m] = -np.inf
            for m in range(kinds):
                gone = True
                for d in range(deals):
                    gone = gone and ll[d, seat, m] == -np.inf
                asked[seat, m] = not gone
        if replay_step(hands, state, action, log, err) < 0:
            raise ValueError("search: the hand's history breaks the rules (an engine fault)")


# the parameter slots a heuristic reads at each phase (heuristics._heuristic; tests/test_inference.py
# checks that models equal on them play alike): LEAD, FOLLOW, ASS_TRICK
_READS = np.array([[P.LEAD, P.ASS_LEAD, P.DELAY_UNTIL, P.JOKERS, P.RELEASE_AT, P.RESERVE, P.KEEP],
                   [P.FOLLOW, P.JOKERS, P.RELEASE_AT, P.RESERVE, P.KEEP, -1, -1],
                   [P.ASS, P.MAX_COST, -1, -1, -1, -1, -1]], np.int64)


@nb.njit(cache=True)
def alike(models):
    """twins[phase, m]: the first model that plays as model m does at that phase (equal on every
    slot the heuristic reads there; random play has no twin): asked once for both."""
    kinds = models.shape[0]
    twins = np.zeros((_READS.shape[0], kinds), np.int64)
    for phase in range(_READS.shape[0]):
        for m in range(kinds):
            twins[phase, m] = m
            for first in range(m):
                same = models[m, RANDOM] == 0 and models[first, RANDOM] == 0
                for slot in _READS[phase]:
                    if slot >= 0 and models[m, slot] != models[first, slot]:
                        same = False
                if same:
                    twins[phase, m] = first
                    break
    return twins


@nb.njit(cache=True)
def posterior(ll, n, me, models_random, post):
    """post[s, m]: the probability that seat s plays like model m, given the moves of the hand so
    far, over the deals `ll` was judged on (equally likely a priori, as the models are): on each
    deal, how likely every other seat's moves are (over its models) times how likely seat s's
    are under m."""
    deals, kinds = ll.shape[0], ll.shape[2]
    seat_mass = np.zeros((deals, MAX_PLAYERS))  # log of sum_m L[d, s, m], each seat
    table_mass = np.zeros(deals)  # and summed over the seats
    for d in range(deals):
        for s in range(n):
            if s != me:
                best = ll[d, s].max()
                mass = 0.0
                for m in range(kinds):
                    mass += math.exp(ll[d, s, m] - best)
                seat_mass[d, s] = best + math.log(mass)
                table_mass[d] += seat_mass[d, s]
    post[:] = 0.0
    for s in range(n):
        if s == me:
            continue
        logp = np.full(kinds, -np.inf)
        for m in range(kinds):
            if ll[0, s, m] == -np.inf and ll[:, s, m].max() == -np.inf:
                continue
            terms = np.empty(deals)
            for d in range(deals):
                terms[d] = ll[d, s, m] + table_mass[d] - seat_mass[d, s]
            best = terms.max()
            if best > -np.inf:
                logp[m] = best + math.log(np.exp(terms - best).sum()) - (RANDOM_PRIOR if models_random[m] else 0.0)
        best = logp.max()
        total = np.exp(logp - best).sum()
        for m in range(kinds):
            post[s, m] = math.exp(logp[m] - best) / total


@nb.njit(cache=True)
def likeliest(post, n, me, preferred, chosen):
    """chosen[s]: seat s's likeliest model; on a tie (no move has told them apart yet) `preferred`
    where it is among the tied, else the first of them."""
    for s in range(n):
        chosen[s] = preferred
        if s == me:
            continue
        best = post[s].max()
        if post[s, preferred] < best:
            for m in range(post.shape[1]):
                if post[s, m] == best:
                    chosen[s] = m
                    break


@nb.njit(cache=True)
def resample(logw, picks, rng):
    """picks[i]: the deal the i-th rollout plays, drawn in proportion to the weights exp(logw)
    (systematic resampling: one uniform number, low variance)."""
    best = logw.max()
    total = 0.0
    for d in range(logw.shape[0]):
        total += math.exp(logw[d] - best)
    step_size = total / picks.shape[0]
    at = uniform(rng) * step_size
    d = 0
    acc = math.exp(logw[0] - best)
    for i in range(picks.shape[0]):
        while acc < at and d + 1 < logw.shape[0]:
            d += 1
            acc += math.exp(logw[d] - best)
        picks[i] = d
        at += step_size


@nb.njit(cache=True)
def deal_known(hands, hand, view, known, pool, size, rng):
    """Deal the `size` cards of `pool` (codes, shuffled here) to the other seats after their known
    cards: each as many as it holds, the ass to its holder; the deciding seat keeps `hand`."""
    n, me, holder = view[V.PLAYERS], view[V.SEAT], view[V.ASS_HOLDER]
    k = 0
    for s in range(n):
        if s == me:
            for c in range(HELD):
                hands[s, c] = hand[c]
            continue
        need = view[V.HAND_SIZES + s]
        hands[s, 0] = 1 if s == holder else 0
        need -= hands[s, 0]
        for c in range(1, N_CODES):
            hands[s, c] = known[s, c]
            need -= known[s, c]
        for _ in range(need):  # a partial Fisher–Yates shuffle: only the cards dealt are drawn
            j = k + below(rng, size - k)
            card = pool[j]
            pool[j] = pool[k]
            pool[k] = card
            hands[s, card] += 1
            k += 1
    mark_held(hands, n)
