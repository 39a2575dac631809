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


# sizes of the long commands, where they enter -----------------------------------------------------

TUNING = "experiments/tune-jokers-ass.toml"
FIELD = "experiments/field-4p.toml"
GRADING = "experiments/grading/grade-4p.toml"


def _edited(tmp_path, source: str, **keys) -> str:
    """A built-in spec with keys changed ("a.b" a key of table a), written as TOML."""
    with open(source, "rb") as f:
        data = tomllib.load(f)
    for key, value in keys.items():
        *tables, last = key.split(".")
        place = data
        for t in tables:
            place = place.setdefault(t, {})
        place[last] = value
    path = tmp_path / "edited.toml"
    path.write_text(_toml(data))
    return str(path)


def _toml(data: dict, prefix: str = "") -> str:
    import json
    import math

    def value(v):
        if isinstance(v, float) and not math.isfinite(v):
            return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
        return json.dumps(v)
    plain = "".join(f"{k} = {value(v)}\n" for k, v in data.items() if not isinstance(v, dict))
    return plain + "".join(f"\n[{prefix}{k}]\n" + _toml(v, f"{prefix}{k}.") for k, v in data.items()
                           if isinstance(v, dict))


@pytest.mark.parametrize("command, source, keys, options, message", [
    ("field", FIELD, {}, ("-H", str(10 ** 20)), "--hands (deals per profile) 1e+20 would play"),
    ("field", FIELD, {"hands": 10 ** 18}, (), "key 'hands' (deals per profile) 1e+18 would play 2.07e+22 hands"),
    ("tune", TUNING, {"budget": 10 ** 20}, (), "key 'budget' 1e+20 at most 1,000,000,000,000 hands"),
    ("tune", TUNING, {}, ("--budget", str(10 ** 13)), "--budget 10,000,000,000,000 at most"),
    ("tune", TUNING, {"confirm.deals": 10 ** 20}, (), "key 'confirm.deals' 1e+20 would play 1.6e+21 hands in all"),
    ("tune", TUNING, {"budget": -5}, (), "key 'budget' must be positive"),
    ("tune", TUNING, {"budget": float("nan")}, (), "key 'budget' must be a whole number"),
    ("tune", TUNING, {"race.growth": float("inf")}, (), "key 'race.growth' must be 1..16, got inf"),
    ("field", FIELD, {"analysis.epsilon": float("nan")}, (), "key 'analysis.epsilon'"),
    ("grade", GRADING, {"hands": 10 ** 20}, ("--out", "OUT"), "key 'hands' must be at most 1,000,000,000"),
    ("grade", GRADING, {"hands": 10 ** 9}, ("--out", "OUT"), "a grading of 2,000,000,000 hands would need"),
    ("grade", GRADING, {"samples": float("-inf")}, ("--out", "OUT"), "key 'samples' must be a whole number"),
])
def test_the_long_commands_sizes_are_checked_where_they_enter(run, tmp_path, command, source, keys, options,
                                                               message):
    spec = _edited(tmp_path, source, **keys)
    out = tmp_path / "out"
    code, stdout, err = run(command, spec, *[str(out) if o == "OUT" else o for o in options],
                            *(("--out", str(out)) if "--out" not in options else ()))
    assert code == 2 and message in err and err.count("\n") == 1 and not stdout, err
    assert not out.exists()


# options that do not apply, conflicts, files simkit did not write -----------------------------------

@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """A small grading's folder."""
    from simkit.analyses.grading.run import run_grading
    from simkit.analyses.grading.spec import parse_grading

    folder = tmp_path_factory.mktemp("graded") / "g"
    run_grading(parse_grading({"name": "g", "players": 3, "hands": 2, "graded": ["greedy"], "field": "lowest",
                               "samples": 4}), str(folder))
    return folder


def test_a_baseline_for_a_folder_without_one_is_an_error(run, graded):
    before = (graded / "report.html").read_bytes()
    code, out, err = run("report", graded, "--baseline", "nonsense")
    assert code == 2 and "--baseline applies to an experiment's report; " in err and "holds a grading" in err
    assert (graded / "report.html").read_bytes() == before


