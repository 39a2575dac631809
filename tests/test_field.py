"""`simkit field`: the profiles and their seatings, the equilibria of games with known answers
(a dominant strategy, an anti-coordination game, rock-paper-scissors, a volunteer's dilemma),
strategies that play alike, the payoff table against the runner's statistics, a field played
and analysed (a dominated strategy, two identical ones, Ezelen's attention profiles), the same
table bit for bit for any threads, workers and Ctrl-C with --resume, and the errors."""

import json
import math

import numba as nb
import numpy as np
import pandas as pd
import pytest
from conftest import TINY_FIELD, built_in_fields, toml_with

from simkit import experiments
from simkit.analyses.field import profiles
from simkit.analyses.field import run as field_run
from simkit.analyses.field.analysis import analyse
from simkit.analyses.field.equilibria import Payoffs, same_play, solve, starts
from simkit.analyses.field.play import Rows, play_task, tasks, weights
from simkit.analyses.field.run import run_field
from simkit.analyses.field.spec import load_field, parse_field
from simkit.core.errors import SimkitError
from simkit.experiments.report import tables
from simkit.experiments.spec import parse_spec_dict
from simkit.strategies.plugins import load_strategy_file

TINY = TINY_FIELD


def tiny(**changes) -> dict:
    return toml_with(TINY, **changes)


def test_profiles_are_every_multiset_and_every_seating():
    counts = profiles.multisets(12, 4)
    assert len(counts) == profiles.count(12, 4) == 1365 and (counts.sum(axis=1) == 4).all()
    assert len({tuple(c) for c in counts}) == 1365
    assert sum(profiles.arrangements(c) for c in counts) == 12 ** 4  # every sequence of the pool once
    c = np.array([2, 1, 1])
    assert profiles.seatings(c) == sorted(set(__import__("itertools").permutations((0, 0, 1, 2))))
    assert len(profiles.seatings(c)) == profiles.arrangements(c) == 12
    opponents = profiles.multisets(5, 3)
    assert profiles.coefficients(opponents).sum() == 5 ** 3
    rows = Rows.of(3, 3)
    assert rows.first[-1] == len(rows.profile) and (rows.copies >= 1).all()


def game_of(k: int, n: int, payoff, lower: bool = False) -> Payoffs:
    """The game whose strategy s earns payoff(s, opponents' counts) in every profile."""
    rows = Rows.of(k, n)
    counts = profiles.multisets(k, n)
    means = np.array([payoff(int(m), counts[p] - np.eye(k, dtype=np.int64)[m]) for p, m in zip(rows.profile,
                                                                                                  rows.member)])
    return Payoffs.of(means, k, n, lower)


def equilibria(game: Payoffs, count: int = 16):
    return solve(game, starts(game.k, count, 1), 3000, 1e-6)


def test_a_dominant_strategy_is_the_equilibrium_alone_lower_or_higher_is_better():
    costs = [3.0, 1.0, 2.0, 5.0]
    for lower, sign in ((True, 1), (False, -1)):
        game = game_of(4, 4, lambda s, q: sign * costs[s] + 0.1 * q[0], lower)
        found = equilibria(game)
        assert len(found) == 1 and found[0].support == (1,) and found[0].regret == 0
        assert np.allclose(game.regrets(found[0].weights), [2, 0, 1, 4])
        assert found[0].basin == 16


def test_an_anti_coordination_game_has_its_mixed_equilibrium():
    """Two players: hawk against hawk 0, hawk against dove 3, dove against hawk 1, dove against
    dove 2: a hawk share of 1/2 makes both equally good; the pure profiles are not equilibria."""
    table = [[0, 3], [1, 2]]
    game = game_of(2, 2, lambda s, q: table[s][int(np.argmax(q))])
    found = equilibria(game)
    assert len(found) == 1
    assert np.allclose(found[0].weights, [0.5, 0.5], atol=1e-9) and found[0].regret < 1e-9


