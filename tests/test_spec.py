"""Experiment spec files: validation with one-line errors naming file and key, and cells."""

import pytest

from simkit.core.errors import SimkitError
from simkit.experiments import spec as spec_module
from simkit.experiments.spec import Cell, load_spec, parse_spec_dict


def _texts(lineup) -> tuple[str, ...]:
    """A lineup's strategies as text: each is a canonical StrategySpec, written as its label."""
    return tuple(map(str, lineup))


BASE = {"name": "t", "players": 4, "hands": 1000, "lineup": ["hoard(release_at=3)", "spend", "lowest", "lowest"]}


def spec(**changes):
    data = {**BASE, **changes}
    return parse_spec_dict({k: v for k, v in data.items() if v is not None})


def test_a_valid_spec_and_its_defaults():
    s = spec()
    assert s.players == (4,) and s.hands == 1000 and s.seed == 0 and s.seating == "rotate"
    assert s.rules == {"ass_joker": "1or14"} and s.match == {"mode": "single"} and str(s.baseline) == "lowest"
    assert [(c.players, _texts(c.lineup), c.sweep) for c in s.cells()] == [
        (4, ("hoard(release_at=3)", "spend", "lowest", "lowest"), ())]


def test_a_sweep_and_a_player_list_expand_into_cells():
    s = spec(players=[3, 4], lineup=["hoard"], sweep={"hoard.release_at": [1, 2, 5]})
    cells = s.cells()
    assert len(cells) == 6
    assert (cells[0].players, _texts(cells[0].lineup), cells[0].sweep) == (
        3, ("hoard(release_at=1)",) * 3, (("hoard.release_at", 1.0),))
    assert _texts(cells[-1].lineup) == ("hoard(release_at=5)",) * 4


def test_a_pool_plays_every_pair():
    s = spec(lineup=None, pool=["greedy", "highest", "spend"])
    assert [_texts(c.lineup) for c in s.cells()] == [("greedy", "highest") * 2, ("greedy", "spend") * 2,
                                             ("highest", "spend") * 2]


@pytest.mark.parametrize("changes, message", [
    ({"colour": "red"}, "unknown key 'colour'"),
    ({"name": None}, "missing key 'name'"),
    ({"hands": "many"}, "key 'hands' must be a whole number"),
    ({"hands": 0}, "key 'hands' must be positive"),
    ({"players": 2}, "key 'players': Who's the Ass? needs 3 to 12 players"),
    ({"players": [4, 13]}, "3 to 12 players"),
    ({"players": "four"}, "key 'players' must be a number or a list"),
    ({"seed": -1}, "key 'seed': seed must be an integer from 0 to 2**64-1, got -1"),
    ({"seating": "random"}, "key 'seating' must be one of rotate, none"),
    ({"rules": {"ass_joker": "7"}}, "key 'rules': unknown value '7'"),
    ({"rules": {"jokers": "wild"}}, "key 'rules': unknown rule option 'jokers'"),
    ({"lineup": ["nosuch"]}, "key 'lineup': unknown strategy 'nosuch'"),
    ({"lineup": ["lowest", "spend"]}, "key 'lineup' has 2 strategies for [4] players"),
    ({"pool": ["greedy", "spend"]}, "give one of key 'lineup'"),
    ({"lineups": [["greedy"]]}, "give one of key 'lineup'"),
    ({"lineup": None, "lineups": ["greedy"]}, "key 'lineups' must be a list of lineups"),
    ({"lineup": None, "lineups": [["greedy", "spend"]]}, "key 'lineups' has a lineup of 2 strategies"),
    ({"model": {"attention": 2}}, "key 'model' does not apply to game 'whos-the-ass'"),
    ({"match": {"mode": "ezel"}}, "key 'match.mode' must be one of single, hands, threshold"),
    ({"lineup": None, "pool": ["greedy"]}, "at least two strategies"),
    ({"match": {"mode": "forever"}}, "key 'match.mode' must be one of"),
    ({"match": {"mode": "hands"}}, "key 'match.hands' must be a positive whole number"),
    ({"match": {"mode": "threshold", "threshold": 200, "x": 1}}, "unknown key 'match.x'"),
    ({"match": {"mode": "threshold", "threshold": 200, "hands": 5}},
     "key 'match.hands' does not apply to match mode 'threshold'"),
    ({"match": {"hands": 5}}, "key 'match.hands' does not apply to match mode 'single'"),
    ({"sweep": {"greedy.k": [1]}}, "for a strategy of the lineup or pool"),
    ({"sweep": {"hoard.k": [1]}}, "strategy 'hoard' has no parameter 'k'"),
    ({"sweep": {"hoard.release_at": [1, 99]}}, "outside 0..13"),
    ({"sweep": {"hoard.release_at": "3"}}, "must be a list of numbers"),
    ({"game": "chess"}, "unknown game 'chess'"),
    ({"baseline": "nosuch"}, "key 'baseline': unknown strategy 'nosuch'"),
    ({"name": "../x"}, "key 'name' must be letters"),
    ({"players": [4, 4]}, "key 'players' lists a player count twice"),
    ({"sweep": {"hoard.release_at": [1, 1]}}, "lists a value twice"),
])
def test_bad_specs_name_the_key(changes, message):
    with pytest.raises(SimkitError) as e:
        spec(**changes)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_the_cells_fit_the_cell_column(monkeypatch):
    monkeypatch.setattr(spec_module, "MAX_CELLS", 27)
    assert len(spec(players=[3, 4], lineup=["hoard"], sweep={"hoard.release_at": list(range(13))}).cells()) == 26
    with pytest.raises(SimkitError, match="the spec has 28 cells .* at most 27"):
        spec(players=[3, 4], lineup=["hoard"], sweep={"hoard.release_at": list(range(14))})