@pytest.mark.parametrize("args, file, message", [
    (("trace", "-n", "4", "-H", "2", "-o", "FILE"), "spec.toml", "spec.toml exists and is not a trace simkit wrote"),
    (("simulate", "-n", "4", "-H", "20", "--csv", "FILE"), "notes.csv", "notes.csv exists and is not a table simkit"),
])
def test_a_file_simkit_did_not_write_is_not_replaced_without_force(run, tmp_path, args, file, message):
    mine = tmp_path / file
    mine.write_text("name = 'mine'\n")
    code, out, err = run(*[str(mine) if a == "FILE" else a for a in args])
    assert code == 2 and message in err and "--force to replace it" in err and err.count("\n") == 1 and not out
    assert mine.read_text() == "name = 'mine'\n"
    code, _, err = run(*[str(mine) if a == "FILE" else a for a in args], "--force")
    assert code == 0, err
    assert mine.read_text() != "name = 'mine'\n"
    code, _, err = run(*[str(mine) if a == "FILE" else a for a in args])  # simkit's own: replaced
    assert code == 0, err


def test_force_without_a_file_is_an_error(run):
    code, out, err = run("simulate", "-n", "4", "-H", "20", "--force")
    assert code == 2 and "--force goes with --csv FILE" in err and not out


def test_resume_with_nothing_to_resume_says_so(run, tmp_path):
    code, out, err = run("run", "experiments/quick.toml", "--out", tmp_path / "new", "--resume")
    assert code == 2 and "holds no simkit run to resume (it is empty)" in err and not out
    assert not (tmp_path / "new").exists()
    code, out, err = run("grade", GRADING, "--out", tmp_path / "new", "--resume")
    assert code == 2 and "holds no grading to resume" in err and not out
    code, out, err = run("grade", "t.jsonl", "--seat", "0", "--resume")
    assert code == 2 and "--resume is for a grading spec" in err


def test_a_grading_folder_is_checked_before_any_line_of_progress(run, tmp_path):
    target = tmp_path / "file"
    target.write_text("mine")
    code, out, err = run("grade", GRADING, "--out", target)
    assert code == 2 and err == f"simkit: error: --out {target} is not a folder; give a new folder or an earlier " \
                                "grading's\n" and not out
    assert target.read_text() == "mine"


def test_a_grading_folder_in_use_is_refused(run, tmp_path):
    import os

    from simkit.experiments import runner

    folder = tmp_path / "g"
    folder.mkdir()
    (folder / runner.PID).write_text("4242\n")
    fd = os.open(folder, os.O_RDONLY)  # held by "another process": a lock on a descriptor of its own
    try:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        code, out, err = run("grade", GRADING, "--out", folder, "-H", "1")
        assert code == 2 and f"{folder} is in use by process 4242" in err and not out
    finally:
        os.close(fd)


@pytest.mark.parametrize("rule, message", [
    ('chicks = "yes"', "rule option chicks must be true or false in a spec, got 'yes'"),
    ("egg_cards = 5", "rule option egg_cards must be a list in a spec, got 5"),
    ('hesitation = "3"', "rule option hesitation must be a number in a spec, got '3'"),
])
def test_a_specs_rule_values_have_their_toml_types(run, tmp_path, rule, message):
    spec = tmp_path / "e.toml"
    spec.write_text(f'name = "e"\ngame = "eigenwijs"\nplayers = 3\nhands = 20\nlineup = ["right"]\n[rules]\n{rule}\n')
    code, out, err = run("run", spec, "--out", tmp_path / "o")
    assert code == 2 and f"key 'rules': {message}" in err and not out


@pytest.mark.parametrize("key, value, message", [
    ("field", ["nope", "greedy", "greedy"], "key 'field': unknown strategy 'nope'"),
    ("default", "greedy(x=1)", "key 'default': strategy 'greedy' has no parameter 'x'"),
])
def test_tunings_errors_name_their_own_keys(key, value, message):
    from simkit.analyses.tune.spec import parse_tuning

    with open(TUNING, "rb") as f:
        data = tomllib.load(f)
    data[key] = value
    with pytest.raises(SimkitError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_tuning(data)
