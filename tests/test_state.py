"""The steppable state of Who's the Ass? (simkit.games.whos_the_ass.engine: start, step, play_on): played
action by action from Python it gives the hands `play` gives and the reference engine's (W6–W17);
a copy taken mid-hand plays on to the same end; an illegal action leaves the state as it was."""

import numpy as np
import pytest

from simkit.core.rng import hand_state
from simkit.games.whos_the_ass import reference
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.deal import STACK_DTYPE, STACK_SIZE, deal
from simkit.games.whos_the_ass.engine import (
    ERR_WIDTH,
    ILLEGAL,
    LOG_WIDTH,
    MAX_TRICKS,
    penalty_of,
    play,
    play_on,
    seed_seats,
    start,
    step,
)
from simkit.games.whos_the_ass.hand import HAND_WIDTH, HELD
from simkit.games.whos_the_ass.legal import nth_legal
from simkit.games.whos_the_ass.rules import MAX_PLAYERS, N_CODES
from simkit.games.whos_the_ass.strategy import lineup_arrays, seats_for

SEED = 321


def _dealt(n: int, index: int):
    hands = np.zeros((MAX_PLAYERS, HAND_WIDTH), np.int64)
    rng = np.array([hand_state(np.uint64(SEED), index)], np.uint64)
    key = rng[0]
    leader = deal(hands, np.zeros(STACK_SIZE, STACK_DTYPE), n, rng)
    rngs = np.zeros((MAX_PLAYERS, 1), np.uint64)
    seed_seats(rngs, key, n)
    return hands, leader, rngs


def _held(row: np.ndarray) -> int:
    """HELD as the hand helpers read it: bit c for every code held."""
    return sum(1 << c for c in range(N_CODES) if row[c] > 0)


def _frozen(a: np.ndarray) -> np.ndarray:
    a = a.copy()
    a.setflags(write=False)
    return a


@pytest.mark.parametrize("players", [3, 4, 8, 12])
@pytest.mark.parametrize("lineup", [["lowest"], ["random"], ["highest", "greedy", "random"]])
def test_stepping_from_python_plays_the_hands_play_and_the_reference_play(players, lineup):
    seats = seats_for((lineup * players)[:players], players)
    fns, params = lineup_arrays(seats)
    for index in range(25):
        hands, leader, rngs = _dealt(players, index)
        dealt = hands.copy()
        whole, view = hands.copy(), np.zeros(V.SIZE, np.int64)
        log, err = np.zeros((MAX_TRICKS, LOG_WIDTH), np.int64), np.zeros(ERR_WIDTH, np.int64)
        tricks = play(fns, params, players, 0, leader, whole, view, rngs.copy(), np.zeros(MAX_PLAYERS, np.int64), 0,
                      log, err)
        view = np.zeros(V.SIZE, np.int64)
        start(hands, view, players, 0, leader, np.zeros(MAX_PLAYERS, np.int64), 0)
        mine = rngs.copy()
        t, steps = 0, 0
        while t == 0:
            s = int(view[V.SEAT])
            action = seats[s].decide(_frozen(hands[s]), _frozen(view), _frozen(params[s]), mine[s])
            t = step(hands, view, action, np.zeros((0, LOG_WIDTH), np.int64), err)
            steps += 1
            assert [hands[s, HELD] for s in range(players)] == [_held(hands[s]) for s in range(players)]
        assert t == tricks > 0 and (hands == whole).all(), (players, lineup, index)
        ref = reference.play_hand([sorted(c for c in range(N_CODES) for _ in range(dealt[s, c]))
                                   for s in range(players)],
                                  reference.compiled_deciders(seats, int(_key(index))), "1or14")
        assert ref["penalties"] == [penalty_of(hands[s]) for s in range(players)]
        assert len(ref["tricks"]) == t


def _key(index: int) -> np.uint64:
    return hand_state(np.uint64(SEED), index)


def test_a_copy_taken_mid_hand_plays_on_to_the_same_end():
    players = 4
    seats = seats_for(["random"], players)
    fns, params = lineup_arrays(seats)
    log, err = np.zeros((0, LOG_WIDTH), np.int64), np.zeros(ERR_WIDTH, np.int64)
    for index in range(20):
        hands, leader, rngs = _dealt(players, index)
        view = np.zeros(V.SIZE, np.int64)
        start(hands, view, players, 0, leader, np.zeros(MAX_PLAYERS, np.int64), 0)
        for _ in range(index % 7):  # a few moves in: mid-trick or between tricks
            s = int(view[V.SEAT])
            assert step(hands, view, nth_legal(hands[s], view, 0), log, err) == 0
        copies = [(hands.copy(), view.copy(), rngs.copy()) for _ in range(2)]
        ends = [play_on(fns, params, h, v, r, log, err) for h, v, r in copies]
        assert ends[0] == ends[1] > 0
        assert (copies[0][0] == copies[1][0]).all() and (copies[0][1] == copies[1][1]).all()


def test_an_illegal_action_leaves_the_state_as_it_was_and_names_itself():
    hands, leader, _ = _dealt(4, 3)
    view = np.zeros(V.SIZE, np.int64)
    start(hands, view, 4, 0, leader, np.zeros(MAX_PLAYERS, np.int64), 0)
    before = hands.copy(), view.copy()
    err = np.zeros(ERR_WIDTH, np.int64)
    pass_action = -1  # W7: the leader may not pass
    assert step(hands, view, pass_action, np.zeros((0, LOG_WIDTH), np.int64), err) == -1
    assert err[0] == ILLEGAL and err[1] == leader and err[3] == pass_action and err[4] == V.LEAD
    assert (hands == before[0]).all() and (view == before[1]).all()
