"""`pimc`, determinized search (perfect-information Monte Carlo; Long et al. 2010) that reads the
table: at each decision with a choice, deal the cards the player has not seen to the other seats
consistently with what it saw (their hand sizes, the cards out of play and on the table, who holds
the ass, the cards each took in ass tricks and still holds), find each other seat's likeliest
model by how well it explains that seat's moves so far over those deals (inference.py), play
every distinct legal action out on the same deals with the rollout heuristic at its own seat and
the inferred models at the others, and take the lowest mean own penalty. weigh=w (0 < w <= 1)
also resamples the deals by how likely the inferred models make the moves, that likelihood to the
power w (measured weaker at every w tried: docs/strategies.md).

`cheat` is the same search handed every hand (the engine's SEES_ALL slot): it plays each action
out from the true deal and judges the models on it, so it bounds what this search could gain from
better inference about the unseen cards. A ceiling, not a way to play: marked as such wherever it
shows.

`opponents=` forces one model of the other seats (the field's strategy), packed into three slots
of the vector.

The rollout is the heuristic families' one function (simkit.strategies.whos_the_ass.heuristics)
with the searcher's own parameter vector in its slots, so `rollout=` takes any family or
`compose(...)` without compiling anything new; the search's own values sit in slots after them.
"""

import numba as nb
import numpy as np

from simkit.core.errors import SimkitError
from simkit.core.rng import next_u64, pick_equal, seat_state
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.engine import ERR_WIDTH, LOG_WIDTH, penalty_of, play_on_alone, replay_step
from simkit.games.whos_the_ass.hand import HAND_WIDTH
from simkit.games.whos_the_ass.legal import nth_legal
from simkit.games.whos_the_ass.rules import COPIES_PER_NUMBER, GAME, JOKER, MAX_PLAYERS, N_CODES, N_JOKERS
from simkit.games.whos_the_ass.strategy import MAX_PARAMS, SEES_ALL, SIGNATURE
from simkit.strategies import registry
from simkit.strategies.spec import StrategySpec
from simkit.strategies.whos_the_ass import slots as P
from simkit.strategies.whos_the_ass.heuristics import heuristic
from simkit.strategies.whos_the_ass.inference import (
    MODEL_VECTORS,
    RANDOM,
    deal_known,
    decides,
    flows,
    judge,
    likeliest,
    posterior,
    resample,
)

SAMPLES = P.SIZE - 3  # slot 13: deals sampled per decision (the heuristic's slots come before)
WEIGH = P.SIZE - 2    # slot 14: w > 0 = resample the deals by (how likely the inferred models make the moves so far)^w
# the opponents' heuristic in the rollouts (opponents=), where one is given: its decision points and
# whole-number parameters packed in one number (exact: 24 bits), its one real parameter apart
OPPONENTS, OPPONENT_CHOICES, OPPONENT_COST = 10, 11, 12
_PACKED = ((P.RELEASE_AT, 12), (P.DELAY_UNTIL, 16), (P.KEEP, 20))  # 4 bits each, after 6 points x 2 bits
DEFAULT_SAMPLES = 32
JUDGED = 8  # deals the models are judged on (weigh>0: every deal drawn); 16 measured no stronger and a third slower
CANDIDATES = 2  # weigh>0: deals drawn per sample, resampled by how well they explain the hand so far
MOST_SAMPLES = 4096
DEFAULT_ROLLOUT = "highest"  # the strongest built-in heuristic against lowest players (docs/strategies.md)


@nb.njit(inline="always", cache=True)
def _rollout_decides(table, seat, hand, view, params, rng):
    return decides(hand, view, params, rng)


@nb.njit(cache=True, _nrt=False)
def play_out(params, hands, view, rngs, log, err):
    """The engine's play loop with every seat deciding by its row of `params` (inference.decides)."""
    return play_on_alone(_rollout_decides, params, hands, view, rngs, log, err)


