"""`pimc`, the search bot (simkit.strategies.whos_the_ass.search): a strategy like any other,
reproducible whatever the split, its parameters checked, and stronger than the heuristic its
rollouts play; `cheat`, the same search handed every hand: it uses them, and no strategy's
parameter can give a seat that view."""

import numpy as np
import pytest

from simkit.core.errors import SimkitError
from simkit.games.whos_the_ass import batch
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.deal import STACK_DTYPE, STACK_SIZE, deal
from simkit.games.whos_the_ass.engine import ERR_WIDTH, LOG_WIDTH, start, step
from simkit.games.whos_the_ass.hand import HAND_WIDTH
from simkit.games.whos_the_ass.legal import nth_legal
from simkit.games.whos_the_ass.rules import GAME
from simkit.games.whos_the_ass.strategy import SEES_ALL, seats_for
from simkit.strategies import registry
from simkit.strategies.whos_the_ass.search import OPPONENTS, SAMPLES, opponents, outcomes, pimc


def test_the_spec_sets_samples_and_the_rollout_heuristic_and_names_them_once():
    _, vector, label = registry.resolve(GAME, "pimc(rollout=compose(lead=greedy), samples=8)")
    _, greedy_lead, _ = registry.resolve(GAME, "compose(lead=greedy)")
    assert label == "pimc(samples=8, rollout=compose(lead=greedy))"
    assert vector[SAMPLES] == 8 and vector[:SAMPLES] == greedy_lead[:SAMPLES]
    assert registry.resolve(GAME, "pimc")[1][SAMPLES] == 32
    _, vector, label = registry.resolve(GAME, "pimc(rollout=lowest)")  # lowest's twin, compose()
    assert label == "pimc(rollout=lowest)" and vector[:SAMPLES] == registry.resolve(GAME, "compose()")[1][:SAMPLES]


def test_the_opponents_heuristic_reaches_the_other_seats_of_the_rollouts_whole():
    other = "compose(lead=greedy, ass_lead=delay(delay_until=4), ass=grab(max_cost=12.5), " \
        "jokers=hoard(release_at=5), reserve=keep_low(k=3))"
    _, vector, label = registry.resolve(GAME, f"pimc(opponents={other}, samples=4)")
    assert label == f"pimc(samples=4, opponents={registry.resolve(GAME, other)[2]})"
    row = np.zeros(16)
    opponents(row, np.array(vector))
    assert list(row[:10]) == list(registry.resolve(GAME, other)[1][:10]) and vector[OPPONENTS] == 1
    assert registry.resolve(GAME, "pimc")[1][OPPONENTS] == 0
    lowest = registry.resolve(GAME, "cheat(opponents=lowest)")[1]
    opponents(row, np.array(lowest))
    assert list(row[:10]) == list(registry.resolve(GAME, "compose()")[1][:10])  # lowest: its twin compose()


@pytest.mark.parametrize("spec, why", [
    ("pimc(opponents=random)", "opponents=random is not a heuristic family"),
    ("cheat(opponents=2)", "opponents= needs a heuristic"),
    ("pimc(samples=0)", "samples must be a whole number 1..4096"),
    ("pimc(samples=2.5)", "samples must be a whole number"),
    ("pimc(rollout=random)", "is not a heuristic family"),
    ("pimc(rollout=3)", "rollout= needs a heuristic"),
    ("pimc(depth=2)", "has no parameter 'depth'"),
])
def test_a_bad_setting_is_one_error_naming_it(spec, why):
    with pytest.raises(SimkitError, match=why.replace("(", r"\(").replace(")", r"\)")):
        registry.resolve(GAME, spec)


def test_same_seed_same_decisions_whatever_the_split():
    seats = seats_for(["pimc(samples=4)", "greedy", "highest", "random"], 4)
    whole = batch.play(seats, 40, 5)
    split = batch.play(seats, 40, 5, chunks=3)
    again = batch.play(seats, 40, 5)
    assert (whole.penalties == split.penalties).all() and (whole.penalties == again.penalties).all()
    assert (whole.tricks == split.tricks).all()


def test_a_forced_move_is_made_without_searching():
    hand = np.zeros(15, np.int64)
    hand[5] = 1  # one card: following, the only choices are pass and nothing else above 12
    view = np.zeros(V.SIZE, np.int64)
    view[V.PLAYERS], view[V.SEAT], view[V.PHASE], view[V.COUNT], view[V.TOP] = 4, 1, V.FOLLOW, 1, 12
    view[V.HAND_SIZES:V.HAND_SIZES + 4] = 5
    params = np.zeros(16)
    params[SAMPLES] = 8
    rng = np.array([7], np.uint64)
    for a in (hand, view, params):
        a.setflags(write=False)
    assert pimc(hand, view, params, rng) == -1 and rng[0] == 7  # the pass, and no random draw


