"""Hardening, second round (issue 47, begun): sizes checked where they enter, with one line naming
the key or option and its limit, and options that do not apply refused rather than ignored."""

import tomllib

import pytest

from simkit.analyses.field.spec import parse_field
from simkit.core.errors import SimkitError


@pytest.mark.parametrize("key, value, message", [
    ("steps", 10 ** 20, "key 'analysis.steps' must be at most 10,000,000"),
    ("starts", 10 ** 9, "key 'analysis.starts' must be at most 100,000"),
    ("bootstrap", 10 ** 6, "key 'analysis.bootstrap' must be at most 1,000"),
    ("steps", 0, "key 'analysis.steps' must be a whole number of at least 1"),
])
def test_a_field_specs_analysis_sizes_are_bounded(key, value, message):
    with open("experiments/field-4p.toml", "rb") as f:
        data = tomllib.load(f)
    data.setdefault("analysis", {})[key] = value
    with pytest.raises(SimkitError, match=message.replace("(", r"\(")) as e:
        parse_field(data)
    assert "\n" not in str(e.value)


@pytest.fixture
def trace(run, tmp_path):
    code, _, err = run("trace", "-n", "4", "-H", "2", "-o", tmp_path / "t.jsonl")
    assert code == 0, err
    return tmp_path / "t.jsonl"


@pytest.mark.parametrize("args, message", [
    (("grade", "TRACE", "--seat", "0", "-H", str(10 ** 20)), "--hands must be at most 1,000,000,000"),
    (("grade", "experiments/grading/grade-4p.toml", "--out", "OUT", "-H", str(10 ** 20)),
     "--hands must be at most 1,000,000,000"),
    (("show", "TRACE", "--samples", "8"), "--samples goes with --grade SEAT"),
    (("show", "TRACE", "--search", "cheat"), "--search goes with --grade SEAT"),
    (("show", "TRACE", "--seed", "3"), "--seed goes with --grade SEAT"),
])
def test_sizes_and_options_that_do_not_apply_are_one_line(run, trace, tmp_path, args, message):
    named = {"TRACE": str(trace), "OUT": str(tmp_path / "x")}
    code, out, err = run(*[named.get(a, a) for a in args])
    assert code == 2 and message in err and err.count("\n") == 1 and not out
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("args, message", [
    (("simulate", "--game", "eigenwijs", "-n", "4", "-H", "10", "--chicks", "true", "--rule", "chicks=false"),
     "--chicks true and --rule chicks=false set the same rule differently"),
    (("simulate", "-n", "4", "-H", "10", "--rule", "ass_joker=1", "--rule", "ass_joker=any"),
     "--rule ass_joker=1 and --rule ass_joker=any set the same rule differently"),
])
def test_two_options_that_set_one_rule_differently_are_an_error(run, args, message):
    code, out, err = run(*args)
    assert code == 2 and message in err and err.count("\n") == 1 and not out


def test_two_options_that_agree_are_fine(run):
    code, _, err = run("simulate", "--game", "eigenwijs", "-n", "4", "-H", "10", "--chicks", "true", "--rule",
                       "chicks=true")
    assert code == 0, err
