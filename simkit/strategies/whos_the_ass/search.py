"""`pimc`, determinized search (perfect-information Monte Carlo; Long et al. 2010): at each decision
with a choice, deal the cards the player has not seen to the other seats consistently with what it
saw (their hand sizes, the cards out of play and on the table, who holds the ass), play every
distinct legal action out on the same deals with a heuristic at every seat, and take the lowest
mean own penalty. It sees only the view: cards an ass trick's taker picked up are not tracked (the
view does not keep them), so they are dealt among the unseen cards like any other.

`cheat` is the same search handed every hand (the engine's SEES_ALL slot): it plays each action out
from the true deal, so it bounds what a search with this rollout could gain from better inference
about the unseen cards. A ceiling, not a way to play: marked as such wherever it shows.

`opponents=` gives the other seats of the rollouts a heuristic of their own (a model of the table:
the field's strategy), packed into three slots of the vector.

The rollout is the heuristic families' one function (simkit.strategies.whos_the_ass.heuristics)
with the searcher's own parameter vector in its slots, so `rollout=` takes any family or
`compose(...)` without compiling anything new; the search's own values sit in slots after them.
"""

import numba as nb
import numpy as np

from simkit.core.errors import SimkitError
from simkit.core.rng import below, next_u64, pick_equal, seat_state
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.engine import ERR_WIDTH, LOG_WIDTH, penalty_of, player, step
from simkit.games.whos_the_ass.hand import HAND_WIDTH, mark_held
from simkit.games.whos_the_ass.legal import nth_legal
from simkit.games.whos_the_ass.rules import COPIES_PER_NUMBER, GAME, JOKER, MAX_PLAYERS, N_CODES, N_JOKERS
from simkit.games.whos_the_ass.strategy import MAX_PARAMS, SEES_ALL, SIGNATURE
from simkit.strategies import registry
from simkit.strategies.spec import StrategySpec
from simkit.strategies.whos_the_ass import slots as P
from simkit.strategies.whos_the_ass.heuristics import heuristic

SAMPLES = P.SIZE - 3  # slot 13: deals sampled per decision (the heuristic's slots come before)
# the opponents' heuristic in the rollouts (opponents=), where one is given: its decision points and
# whole-number parameters packed in one number (exact: 24 bits), its one real parameter apart
OPPONENTS, OPPONENT_CHOICES, OPPONENT_COST = 10, 11, 12
_PACKED = ((P.RELEASE_AT, 12), (P.DELAY_UNTIL, 16), (P.KEEP, 20))  # 4 bits each, after 6 points x 2 bits
DEFAULT_SAMPLES = 32
MOST_SAMPLES = 4096
DEFAULT_ROLLOUT = "highest"  # the strongest built-in heuristic against lowest players (docs/strategies.md)


@nb.njit(inline="always", cache=True)
def _no_table(strats):
    return strats


@nb.njit(inline="always", cache=True)
def _rollout_decides(table, seat, hand, view, params, rng):
    return heuristic(hand, view, params, rng)


play_out = player(_no_table, _rollout_decides)  # the engine's play_on, every seat the rollout heuristic


@nb.njit(cache=True)
def unseen(hand, view):
    """The cards the deciding player has not seen, by code (the ass apart): the deck less its
    own hand, the cards out of play and those on the table."""
    out = np.zeros(N_CODES, np.int64)
    for c in range(1, N_CODES):
        out[c] = (N_JOKERS if c == JOKER else COPIES_PER_NUMBER) - hand[c] - view[V.DISCARDED + c] - view[V.TABLE + c]
    return out