def test_rock_paper_scissors_circles_and_its_centre_is_found():
    """The replicator dynamics circle around the centre; the time average and Newton's method on
    the support find it."""
    beats = [[0, -1, 1], [1, 0, -1], [-1, 1, 0]]
    game = game_of(3, 2, lambda s, q: beats[s][int(np.argmax(q))])
    found = equilibria(game)
    assert any(np.allclose(e.weights, 1 / 3, atol=1e-9) for e in found)
    assert all(e.regret < 1e-6 * game.spread for e in found)


def test_a_volunteers_dilemma_at_three_players():
    """Volunteering costs 1/4 and gives everyone 1; with no volunteer nobody gets anything. The
    symmetric equilibrium volunteers with p where (1 - p)^2 = 1/4: p = 1/2."""
    game = game_of(2, 3, lambda s, q: 0.75 if s == 0 else (1.0 if q[0] > 0 else 0.0))
    found = equilibria(game)
    assert len(found) == 1 and np.allclose(found[0].weights, [0.5, 0.5], atol=1e-9)


def test_a_weight_the_dynamics_leave_behind_is_dropped():
    """Strategy 1 is worse than 0 by 10^-3 in a table whose spread is 50: the dynamics barely move
    between them in 3,000 steps, but the mix they reach is settled to 0 alone."""
    costs = [0.0, 0.001, 50.0]
    game = game_of(3, 4, lambda s, q: costs[s], lower=True)
    found = equilibria(game, 4)
    assert len(found) == 1 and found[0].support == (0,) and found[0].regret == 0


def test_with_no_equilibrium_within_the_tolerance_the_closest_is_marked():
    """A tolerance nothing meets (below zero): the mix of least regret comes back, marked."""
    table = [[0, 3], [1, 2]]
    game = game_of(2, 2, lambda s, q: table[s][int(np.argmax(q))])
    found = solve(game, starts(2, 4, 1), 3000, -1.0)
    assert len(found) == 1 and found[0].extra == {"approximate": True}
    assert np.allclose(found[0].weights, [0.5, 0.5], atol=1e-9) and found[0].regret < 1e-9


def test_strategies_that_play_alike_are_one_class():
    k, n = 3, 3
    rows = Rows.of(k, n)
    counts = profiles.multisets(k, n)
    value = [4, 7, 4]  # strategies 0 and 2 alike: the table is the same with them swapped

    def total(p, m):
        return value[m] * 100 + 10 * (counts[p][0] + counts[p][2]) + counts[p][1]

    sums = np.array([total(p, m) for p, m in zip(rows.profile, rows.member)])
    table = np.column_stack([sums, sums * 3, sums * 5])
    assert same_play(table, k, n) == [[0, 2], [1]]
    table[0, 2] += 1  # one bootstrap sum differs: not alike
    assert same_play(table, k, n) == [[0], [1], [2]]


def test_bootstrap_weights_do_not_depend_on_the_span_and_are_poisson():
    whole = weights(9, 4, 0, 3000, 5)
    assert whole.shape == (5, 3000) and set(np.unique(whole)) <= set(range(20))
    assert (np.hstack([weights(9, 4, 0, 1000, 5), weights(9, 4, 1000, 3000, 5)]) == whole).all()
    many = weights(9, 4, 0, 200_000, 1)[0]
    shares = np.bincount(many.astype(int), minlength=4)[:4] / len(many)
    poisson = [math.exp(-1) / math.factorial(k) for k in range(4)]
    assert np.allclose(shares, poisson, atol=0.004)  # about four standard errors
    # pinned: drawn from PCG64's raw outputs, not NumPy's sampler, so another NumPy draws these too
    assert weights(9, 4, 0, 12, 2).astype(int).tolist() == [[3, 1, 0, 2, 3, 1, 1, 2, 0, 1, 1, 2],
                                                            [4, 1, 0, 1, 0, 0, 0, 1, 1, 0, 0, 2]]


def test_a_rows_interval_does_not_overflow():
    """Match wins count in 27,720ths and seatings add up: a row's squares x deals passes int64's
    range at some 10^4 deals; the half-width is worked out in floating point."""
    deals = 20_000
    values = np.full(deals, 3_000_000, np.int64)
    values[::2] = 0
    sums, squares = np.array([values.sum()]), np.array([(values * values).sum()])
    mean, half = field_run.mean_half(sums, squares, deals, np.array([1.0]))
    sd = values.astype(float).std(ddof=1)
    assert mean[0] == 1_500_000 and math.isclose(half[0], 1.959963984540054 * sd / math.sqrt(deals), rel_tol=1e-9)