def test_the_search_beats_the_heuristic_it_plays_out_with():
    """W17 penalties: pimc(samples=16) in seat 0 among three `highest` players, against `highest`
    itself in seat 0 on the same deals, is better by more than its 95% interval."""
    hands = 200
    searched = batch.play(seats_for(["pimc(samples=16)", "highest", "highest", "highest"], 4), hands, 11)
    plain = batch.play(seats_for(["highest"], 4), hands, 11)
    diff = searched.penalties[:, 0].astype(float) - plain.penalties[:, 0]
    half = 1.96 * diff.std(ddof=1) / np.sqrt(hands)
    assert diff.mean() + half < 0, (diff.mean(), half)


def test_cheat_is_the_search_that_sees_all_and_is_marked_a_ceiling():
    info, vector, label = registry.resolve(GAME, "cheat(samples=8)")
    _, searched, _ = registry.resolve(GAME, "pimc(samples=8)")
    assert label == "cheat(samples=8)" and info.ceiling and not registry.get(GAME, "pimc").ceiling
    assert vector[SEES_ALL] == 1 and searched[SEES_ALL] == 0 and vector[:SEES_ALL] == searched[:SEES_ALL]
    assert registry.ceilings(GAME, ["pimc", "cheat(samples=8)", "highest"]) == ["cheat(samples=8)"]


def _positions(count, seed=3):
    """Positions of real hands (4 players, every seat `lowest` so far) where the seat to act has
    a choice: (every hand, view), after a few tricks."""
    rng = np.array([seed], np.uint64)
    stack = np.zeros(STACK_SIZE, STACK_DTYPE)
    out = []
    while len(out) < count:
        hands = np.zeros((12, HAND_WIDTH), np.int64)
        view = np.zeros(V.SIZE, np.int64)
        leader = deal(hands, stack, 4, rng)
        start(hands, view, 4, 0, leader, np.zeros(12, np.int64), 0)
        log, err = np.zeros((0, LOG_WIDTH), np.int64), np.zeros(ERR_WIDTH, np.int64)
        for _ in range(6 + len(out) % 5):
            me = view[V.SEAT]
            if step(hands, view, nth_legal(hands[me], view, 0), log, err) != 0:
                break
        else:
            if nth_legal(hands[view[V.SEAT]], view, -1) > 1:
                out.append((hands.copy(), view.copy()))
    return out


def test_cheat_decides_on_the_hidden_hands():
    """The same positions with two opponents' hands of equal size swapped (what pimc is handed,
    its own hand and the view, is the same): cheat, handed every hand, decides differently in
    some of them, with the same random draws."""
    cheat_params = np.array(registry.resolve(GAME, "cheat(samples=16)")[1], np.float64)
    changed = 0
    for hands, view in _positions(40):
        me, n = view[V.SEAT], 4
        others = [s for s in range(n) if s != me and hands[s, 0] == 0]
        pair = next(((a, b) for a in others for b in others if a < b
                     and view[V.HAND_SIZES + a] == view[V.HAND_SIZES + b]), None)
        if pair is None:
            continue
        swapped = hands.copy()
        swapped[[pair[0], pair[1]]] = swapped[[pair[1], pair[0]]]
        decided = []
        for every in (hands, swapped):
            decided.append(cheat(every, view, cheat_params))
        changed += decided[0] != decided[1]
    assert changed > 0


def cheat(hands, view, params):
    """cheat's decision as the engine asks for it: every hand, row by row."""
    seen, view, params = hands.reshape(-1).copy(), view.copy(), params.copy()
    for a in (seen, view, params):
        a.setflags(write=False)
    return pimc(seen, view, params, np.array([99], np.uint64))


def test_the_search_takes_the_action_of_least_total_in_its_outcomes():
    """`outcomes` (what grading a move will weigh) is what the search decides by: on the same
    random draws, pimc plays the action whose column of own penalties sums least (where one does)."""
    params = np.array(registry.resolve(GAME, "pimc(samples=6)")[1], np.float64)
    params.setflags(write=False)
    checked = 0
    for hands, view in _positions(12, seed=8):
        me = view[V.SEAT]
        hand, view = hands[me].copy(), view.copy()
        for a in (hand, view):
            a.setflags(write=False)
        actions = nth_legal(hand, view, -1)
        played = np.zeros((6, actions), np.int64)
        outcomes(hand, view, params, np.array([5], np.uint64), played, np.zeros(12, np.int64))
        total = played.sum(axis=0)
        if (total == total.min()).sum() == 1:
            assert pimc(hand, view, params, np.array([5], np.uint64)) == nth_legal(hand, view, int(total.argmin()))
            checked += 1
    assert checked >= 6