@nb.njit(cache=True)
def unseen(hand, view):
    """The cards the deciding player has not seen, by code (the ass apart): the deck less its
    own hand, the cards out of play and those on the table."""
    out = np.zeros(N_CODES, np.int64)
    for c in range(1, N_CODES):
        out[c] = (N_JOKERS if c == JOKER else COPIES_PER_NUMBER) - hand[c] - view[V.DISCARDED + c] - view[V.TABLE + c]
    return out


@nb.njit(cache=True)
def search(seen, view, params, rng):
    """The action of least mean own penalty over params[SAMPLES] deals of the unseen cards
    (`outcomes`); ties at random. One legal action: no search."""
    hand = own_hand(seen, view, params)
    actions = nth_legal(hand, view, -1)
    if actions <= 1:
        return nth_legal(hand, view, 0)
    played = np.zeros((max(1, np.int64(params[SAMPLES])), actions), np.int64)
    outcomes(seen, view, params, rng, played, np.zeros(MAX_PLAYERS, np.int64))
    total = played.sum(axis=0)
    best = total.min()
    ties = 0
    for k in range(actions):
        ties += total[k] == best
    return nth_legal(hand, view, pick_equal(total, actions, best, ties, rng))


@nb.njit(inline="always", cache=True)
def own_hand(seen, view, params):
    """The deciding seat's own counts in what it is handed: its hand, or (a seat that sees all,
    params[SEES_ALL]) its row of every hand."""
    me = view[V.SEAT]
    return seen[me * HAND_WIDTH:(me + 1) * HAND_WIDTH] if params[SEES_ALL] != 0 else seen[:HAND_WIDTH]


@nb.njit(cache=True, nogil=True)  # grading runs it on several threads at once (analyses/grading/grade.py)
def outcomes(seen, view, params, rng, played, chosen):
    """played[i, k]: the own penalty at the end of the hand when the deciding seat plays its k-th
    distinct legal action (nth_legal's order) on sample i, every action on the same deal of the
    unseen cards and the same random streams, then its rollout heuristic at its own seat and at
    each other seat that seat's likeliest model (inference.py; opponents=: the one forced). The
    deals hold the cards each seat is known to hold; with weigh=w > 0 they are drawn CANDIDATES
    times over and resampled by how likely the chosen models make the moves so far, to the w. A seat that
    sees all (params[SEES_ALL], `cheat`) gets every hand in `seen`, row by row, and judges the
    models on the true deal: only the rollouts' random streams differ between samples. What a
    search decides by, and what grading a move weighs (the costs of the moves, paired on
    samples). chosen[s]: the model (a row of model_table) seat s played in the rollouts; -1 at
    the deciding seat."""
    n, me = view[V.PLAYERS], view[V.SEAT]
    cheats = params[SEES_ALL] != 0
    hand = own_hand(seen, view, params)
    samples = played.shape[0]
    deals = 1 if cheats else CANDIDATES * samples if params[WEIGH] != 0 else samples
    # the posterior needs fewer deals than the rollouts: JUDGED of them, unless each is to be weighed
    judged = deals if params[WEIGH] != 0 else min(deals, JUDGED)
    candidates, ll = weighed(seen, view, params, rng, deals, judged)
    models = model_table(params)
    post = np.zeros((MAX_PLAYERS, models.shape[0]))
    posterior(ll, n, me, models[:, RANDOM] != 0, post)
    likeliest(post, n, me, 0, chosen)  # a tie: the first model, the baseline (inference.MODELS)
    picks = np.arange(samples) if not cheats else np.zeros(samples, np.int64)
    if not cheats and params[WEIGH] != 0:
        logw = np.zeros(deals)
        for d in range(deals):
            for s in range(n):
                if s != me:
                    logw[d] += ll[d, s, chosen[s]]
        logw *= params[WEIGH]  # tempered: the likelihoods of near-deterministic models are sharp
        resample(logw, picks, rng)
    hands = np.zeros((MAX_PLAYERS, HAND_WIDTH), np.int64)
    state = np.zeros(view.shape[0], np.int64)
    used = V.HISTORY + view[V.HISTORY_LEN]  # the rest of the history block is 0 and stays unread
    lineup = np.zeros((MAX_PLAYERS, params.shape[0]), np.float64)
    for s in range(n):
        lineup[s] = models[chosen[s]]
    lineup[me] = params  # its own seat plays the rollout heuristic
    lineup[me, SEES_ALL] = 0
    lineup[me, RANDOM] = 0  # the slot that is WEIGH in the search's vector
    rngs = np.zeros((MAX_PLAYERS, 1), np.uint64)
    log = np.zeros((0, LOG_WIDTH), np.int64)
    err = np.zeros(ERR_WIDTH, np.int64)
    for i in range(samples):
        d = picks[i]
        key = next_u64(rng)  # the rollouts' random streams: the same for every action (common numbers)
        for k in range(played.shape[1]):
            hands[:n] = candidates[d, :n]
            state[:used] = view[:used]
            for s in range(n):
                rngs[s, 0] = seat_state(key, s)
            if replay_step(hands, state, nth_legal(hand, view, k), log, err) == 0:
                play_out(lineup, hands, state, rngs, log, err)
            played[i, k] = penalty_of(hands[me])
            state[used:V.HISTORY + state[V.HISTORY_LEN]] = 0  # what the rollout appended
    chosen[me] = -1