def test_a_profile_of_one_strategy_is_the_runners_lineup(tmp_path):
    """All three seats lowest: one seating, its payoff the runner's mean penalty of the lineup on
    the same deals."""
    f = parse_field(tiny())
    part = play_task((0, 1, 0, 96), f, 3, 0)
    spec = parse_spec_dict({"name": "x", "players": 3, "hands": 96, "seed": 5, "lineup": ["lowest"]})
    means = tables.strategy_means(experiments.run(spec, tmp_path / "o").stats)
    assert math.isclose(part.sums[0] / (96 * 3), means["mean"].iloc[0], rel_tol=1e-12)


def _played(folder):
    meta = json.loads((folder / "field.json").read_text())
    for key in ("play_s", "executor"):
        meta.pop(key, None)
    with np.load(folder / "bootstrap.npz") as z:
        boot = {k: z[k] for k in z.files}
    return meta, pd.read_parquet(folder / "payoffs.parquet"), boot, json.loads((folder / "analysis.json").read_text())


def _same(a, b) -> None:
    assert a[0] == b[0]
    pd.testing.assert_frame_equal(a[1], b[1])
    assert a[2].keys() == b[2].keys() and all((a[2][k] == b[2][k]).all() for k in a[2])
    assert a[3] == b[3]


def test_a_dominated_strategy_and_two_that_play_alike(tmp_path):
    """random loses in every profile; compose with no points set plays exactly like lowest (the
    same sums on every deal): one class, and the stable mix is greedy alone."""
    f = parse_field(tiny(pool=["lowest", "random", "greedy", "compose"]))
    folder = run_field(f, str(tmp_path / "f"))
    meta, table, _, found = _played(folder)
    at = found["players"]["3"]
    assert at["classes"] == [["lowest", "compose"]] and at["kept"] == [0, 1, 2]
    both = table[table["label"].isin(["random", "greedy"])].groupby("profile")
    for _, rows in both:
        if len(rows) == 2:
            assert rows.set_index("label").loc["random", "mean"] > rows.set_index("label").loc["greedy", "mean"]
    main = at["equilibria"][0]
    assert main["support"] == [2] and main["regret"] == 0 and main["support_share"] == 1.0
    ranked = [r["label"] for r in at["against"]]
    assert ranked[0] == "greedy" and ranked[-1] == "random"
    worst = at["against"][-1]
    assert worst["regret_lo"] > 0 and worst["value_lo"] <= worst["value"] <= worst["value_hi"]
    lowest, compose = (next(r for r in at["against"] if r["label"] == x) for x in ("lowest", "compose"))
    assert lowest["value"] == compose["value"] and compose["copy_of"] == 0
    assert (folder / "report.html").is_file() and not (folder / "state.npz").exists()
    assert meta["hands_played"] == 4 ** 3 * 96


def test_a_pool_of_two_identical_strategies(tmp_path):
    f = parse_field(tiny(pool=["lowest", "compose"], hands=64))
    folder = run_field(f, str(tmp_path / "f"))
    _, table, boot, found = _played(folder)
    at = found["players"]["3"]
    assert at["classes"] == [["lowest", "compose"]] and at["kept"] == [0]
    alike = table[table["lineup"] == "lowest, lowest, compose"].set_index("label")
    assert alike.loc["lowest", "mean"] == alike.loc["compose", "mean"]  # per seat, on the same deals
    main = at["equilibria"][0]
    assert main["support"] == [0] and main["regret"] == 0 and main["support_share"] == 1.0
    assert [r["regret"] for r in at["against"]] == [0, 0]
    assert "lowest (or compose, which played alike) alone" in (folder / "report.md").read_text()


