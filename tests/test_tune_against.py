"""`simkit tune --against FIELD -n N`: the space of every built-in family (and compose), each family
at its defaults raced from the first round and confirmed against the winner, the spec kept in the
folder, and the command's errors."""

import json

import pytest

from simkit.analyses.tune import auto
from simkit.analyses.tune import spec as tune_spec
from simkit.analyses.tune.space import PLACEHOLDER
from simkit.analyses.tune.spec import load_tuning, parse_tuning
from simkit.core.errors import SimkitError
from simkit.strategies import registry

GAME = "whos-the-ass"


def _families(game: str) -> list:
    return [i for i in registry.available(game) if not (i.search or i.origin or i.model or i.composer)]


@pytest.mark.parametrize("game", ["whos-the-ass", "ezelen", "eigenwijs"])
def test_every_family_is_raced_at_its_defaults_and_confirmed(game):
    """Each built-in family is a start setting that plays exactly as the family (its label, or
    the same function and parameter vector), and each is confirmed against the winner."""
    field = "right" if game == "eigenwijs" else "greedy"
    t = parse_tuning(auto.against(game, 4, field, 5))
    assert {str(s) for s in t.baselines} == {i.name for i in _families(game)}
    if t.sampler == "grid":
        started = [c.spec for c in t.space.grid()]
    else:
        started = [t.space.candidate(s).spec for s in t.starts]
    played = {registry.resolve(game, s)[:2] for s in started}
    for i in _families(game):
        info, vector, _ = registry.resolve(game, i.name)
        same = (info.decide, vector) in {(d.decide, v) for d, v in played}
        assert i.name in {str(s) for s in started} or same, i.name


@pytest.mark.parametrize("game", ["whos-the-ass", "ezelen"])
def test_every_parameter_is_searched_with_its_default_on_the_grid(game):
    t = parse_tuning(auto.against(game, 4, "greedy", 5))
    dims = {d.name: d for d in t.space.dimensions}
    params = [p for i in _families(game) for p in i.params]
    assert params
    for p in params:
        found = [d for name, d in dims.items() if name == p.name or name.endswith("_" + p.name)]
        assert found, p.name
        d = found[0]
        assert (d.low, d.high) == (p.low, p.high) or p.default in d.values
        assert p.default in d.values, (p.name, p.default, d.values[:5])


def test_compose_is_searched_over_every_decision_point():
    t = parse_tuning(auto.against(GAME, 4, "greedy", 5))
    compose = next(i for i in registry.available(GAME) if i.points)
    template = next(c for c in t.space.dimensions[0].choices if c.startswith("compose("))
    assert set(PLACEHOLDER.findall(template)) == {point for point, _ in compose.points}
    for point, choices in compose.points:
        dim = next(d for d in t.space.dimensions if d.name == point)
        assert [c.split("(")[0] for c in dim.choices] == [name for name, _ in choices]


def test_a_setting_that_plays_as_a_family_is_named_by_it():
    t = parse_tuning(auto.against(GAME, 4, "greedy", 5))
    setting = {"strategy": t.space.dimensions[0].choices[0], "lead": "highest", "follow": "highest",
               "ass_lead": "dump", "ass": "dodge", "jokers": "as_needed", "reserve": "no_reserve"}
    assert t.space.candidate(setting).label == "highest"
    assert t.space.candidate(setting | {"follow": "greedy"}).label.startswith("compose(lead=highest, follow=greedy")
    grab = setting | {"ass": "grab(max_cost={max_cost})"}
    assert t.space.candidate(grab | {"max_cost": 35.0}).label.startswith("compose(")  # highest and grab: no family
    assert t.space.candidate(grab | {"lead": "lowest", "follow": "lowest", "max_cost": 35.0}).label == "grab"
    assert t.space.candidate(grab | {"lead": "lowest", "follow": "lowest", "max_cost": 40.0}).label == (
        "compose(lead=lowest, follow=lowest, ass_lead=dump, ass=grab(max_cost=40), jokers=as_needed, "
        "reserve=no_reserve)")


def test_the_spec_written_reads_back_as_the_same_tuning(tmp_path):
    data = auto.against(GAME, 5, "lowest,greedy,highest,greedy", 9)
    path = tmp_path / "spec.toml"
    path.write_text(auto.toml_text(data))
    assert load_tuning(str(path)) == parse_tuning(data)
    assert data["field"] == ["lowest", "greedy", "highest", "greedy"] and data["players"] == 5


@pytest.mark.parametrize("players, field, message", [
    (4, "nosuch", "unknown strategy 'nosuch'"),
    (4, "greedy,lowest", "names 2 strategies for 4 players"),
    (2, "greedy", "played by 3 to"),
])
def test_a_field_that_does_not_fit_is_one_error(players, field, message):
    with pytest.raises(SimkitError, match=message):
        auto.against(GAME, players, field, 0)


def test_the_cli_finds_the_best_reply_and_keeps_its_spec(run, tmp_path, monkeypatch):
    """Smaller than the command's own (16 settings, 300 confirmation deals): the same path."""
    monkeypatch.setattr(auto, "CANDIDATES", 16)
    monkeypatch.setattr(auto, "ITERATIONS", 2)
    monkeypatch.setattr(tune_spec, "CONFIRM", {"deals": 300})
    code, out, err = run("tune", "--against", "greedy", "-n", "4", "--seed", "3", "--out", tmp_path / "t")
    assert code == 0, err
    meta = json.loads((tmp_path / "t" / "tune.json").read_text())
    labels = [c["strategy"] for c in meta["confirmation"]]
    assert meta["winner"] == labels[0] and isinstance(meta["winner_candidate"], int)
    roles = {c["strategy"]: c["role"] for c in meta["confirmation"]}
    assert all("built-in" in roles[i.name] for i in _families(GAME))
    assert out.startswith(f"Against 3 x greedy at 4 players, the best of 16 settings is **{meta['winner']}**")
    again = load_tuning(str(tmp_path / "t" / "spec.toml"))
    assert again.baselines and again.sampler == "tpe" and again.candidates == 16
    code, _, err = run("tune", "--against", "greedy", "-n", "4", "--seed", "3", "--out", tmp_path / "t")
    assert code == 2 and err.count("\n") == 1 and "is not empty" in err


@pytest.mark.parametrize("args, message", [
    ((), "give a tuning spec (SPEC_FILE), or --against FIELD -n N"),
    (("--against", "greedy"), "--against needs -n"),
    (("experiments/tune-jokers-ass.toml", "--against", "greedy"), "not both"),
    (("experiments/tune-jokers-ass.toml", "-n", "4"), "-n applies with --against only"),
    (("experiments/tune-jokers-ass.toml", "--game", "ezelen"), "--game applies with --against only"),
    (("--against", "nosuch", "-n", "4"), "unknown strategy 'nosuch'"),
    (("--against", "greedy", "-n", "13"), "not 13"),
    (("--against", "greedy", "-n", "4", "--seed", "-1"), "seed"),
])
def test_the_cli_says_what_is_wrong_in_one_line(run, tmp_path, args, message):
    code, out, err = run("tune", *args, "--out", tmp_path / "x")
    assert code == 2 and message in err and err.strip().count("\n") <= 1, err
    assert not (tmp_path / "x").exists()
