"""The passing strategies (M1, M7), their registration with attention profiles (M8), and users'
own Ezelen strategies in files."""

import textwrap
from collections import Counter

import numpy as np
import pytest
from test_ezelen_scripts import play_both

from simkit.core.errors import SimkitError
from simkit.games.ezelen import batch, reference
from simkit.games.ezelen import view as V
from simkit.games.ezelen.rules import GAME, check_rules
from simkit.games.ezelen.strategy import MAX_PARAMS, MEMORY_SIZE, seats_for
from simkit.strategies import registry
from simkit.strategies.plugins import load_strategy_file


def decide(name, hand_values, n=4, turn=0, received=(), params=None, memory=None, state=1):
    """Call a registered strategy directly on a hand given as a list of values."""
    info, vector, _ = registry.resolve(GAME, name)
    hand = np.bincount(np.array(hand_values), minlength=13).astype(np.int64)
    view = np.zeros(V.SIZE, np.int64)
    view[V.PLAYERS], view[V.TURN] = n, turn
    for v in received:
        view[V.RECEIVED + v] += 1
    p = np.zeros(MAX_PARAMS)
    p[: len(vector)] = vector if params is None else params
    memory = np.zeros(MEMORY_SIZE, np.int64) if memory is None else memory
    return int(info.decide(hand, view, p, memory, np.array([state], np.uint64)))


def test_the_builtin_strategies_are_registered():
    assert {i.name for i in registry.available(GAME)} >= {"random", "greedy", "sticky", "memory", "watcher", "dreamer"}
    assert all(i.description for i in registry.available(GAME))


def test_m7_greedy_passes_a_value_held_least_ties_at_random():
    assert all(decide("greedy", [0, 0, 0, 1], state=k) == 1 for k in range(50))
    picks = Counter(decide("greedy", [2, 2, 1, 3], state=k) for k in range(400))
    assert set(picks) == {1, 3} and min(picks.values()) > 150  # never the pair


def test_sticky_keeps_its_target_for_the_whole_round():
    memory = np.zeros(MEMORY_SIZE, np.int64)
    first = decide("sticky", [0, 0, 1, 2], memory=memory)
    assert first in (1, 2) and memory[0] == 1  # target 0 (held twice), remembered as 1 + value
    # later, with two 3s and one 0, it still keeps the 0s and passes a 3 or the other card
    assert all(decide("sticky", [0, 3, 3, 1], memory=memory.copy(), state=k) != 0 for k in range(50))
    picks = Counter(decide("sticky", [0, 1, 2, 3], state=k) for k in range(400))  # tie at the deal: random target
    assert set(picks) == {0, 1, 2, 3}


def test_memory_drops_values_that_come_rarely():
    # one each of 0..3; in 6 turns 0 came three times, 2 twice, 3 once, 1 never: the 1 goes
    hand = [0, 1, 2, 3]
    received = [0, 0, 0, 2, 2, 3]
    assert all(decide("memory", hand, turn=6, received=received, state=k) == 1 for k in range(50))
    # before the warmup it plays like greedy: a random one of the four
    assert len({decide("memory", hand, turn=2, received=received, state=k) for k in range(100)}) == 4


def test_memory_with_weight_0_is_greedy():
    rules = check_rules({"max_turns": 100})
    greedy = list(batch.traces(seats_for(["greedy"], 5), 100, 4, rules))
    memory = list(batch.traces(seats_for(["memory(weight=0)"], 5), 100, 4, rules))
    assert [r["turns"] for r in greedy] == [r["turns"] for r in memory]


def test_m8_profiles_bring_their_model_values_to_their_seat():
    seats = seats_for(["watcher", "dreamer", "greedy"], 3)
    assert dict(seats[0].model) == {"attention": 1.5, "reaction_median": 0.5}
    assert dict(seats[1].model) == {"attention": 0.6}
    assert seats[2].model == ()
    assert seats[0].decide is seats[2].decide  # the same passing policy


def test_specs_resolve_with_parameters_and_errors_are_clear():
    seats = seats_for(["memory(weight=2.5, warmup=1)", "greedy"], 2)
    assert seats[0].label == "memory(weight=2.5, warmup=1)" and seats[0].params[:2] == (2.5, 1.0)
    with pytest.raises(SimkitError, match="unknown strategy 'lowest' for ezelen"):
        seats_for(["lowest"], 3)
    with pytest.raises(SimkitError, match="2 strategies given for 3 players"):
        seats_for(["greedy", "random"], 3)
    with pytest.raises(SimkitError, match="must be a whole number"):
        seats_for(["memory(warmup=1.5)"], 3)


HEADER = """
from simkit.games.ezelen import view as V
from simkit.games.ezelen.strategy import strategy
"""


def write(tmp_path, name, body):
    path = tmp_path / name
    path.write_text(HEADER + textwrap.dedent(body))
    return str(path)


def test_a_users_strategy_file_plays_in_both_engines_with_its_own_profile(tmp_path):
    path = write(tmp_path, "ez_user.py", """
    @strategy("highest_first", "Pass the highest value held.", model={"tempo_fault": 0.01, "attention": 2.0})
    def highest_first(hand, view, params, memory, rng):
        for v in range(view[V.PLAYERS] - 1, -1, -1):
            if hand[v] > 0:
                return v
        return -1
    """)
    load_strategy_file(path)
    seats = seats_for(["highest_first", "greedy", "highest_first"], 3)
    rules = check_rules({"max_turns": 50})
    for k, rec in enumerate(batch.traces(seats, 30, 2, rules)):
        assert rec == reference.trace_round(2, k, 0, seats, rules)
    assert rec["model"]["tempo_fault"] == [0.01, 0.0005, 0.01] and rec["model"]["attention"] == [2.0, 1.0, 2.0]
    play_both([[0, 1, 2, 2], [0, 0, 1, 1], [0, 1, 2, 2]], seats, {"max_turns": 3})


@pytest.mark.parametrize("body, message", [
    ("""
    @strategy("four_args", "x")
    def four_args(hand, view, params, rng):
        return 0
    """, "a strategy takes (hand, view, params, memory, rng), this one takes (hand, view, params, rng)"),
    ("""
    @strategy("writer", "x")
    def writer(hand, view, params, memory, rng):
        view[0] = 1
        return 0
    """, "writer: does not compile: it writes to hand, view or params"),
    ("""
    @strategy("bad_profile", "x", model={"attention": 500.0})
    def bad_profile(hand, view, params, memory, rng):
        return 0
    """, "bad_profile: model parameter attention=500.0 is outside 0..100"),
])
def test_mistakes_in_a_strategy_file_are_one_clear_line(tmp_path, body, message):
    path = write(tmp_path, "ez_bad.py", body)
    with pytest.raises(SimkitError) as e:
        load_strategy_file(path)
    assert message in str(e.value) and "ez_bad.py" in str(e.value)