def test_the_table_is_the_same_for_any_threads_workers_and_resume(tmp_path, monkeypatch):
    f = parse_field(tiny())
    whole = _played(run_field(f, str(tmp_path / "a")))
    threads = nb.get_num_threads()
    try:
        nb.set_num_threads(1)
        _same(_played(run_field(f, str(tmp_path / "one"))), whole)
    finally:
        nb.set_num_threads(threads)
    monkeypatch.setattr(field_run, "SAVE_EVERY", 0.0)
    monkeypatch.setattr("simkit.analyses.field.play.SPAN", 32)  # three spans a run of profiles: tasks to stop between
    calls = []

    def ctrl_c(hands: int) -> None:
        calls.append(hands)
        if len(calls) == 3:  # the start's count, then two tasks
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_field(f, str(tmp_path / "b"), progress=ctrl_c)
    with np.load(tmp_path / "b" / "state.npz") as z:
        assert z["done3"].sum() == 1  # the second task's sums were not yet saved
    with pytest.raises(SimkitError, match="is not empty: it holds a field"):
        run_field(f, str(tmp_path / "b"))
    with pytest.raises(SimkitError, match=r"holds another field \(hands: 96 there, 97 here\)"):
        run_field(f, str(tmp_path / "b"), hands=97, resume=True)
    monkeypatch.setattr("simkit.analyses.field.play.SPAN", 48)  # another split: the done flags would not fit
    with pytest.raises(SimkitError, match="its tasks are not this version's"):
        run_field(f, str(tmp_path / "b"), resume=True)
    monkeypatch.setattr("simkit.analyses.field.play.SPAN", 32)
    _same(_played(run_field(f, str(tmp_path / "b"), resume=True)), whole)


def test_a_dask_cluster_plays_the_same_table(tmp_path):
    distributed = pytest.importorskip("distributed")
    example = "strategies/examples/my_strategies.py"
    load_strategy_file(example)
    f = parse_field(tiny(pool=["lowest", "pairs_first(min_raise=5)", "greedy"]))
    here = _played(run_field(f, str(tmp_path / "here"), strategy_files=(example,)))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  env={"NUMBA_NUM_THREADS": "1"}) as cluster:
        folder = run_field(f, str(tmp_path / "there"), scheduler=cluster.scheduler_address, strategy_files=(example,))
    assert json.loads((folder / "field.json").read_text())["executor"] == f"dask {cluster.scheduler_address}"
    _same(_played(folder), here)


def test_ezelen_fields_take_attention_profiles(tmp_path):
    data = {"name": "e", "game": "ezelen", "players": 3, "seed": 2, "hands": 400,
            "pool": ["greedy", {"strategy": "greedy", "attention": 0.3}, "random"],
            "analysis": {"starts": 4, "bootstrap": 4, "steps": 400}}
    f = parse_field(data)
    assert f.labels() == ["greedy", "greedy @ attention=0.3", "random"]
    folder = run_field(f, str(tmp_path / "e"))
    meta, table, _, found = _played(folder)
    assert meta["share"] and meta["label"] == "share of rounds lost"
    assert "regret (percentage points)" in (folder / "report.md").read_text()  # a difference, not a share
    alone = table[table["lineup"] == "greedy, greedy, greedy @ attention=0.3"].set_index("label")["mean"]
    assert alone["greedy @ attention=0.3"] > alone["greedy"]  # the one whose mind is elsewhere loses more rounds
    assert found["players"]["3"]["classes"] == []
    with pytest.raises(SimkitError, match="sets attention, which key 'model' sets for every seat"):
        parse_field(data | {"model": {"attention": 1.0}})
    with pytest.raises(SimkitError, match="has no model of the players"):
        parse_field(tiny(pool=["lowest", {"strategy": "greedy", "attention": 0.3}]))


