"""Tuning model values (a spec's `profile` with placeholders): the values worked out from each
setting (arithmetic, never code), played at the candidate's seat exactly as a fixed profile plays
them, each candidate labelled by them, and every problem one error line."""

import numpy as np
import pytest

from simkit.analyses.tune.expression import evaluate
from simkit.analyses.tune.play import Table, deal_values
from simkit.analyses.tune.run import candidates_of, run_tuning
from simkit.analyses.tune.spec import parse_tuning
from simkit.analyses.tune.summary import read
from simkit.core.errors import SimkitError

SPEED = {"name": "speed", "game": "eigenwijs", "players": 3, "seed": 4, "field": ["right", "right"],
         "tune": "right", "default": "right", "budget": 400_000,
         "profile": {"call_median": "{pace}", "slip": "0.03 / {pace}"},
         "space": {"pace": [0.5, 1.0, 2.5]}, "race": {"first": 512}, "confirm": {"deals": 2000}}


@pytest.mark.parametrize("text, value", [("0.03 / 0.5", 0.06), ("-(2 - 3) ** 2 * 1.5", -1.5), ("1e-3 + +2", 2.001),
                                         ("4 ** 0.5", 2.0)])
def test_arithmetic_is_worked_out(text, value):
    assert evaluate(text) == pytest.approx(value)


@pytest.mark.parametrize("text, message", [
    ("__import__('os').system('true')", "is not arithmetic"),
    ("pace * 2", "is not arithmetic"),
    ("1 / 0", "has no value"),
    ("10 ** 10 ** 10", "an exponent above 64"),
    ("(-8) ** 0.5", "no finite real value"),
    ("0.03 /", "is not arithmetic"),
])
def test_anything_else_is_one_error_line(text, message):
    with pytest.raises(SimkitError, match=message) as e:
        evaluate(text)
    assert "\n" not in str(e.value)


def test_each_setting_gives_its_seat_the_model_values_worked_out():
    t = parse_tuning(SPEED)
    cands = candidates_of(t)
    assert [c.label for c in cands] == ["right with call_median=0.5, slip=0.06", "right with call_median=1, slip=0.03",
                                        "right with call_median=2.5, slip=0.012"]
    assert [dict(c.setting) for c in cands] == [{"pace": 0.5}, {"pace": 1.0}, {"pace": 2.5}]
    tuned = deal_values(Table(t.table, t.field, t.profile), cands, 0, 300)
    for c, row in zip(cands, tuned):  # the same games as a fixed profile of those values
        fixed = deal_values(Table(t.table, t.field, c.model), [c.spec], 0, 300)
        assert np.array_equal(row, fixed[0])
    assert not np.array_equal(tuned[0], tuned[2])


def test_a_race_of_model_values_finds_the_pace_that_wins_and_confirms_it(tmp_path):
    meta = read(run_tuning(parse_tuning(SPEED), str(tmp_path / "t")))
    assert meta["winner"] != "right with call_median=2.5, slip=0.012"  # hesitating past 3 s: a fault a turn in 3
    slow = meta["candidates"].index(next(c for c in meta["candidates"] if c["setting"] == {"pace": 2.5}))
    assert slow in {c for r in meta["rounds"] for c in r["dropped"]}
    rows = {c["strategy"]: c["role"] for c in meta["confirmation"]}
    assert rows["right"] == "default and field" and rows[meta["winner"]] == "winner"


def test_fixed_and_tuned_model_values_mix():
    t = parse_tuning(SPEED | {"profile": {"call_median": "{pace}", "false_slap": 0.0}})
    assert t.profile == (("false_slap", 0.0),) and t.space.profile == (("call_median", "{pace}"),)
    assert candidates_of(t)[0].label == "right with call_median=0.5"


def test_ezelen_attention_is_tuned_with_the_strategy():
    t = parse_tuning({"name": "eyes", "game": "ezelen", "players": 4, "field": ["greedy"] * 3,
                      "tune": "memory(weight={w})", "default": "greedy", "budget": 1000,
                      "profile": {"attention": "{a}"}, "space": {"w": [0, 2], "a": [0.6, 1.5]}})
    assert [c.label for c in candidates_of(t)] == [
        "memory(weight=0) with attention=0.6", "memory(weight=0) with attention=1.5",
        "memory(weight=2) with attention=0.6", "memory(weight=2) with attention=1.5"]


@pytest.mark.parametrize("change, message", [
    ({"profile": {"focus": "{pace}"}}, "key 'profile': unknown model parameter 'focus'"),
    ({"profile": {"call_median": "{speed}"}}, "placeholder {speed} has no values"),
    ({"profile": {"call_median": "{pace}", "slip": "0.9 / {pace}"}}, "slip"),
    ({"profile": {"call_median": "{pace} + x"}}, "is not arithmetic"),
    ({"tune": "right", "profile": {}}, "'space.pace' is not a placeholder of 'tune', of a choice or of 'profile'"),
])
def test_a_model_value_that_does_not_fit_is_one_error(change, message):
    with pytest.raises(SimkitError, match=message) as e:
        parse_tuning(SPEED | change)
    assert "\n" not in str(e.value)


def test_a_spec_without_model_values_reads_as_before():
    t = parse_tuning(SPEED | {"profile": {"call_median": 0.8}, "tune": "{who}", "space": {"who": ["right", "careful"]}})
    assert t.profile == (("call_median", 0.8),) and not t.space.profile
    assert [c.label for c in candidates_of(t)] == ["right", "careful"]