@nb.njit(inline="always", cache=True)
def sample_hands(hands, hand, view, pool, size, rng):
    """Deal the `size` cards of `pool` (codes, shuffled here) to the other seats: each as many
    as it holds, the ass to its holder; the deciding seat keeps `hand`."""
    n, me, holder = view[V.PLAYERS], view[V.SEAT], view[V.ASS_HOLDER]
    k = 0
    for s in range(n):
        for c in range(N_CODES):
            hands[s, c] = 0
        if s == me:
            for c in range(N_CODES):
                hands[s, c] = hand[c]
            continue
        need = view[V.HAND_SIZES + s]
        if s == holder:
            hands[s, 0] = 1
            need -= 1
        for _ in range(need):  # a partial Fisher–Yates shuffle: only the cards dealt are drawn
            j = k + below(rng, size - k)
            card = pool[j]
            pool[j] = pool[k]
            pool[k] = card
            hands[s, card] += 1
            k += 1
    mark_held(hands, n)


@nb.njit(cache=True)
def search(seen, view, params, rng):
    """The action of least mean own penalty over params[SAMPLES] deals of the unseen cards
    (`outcomes`); ties at random. One legal action: no search."""
    hand = own_hand(seen, view, params)
    actions = nth_legal(hand, view, -1)
    if actions <= 1:
        return nth_legal(hand, view, 0)
    played = np.zeros((max(1, np.int64(params[SAMPLES])), actions), np.int64)
    outcomes(seen, view, params, rng, played)
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
def outcomes(seen, view, params, rng, played):
    """played[i, k]: the own penalty at the end of the hand when the deciding seat plays its k-th
    distinct legal action (nth_legal's order) on sample i, every action on the same deal of the
    unseen cards and the same random streams, then the rollout heuristic at every seat (the
    opponents' heuristic at the others', where opponents= is given). A seat that sees all
    (params[SEES_ALL], `cheat`) gets every hand in `seen`, row by row, and plays each sample out
    from the true deal: only the rollouts' random streams differ between samples. What a search
    decides by, and what grading a move weighs (the costs of the moves, paired on samples)."""
    n, me = view[V.PLAYERS], view[V.SEAT]
    cheats = params[SEES_ALL] != 0
    hand = own_hand(seen, view, params)
    dealt = np.zeros((MAX_PLAYERS, HAND_WIDTH), np.int64)
    hands = np.zeros((MAX_PLAYERS, HAND_WIDTH), np.int64)
    state = np.zeros(view.shape[0], np.int64)
    lineup = np.zeros((MAX_PLAYERS, params.shape[0]), np.float64)
    for s in range(n):  # the rollouts: a heuristic at every seat, each with its own hand
        if s != me and params[OPPONENTS] != 0:
            opponents(lineup[s], params)
        else:
            lineup[s] = params
            lineup[s, SEES_ALL] = 0
    rngs = np.zeros((MAX_PLAYERS, 1), np.uint64)
    log = np.zeros((0, LOG_WIDTH), np.int64)
    err = np.zeros(ERR_WIDTH, np.int64)
    counts = unseen(hand, view)
    pool = np.zeros(N_CODES * COPIES_PER_NUMBER, np.uint8)
    size = 0
    for c in range(1, N_CODES):
        for _ in range(counts[c]):
            pool[size] = c
            size += 1
    for i in range(played.shape[0]):
        if cheats:
            for s in range(n):
                for c in range(HAND_WIDTH):
                    dealt[s, c] = seen[s * HAND_WIDTH + c]
        else:
            sample_hands(dealt, hand, view, pool, size, rng)
        key = next_u64(rng)  # the rollouts' random streams: the same for every action (common numbers)
        for k in range(played.shape[1]):
            hands[:n] = dealt[:n]
            state[:] = view
            for s in range(n):
                rngs[s, 0] = seat_state(key, s)
            if step(hands, state, nth_legal(hand, view, k), log, err) == 0:
                play_out(lineup, lineup, hands, state, rngs, log, err)
            played[i, k] = penalty_of(hands[me])


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
    unknown = set(values) - {"samples", "rollout", "opponents"}
    if unknown:
        raise SimkitError(f"strategy {name!r} has no parameter {sorted(unknown)[0]!r} "
                          "(parameters: samples, rollout, opponents)")
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