@nb.njit(cache=True, nogil=True)
def weighed(seen, view, params, rng, deals, judged):
    """`deals` deals of the unseen cards (a seat that sees all: the true one), each with the
    other seats' known cards in place (inference.flows), and ll[d, s, m] for the first `judged`
    of them: how likely seat s's moves so far are under model m on deal d (inference.judge)."""
    n = view[V.PLAYERS]
    cheats = params[SEES_ALL] != 0
    hand = own_hand(seen, view, params)
    models = model_table(params)
    delta = np.zeros((MAX_PLAYERS, N_CODES), np.int64)
    known = np.zeros((MAX_PLAYERS, N_CODES), np.int64)
    flows(view, delta, known)
    counts = unseen(hand, view)
    for s in range(n):
        if s != view[V.SEAT]:
            counts -= known[s]
    pool = np.zeros(N_CODES * COPIES_PER_NUMBER, np.uint8)
    size = 0
    for c in range(1, N_CODES):
        for _ in range(counts[c]):
            pool[size] = c
            size += 1
    candidates = np.zeros((deals, MAX_PLAYERS, HAND_WIDTH), np.int64)
    ll = np.zeros((judged, MAX_PLAYERS, models.shape[0]))
    for d in range(deals):
        if cheats:
            for s in range(n):
                for c in range(HAND_WIDTH):
                    candidates[d, s, c] = seen[s * HAND_WIDTH + c]
        else:
            deal_known(candidates[d], hand, view, known, pool, size, rng)
    judge(candidates[:judged], view, delta, models, ll)
    return candidates, ll


@nb.njit(cache=True)
def model_table(params):
    """The candidate models of the other seats: the one opponents= forces, or inference.MODELS."""
    if params[OPPONENTS] != 0:
        forced = np.zeros((1, params.shape[0]), np.float64)
        opponents(forced[0], params)
        return forced
    return MODEL_VECTORS.copy()


@nb.njit(cache=True)
def opponents(row, params):
    """The opponents' heuristic parameter vector (opponents=) into `row`, from its packed slots."""
    row[:] = 0
    packed = np.int64(params[OPPONENT_CHOICES])
    for point in range(P.RESERVE + 1):
        row[point] = (packed >> (2 * point)) & 3
    for slot, shift in _PACKED:
        row[slot] = (packed >> shift) & 15
    row[P.MAX_COST] = params[OPPONENT_COST]


def pack_opponents(vector: tuple[float, ...]) -> tuple[float, float]:
    """A heuristic's parameter vector as `opponents` reads it: (its packed choices, its max_cost)."""
    packed = sum(int(vector[point]) << (2 * point) for point in range(P.RESERVE + 1))
    packed += sum(int(vector[slot]) << shift for slot, shift in _PACKED)
    return float(packed), float(vector[P.MAX_COST])