@pytest.mark.parametrize("game, match, label", [
    ("ezelen", {"mode": "ezel"}, "share of matches lost (the donkey, Z7)"),
    ("whos-the-ass", {"mode": "hands", "hands": 3}, None),
])
def test_match_modes_are_played_and_oriented(tmp_path, game, match, label):
    """Ezelen's donkey share (lower is better) and Who's the Ass? match wins (higher is better):
    random is the worst reply either way."""
    f = parse_field(tiny(game=game, match=match, hands=40, pool=["greedy", "random"]))
    folder = run_field(f, str(tmp_path / "m"))
    meta, _, _, found = _played(folder)
    assert meta["lower"] == (game == "ezelen") and (label is None or meta["label"] == label)
    at = found["players"]["3"]
    assert at["equilibria"][0]["support"] == [0] and at["against"][-1]["label"] == "random"
    greedy, random = (r["value"] for r in at["against"])
    assert (greedy < random) if meta["lower"] else (greedy > random)


def test_without_a_bootstrap_there_are_no_intervals(tmp_path):
    f = parse_field(tiny(analysis={"starts": 4, "bootstrap": 0, "steps": 300}, hands=40))
    folder = run_field(f, str(tmp_path / "n"))
    at = _played(folder)[3]["players"]["3"]
    assert at["equilibria"][0]["weights_lo"] is None and at["equilibria"][0]["support_share"] is None
    assert "value_lo" not in at["against"][0]
    text = (folder / "report.md").read_text()
    assert "No bootstrap (analysis.bootstrap = 0): no intervals" in text and "–" not in text.split("##")[1]


def test_the_analysis_is_redone_from_the_table_alone(tmp_path, run):
    f = parse_field(tiny())
    folder = run_field(f, str(tmp_path / "a"))
    before = (folder / "analysis.json").read_text()
    (folder / "analysis.json").unlink()
    (folder / "report.html").unlink()
    code, out, err = run("report", folder)
    assert code == 0, err
    assert (folder / "analysis.json").read_text() == before and (folder / "report.html").is_file()
    assert analyse(folder) == json.loads(before)
    code, _, err = run("report", tmp_path / "nowhere")
    assert code == 2 and err.count("\n") == 1 and "nowhere is not a folder" in err


@pytest.mark.parametrize("changes, message", [
    ({"pool": ["lowest"]}, "key 'pool' must be a list of two strategies or more"),
    ({"pool": ["lowest", "nosuch"]}, "unknown strategy 'nosuch'"),
    ({"pool": ["lowest", "lowest()"]}, "key 'pool' lists lowest twice"),
    ({"pool": ["lowest", 3]}, "key 'pool': each entry is a strategy"),
    ({"players": 13}, "key 'players'"),
    ({"hands": 0}, "key 'hands' must be positive"),
    ({"analysis": {"tries": 3}}, "unknown key 'analysis.tries'"),
    ({"analysis": {"epsilon": 2}}, "key 'analysis.epsilon' must be between 0 and 1"),
    ({"players": 8, "pool": ["lowest", "random", "greedy", "highest", "spend", "dodge"]}, "at most 20,000 profiles"),
    ({"lineup": ["lowest"]}, "unknown key 'lineup'"),
])
def test_bad_specs_are_one_line_naming_the_key(changes, message):
    with pytest.raises(SimkitError, match=message):
        parse_field(tiny(**changes))


def test_the_cli_plays_a_field_and_says_what_wins(run, tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    code, out, err = run("field", path, "--out", tmp_path / "t")
    assert code == 0, err
    assert out.startswith("At 3 players the stable mix is ") and "regret" in out and "report:" in out
    code, _, err = run("field", path, "--out", tmp_path / "t")
    assert code == 2 and err.count("\n") == 1 and "is not empty: it holds a finished field" in err
    code, _, err = run("field", path, "--out", tmp_path / "u", "--hands", "0")
    assert code == 2 and "--hands must be positive" in err and not (tmp_path / "u").exists()
    code, _, err = run("field", tmp_path / "missing.toml", "--out", tmp_path / "u")
    assert code == 2 and err.count("\n") == 1 and "missing.toml" in err
    code, _, err = run("field", path, "--out", tmp_path / "v", "--resume")
    assert code == 2 and "holds no field to resume" in err and not (tmp_path / "v").exists()  # nothing left behind


@pytest.mark.parametrize("path", built_in_fields(), ids=lambda p: p.stem)
def test_built_in_fields_parse(path):
    f = load_field(str(path))
    assert len(f.pool) >= 3 and tasks(f, f.players[0], 10)
