"""Users' strategy files: the worked example runs at full speed through both engines, and every
kind of mistake in a file is one clear line naming the file and the function."""

import textwrap

import pytest

from simkit.games.whos_the_ass import batch, reference
from simkit.games.whos_the_ass.rules import check_rules
from simkit.games.whos_the_ass.strategy import seats_for
from simkit.strategies.plugins import load_strategy_file

EXAMPLE = "strategies/examples/my_strategies.py"


def write(tmp_path, name, body):
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return path


HEADER = """
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.action import PASS, LEAD_ASS, make_set
from simkit.games.whos_the_ass.strategy import strategy
"""


def test_the_example_file_works_first_time(run):
    code, out, err = run("simulate", "--strategy-file", EXAMPLE, "-n", "4", "-H", "20000",
                         "--strategies", "pairs_first,lowest,pairs_first(min_raise=3),lowest")
    assert code == 0, err
    assert "pairs_first(min_raise=3)" in out
    code, out, _ = run("strategies", "--strategy-file", EXAMPLE)
    assert "pairs_first(min_raise=8)" in out and "min_raise: 1..13" in out


def test_the_example_plays_identically_in_both_engines():
    load_strategy_file(EXAMPLE)
    for option in ("1or14", "1", "any"):
        rules = check_rules({"ass_joker": option})
        for n in (3, 7, 12):
            seats = seats_for(["pairs_first", "random", "lowest"] * 4, 12)[:n]
            for k, fast in enumerate(batch.traces(seats, 15, 5, rules)):
                assert fast == reference.trace_hand(5, k, seats, rules)


def test_trace_and_check_with_a_user_strategy(run, tmp_path):
    out = tmp_path / "t.jsonl"
    code, _, err = run("trace", "--strategy-file", EXAMPLE, "-n", "4", "-H", "5", "--strategies", "pairs_first",
                       "-o", out)
    assert code == 0, err
    code, text, _ = run("check", out)
    assert code == 0 and "5 hands follow the rules" in text


@pytest.mark.parametrize("body, message", [
    (HEADER + """
@strategy("two_args", "x")
def two_args(hand, view):
    return PASS
""", "my.py: two_args: a strategy takes (hand, view, params, rng), this one takes (hand, view)"),
    (HEADER + """
@strategy("bad_types", "x")
def bad_types(hand, view, params, rng):
    return "pass"
""", "my.py: bad_types: does not compile"),
    (HEADER + """
@strategy("writer", "x")
def writer(hand, view, params, rng):
    hand[14] += 1
    return PASS
""", "my.py: writer: does not compile"),
    (HEADER + """
@strategy("broken", "x")
def broken(hand, view, params, rng)
    return PASS
""", "my.py, line 7: syntax error"),
    (HEADER + """
raise RuntimeError("boom")
""", "my.py, line 6: RuntimeError: boom"),
    ("from simkit.whos_the_ass.strategy import strategy\n",  # a module simkit had before its layers: where it went
     "No module named 'simkit.whos_the_ass' (a game's modules are in simkit.games.<game>"),
    (HEADER + """
@strategy("lowest", "a second lowest")
def lowest(hand, view, params, rng):
    return PASS
""", "registered twice"),
])
def test_mistakes_in_a_strategy_file_are_one_clear_line(run, tmp_path, body, message):
    path = write(tmp_path, "my.py", body)
    code, out, err = run("simulate", "--strategy-file", path, "-n", "4", "-H", "10")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err, err


def test_an_illegal_move_names_the_file_and_function(run, tmp_path):
    path = write(tmp_path, "sneaky.py", HEADER + """
@strategy("always_pass", "passes even when leading")
def always_pass(hand, view, params, rng):
    return PASS
""")
    out_file = tmp_path / "t.jsonl"
    assert run("trace", "-n", "4", "-o", out_file)[0] == 0  # an earlier result
    earlier = out_file.read_text()
    code, _, err = run("trace", "--strategy-file", path, "-n", "4", "--strategies", "always_pass", "-o", out_file)
    assert code == 2
    assert "strategy 'always_pass' (sneaky.py: always_pass) at seat" in err and "illegal move" in err
    assert err.count("\n") == 1
    assert out_file.read_text() == earlier  # nothing half-written, the earlier result kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sneaky.py", "t.jsonl"]


def test_a_missing_strategy_file(run):
    code, _, err = run("simulate", "--strategy-file", "nope.py", "-n", "4")
    assert code == 2 and "strategy file nope.py does not exist" in err


def test_installed_packages_offer_strategies_through_entry_points(tmp_path, monkeypatch):
    import importlib.metadata

    from simkit.strategies import registry

    (tmp_path / "simkit_extra_strats.py").write_text(textwrap.dedent(HEADER + """
@strategy("from_a_package", "always leads the lowest card alone")
def from_a_package(hand, view, params, rng):
    if view[V.PHASE] == V.LEAD and view[V.MAY_LEAD_ASS] == 1:
        return LEAD_ASS
    for v in range(1, 14):
        if hand[v] > 0:
            return make_set(v, 1, 0) if view[V.PHASE] != V.FOLLOW else PASS
    return make_set(14, 0, 1) if view[V.PHASE] == V.LEAD else make_set(1, 0, 1)
"""))
    monkeypatch.syspath_prepend(str(tmp_path))
    point = importlib.metadata.EntryPoint("extra", "simkit_extra_strats", registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(importlib.metadata, "entry_points",
                        lambda group=None: [point] if group == registry.ENTRY_POINT_GROUP else [])
    seats = seats_for(["from_a_package", "lowest", "lowest"], 3)
    assert batch.play(seats, 100, 1).penalties.shape == (100, 3)


def test_a_broken_installed_package_is_named(monkeypatch):
    import importlib.metadata

    from simkit.strategies import registry

    point = importlib.metadata.EntryPoint("broken", "no_such_module_xyz", registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(importlib.metadata, "entry_points",
                        lambda group=None: [point] if group == registry.ENTRY_POINT_GROUP else [])
    with pytest.raises(Exception, match="installed package 'no_such_module_xyz'"):
        registry.available("whos-the-ass")


def test_an_installed_package_of_simkit_before_its_layers_is_told_where_the_modules_went(monkeypatch):
    import importlib.metadata

    from simkit.strategies import registry

    point = importlib.metadata.EntryPoint("old", "simkit.registry", registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(importlib.metadata, "entry_points",
                        lambda group=None: [point] if group == registry.ENTRY_POINT_GROUP else [])
    monkeypatch.setattr(registry, "_ENTRY_POINTS_LOADED", [])
    with pytest.raises(Exception, match="No module named 'simkit.registry' .*Moved modules"):
        registry.available("whos-the-ass")