@nb.njit(SIGNATURE, cache=True)  # it allocates its scratch: compiled with numba's reference counting
def pimc(hand, view, params, rng):
    return search(hand, view, params, rng)


def _composer(name: str, sees_all: bool):
    """The composer of `name`(samples=32, rollout=highest): the parameter vector (the rollout
    heuristic's, the samples and whether it sees all in their slots) and the label."""

    def compose(values: dict) -> tuple[tuple[float, ...], str]:
        vector, parts = _search_vector(name, values)
        vector[SEES_ALL] = float(sees_all)
        return tuple(vector), name + (f"({', '.join(parts)})" if parts else "")

    return compose


def _search_vector(name: str, values: dict) -> tuple[list[float], list[str]]:
    unknown = set(values) - {"samples", "rollout", "opponents", "weigh"}
    if unknown:
        raise SimkitError(f"strategy {name!r} has no parameter {sorted(unknown)[0]!r} "
                          "(parameters: samples, rollout, opponents, weigh)")
    weigh = values.get("weigh", 0)
    if isinstance(weigh, StrategySpec) or not 0 <= weigh <= 1:
        raise SimkitError(f"strategy {name!r}: weigh must be a number from 0 to 1, got {weigh}")
    samples = values.get("samples", DEFAULT_SAMPLES)
    if isinstance(samples, StrategySpec) or samples != int(samples) or not 1 <= samples <= MOST_SAMPLES:
        raise SimkitError(f"strategy {name!r}: samples must be a whole number 1..{MOST_SAMPLES}, got {samples:g}")
    vector, label = _heuristic(name, "rollout", values.get("rollout", StrategySpec(DEFAULT_ROLLOUT)))
    out = list(vector) + [0.0] * (MAX_PARAMS - len(vector))
    out[SAMPLES] = samples
    parts = [f"samples={int(samples)}"] if "samples" in values else []
    parts += [f"rollout={label}"] if "rollout" in values else []
    if "opponents" in values:
        others, label = _heuristic(name, "opponents", values["opponents"])
        out[OPPONENTS] = 1.0
        out[OPPONENT_CHOICES], out[OPPONENT_COST] = pack_opponents(others)
        parts.append(f"opponents={label}")
    out[WEIGH] = float(weigh)
    parts += [f"weigh={weigh:g}"] if "weigh" in values else []
    return out, parts


def _heuristic(name: str, key: str, spec) -> tuple[tuple[float, ...], str]:
    """The parameter vector and label of a heuristic named as `key`= (a family or compose(...))."""
    if not isinstance(spec, StrategySpec):
        raise SimkitError(f"strategy {name!r}: {key}= needs a heuristic (a family or compose(...)), got {spec:g}")
    # `lowest` is a function of its own; its twin compose() makes exactly its decisions (tested)
    info, vector, label = registry.resolve(GAME, "compose()" if spec == StrategySpec("lowest") else spec)
    label = "lowest" if spec == StrategySpec("lowest") else label
    if info.decide is not heuristic:
        fits = ", ".join(["lowest"] + [i.name for i in registry.available(GAME) if i.decide is heuristic])
        raise SimkitError(f"strategy {name!r}: {key}={label} is not a heuristic family ({fits})")
    return vector, label


registry.add(registry.StrategyInfo(
    GAME, "pimc",
    f"Search: each decision with a choice, deal the unseen cards {DEFAULT_SAMPLES} times (samples=), play every "
    f"legal action out with a heuristic (rollout=, default {DEFAULT_ROLLOUT}; opponents=: another at the other "
    "seats), take the least mean own penalty.",
    pimc, composer=_composer("pimc", False), search=True))
registry.add(registry.StrategyInfo(
    GAME, "cheat",
    "A ceiling, not a way to play: pimc that sees every hand, each decision played out from the true deal "
    f"{DEFAULT_SAMPLES} times (samples=: the rollouts' random streams) with a heuristic (rollout=, opponents=).",
    pimc, composer=_composer("cheat", True), search=True, ceiling=True))
