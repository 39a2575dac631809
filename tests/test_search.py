"""`pimc`, the search bot (simkit.strategies.whos_the_ass.search): a strategy like any other,
reproducible whatever the split, its parameters checked, and stronger than the heuristic its
rollouts play."""

import numpy as np
import pytest

from simkit import registry
from simkit.errors import SimkitError
from simkit.strategies.whos_the_ass.search import SAMPLES, pimc
from simkit.whos_the_ass import batch
from simkit.whos_the_ass import view as V
from simkit.whos_the_ass.rules import GAME
from simkit.whos_the_ass.strategy import seats_for


def test_the_spec_sets_samples_and_the_rollout_heuristic_and_names_them_once():
    _, vector, label = registry.resolve(GAME, "pimc(rollout=compose(lead=greedy), samples=8)")
    _, greedy_lead, _ = registry.resolve(GAME, "compose(lead=greedy)")
    assert label == "pimc(samples=8, rollout=compose(lead=greedy))"
    assert vector[SAMPLES] == 8 and vector[:SAMPLES] == greedy_lead[:SAMPLES]
    assert registry.resolve(GAME, "pimc")[1][SAMPLES] == 32
    _, vector, label = registry.resolve(GAME, "pimc(rollout=lowest)")  # lowest's twin, compose()
    assert label == "pimc(rollout=lowest)" and vector[:SAMPLES] == registry.resolve(GAME, "compose()")[1][:SAMPLES]


@pytest.mark.parametrize("spec, why", [
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