def test_a_spec_file_error_names_the_file(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text('name = "x"\nplayers = 4\nhands = 10\nlineup = ["lowest"]\nhandz = 3\n')
    with pytest.raises(SimkitError, match=r"bad.toml: unknown key 'handz'"):
        load_spec(str(path))
    path.write_text('name = "x\n')
    with pytest.raises(SimkitError, match=r"bad.toml: not valid TOML"):
        load_spec(str(path))
    with pytest.raises(SimkitError, match="does not exist"):
        load_spec(str(tmp_path / "none.toml"))
    path.write_text('name = "x"\nplayers = [3, 4]\nhands = 10\nlineup = ["lowest"]\n[match]\nmode = "threshold"\n'
                    'threshold = 200\n')
    assert load_spec(str(path)).match == {"mode": "threshold", "threshold": 200}


EZ = {"name": "e", "game": "ezelen", "players": 4, "hands": 100, "lineup": ["greedy", "random", "sticky", "memory"]}


def ezelen(**changes):
    data = {**EZ, **changes}
    return parse_spec_dict({k: v for k, v in data.items() if v is not None})


def test_an_ezelen_spec_with_its_own_keys():
    s = ezelen(model={"attention": [1, 1, 0.5, 1], "tempo_fault": 0.001}, match={"mode": "ezel"},
               sweep={"greedy.attention": [0.5, 2]})
    assert s.rules == {"beat": 3.0, "max_turns": 1000} and str(s.baseline) == "random" and s.match == {"mode": "ezel"}
    assert s.model == {"attention": [1.0, 1.0, 0.5, 1.0], "tempo_fault": 0.001}
    # a swept model value goes to the strategy's seats, not into its name
    assert [_texts(c.lineup) for c in s.cells()] == [("greedy", "random", "sticky", "memory")] * 2
    assert [c.sweep for c in s.cells()] == [(("greedy.attention", 0.5),), (("greedy.attention", 2.0),)]


def test_lineups_make_a_cell_each_and_a_table_of_one_strategy_is_played_once():
    s = ezelen(lineup=None, lineups=[["greedy", "random", "sticky", "memory"], ["random"]])
    cells = s.cells()
    assert [_texts(c.lineup) for c in cells] == [("greedy", "random", "sticky", "memory"), ("random",) * 4]
    assert [c.rotations(s.seating) for c in cells] == [4, 1]
    assert Cell(4, ("greedy", "random") * 2).rotations("rotate") == 2  # a, b, a, b repeats after two
    assert Cell(6, ("a", "b", "c") * 2).rotations("rotate") == 3 and Cell(4, ("a",) * 4).rotations("none") == 1


@pytest.mark.parametrize("changes, message", [
    ({"players": 14}, "key 'players': Ezelen needs 2 to 13 players"),
    ({"lineup": ["lowest"]}, "key 'lineup': unknown strategy 'lowest' for ezelen"),
    ({"rules": {"beat": -1}}, "key 'rules'"),
    ({"rules": {"ass_joker": "1"}}, "key 'rules': unknown rule option 'ass_joker'"),
    ({"model": {"attention": -1}}, "key 'model': model parameter attention=-1 is outside"),
    ({"model": {"focus": 1}}, "key 'model': unknown model parameter 'focus'"),
    ({"model": {"attention": [1, 2]}}, "key 'model': model parameter attention has 2 values for 4 players"),
    ({"players": [4, 5], "lineup": ["greedy"], "model": {"attention": [1, 1, 1, 1]}}, "needs one number"),
    ({"match": {"mode": "hands", "hands": 3}}, "key 'match.mode' must be one of single, ezel"),
    ({"sweep": {"greedy.focus": [1]}}, "strategy 'greedy' has no parameter or model value"),
    ({"sweep": {"random.attention": [1.0, 500]}}, "key 'sweep.random.attention': model parameter attention=500.0"),
])
def test_bad_ezelen_specs_name_the_key(changes, message):
    with pytest.raises(SimkitError) as e:
        ezelen(**changes)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_swept_values_are_played_exactly():
    """A swept value is written into the strategy's spec exactly, not rounded for display."""
    s = spec(lineup=["grab", "lowest", "lowest", "lowest"], sweep={"grab.max_cost": [12.3456789, 12.3456788, 20]})
    assert [str(c.lineup[0]) for c in s.cells()] == ["grab(max_cost=12.3456789)", "grab(max_cost=12.3456788)",
                                                  "grab(max_cost=20)"]
