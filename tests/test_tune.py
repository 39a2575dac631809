"""`simkit tune`: the space (a template and its values), the candidates' values on shared deals
(checked against the runner's statistics), the race's exact sums and test, the run (a dominated
candidate dropped, the same answer after Ctrl-C and --resume, for any thread count) and its
errors."""

import json
import math
import shutil

import numba as nb
import numpy as np
import pandas as pd
import pytest
from conftest import TINY_TUNING, toml_with

from simkit import experiments
from simkit.analyses.tune import race as rc
from simkit.analyses.tune import run as tune_run
from simkit.analyses.tune.play import Table, deal_values
from simkit.analyses.tune.run import run_tuning
from simkit.analyses.tune.space import parse_space
from simkit.analyses.tune.spec import parse_tuning
from simkit.analyses.tune.summary import read
from simkit.core.errors import SimkitError
from simkit.experiments.report import tables
from simkit.experiments.spec import parse_spec_dict
from simkit.strategies.plugins import load_strategy_file

GAME = "whos-the-ass"
TINY = TINY_TUNING


def tiny(**changes) -> dict:
    return toml_with(TINY, **changes)


def test_a_choice_that_leaves_a_value_unused_makes_one_candidate():
    space = parse_space(GAME, "compose(jokers={jokers})", {"jokers": ["spend", "hoard(release_at={r})"],
                                                            "r": {"low": 0, "high": 6}})
    assert space.points() == 14
    labels = [c.label for c in space.grid()]
    # a setting that plays as a family at its defaults is named by it (compose(jokers=spend): spend)
    assert labels == ["spend"] + ["hoard" if r == 3 else f"compose(jokers=hoard(release_at={r}))" for r in range(7)]
    assert dict(space.grid()[0].setting) == {"jokers": "spend"}  # r does not matter there
    assert dict(space.grid()[3].setting) == {"jokers": "hoard(release_at={r})", "r": 2}


def test_ranges_whole_real_and_stepped():
    space = parse_space(GAME, "hoard(release_at={r})", {"r": {"low": 1, "high": 9, "step": 4}})
    assert [c.label for c in space.grid()] == ["hoard(release_at=1)", "hoard(release_at=5)", "hoard(release_at=9)"]
    real = parse_space(GAME, "grab(max_cost={c})", {"c": {"low": 0.0, "high": 50.0}})
    assert real.continuous
    with pytest.raises(SimkitError, match="a grid needs every range to have a step"):
        real.grid()
    drawn = real.sample(5, seed=7)
    assert drawn == real.sample(5, seed=7) != real.sample(5, seed=8)  # the tuner's draws come from the seed
    assert len({c.label for c in drawn}) == 5
    costs = [dict(c.setting)["c"] for c in drawn]
    assert all(0 <= x <= 50 and x == round(x, 2) for x in costs)  # four digits of the range's width: labels to read


@pytest.mark.parametrize("template, space, words", [
    ("hoard(release_at={r})", {"x": [1]}, "placeholder {r} has no values"),
    ("hoard(release_at={r})", {"r": [1], "x": [2]}, "key 'space.x' is not a placeholder"),
    ("hoard(release_at=3)", {"r": [1]}, "key 'space.r' is not a placeholder"),
    ("hoard(release_at={r})", {"r": {"low": 5, "high": 1}}, "high 1 is below low 5"),
    ("hoard(release_at={r})", {"r": {"low": 1}}, "must be a range"),
    ("hoard(release_at={r})", {"r": {"low": 0, "high": 8, "step": 0}}, "step must be positive"),
    ("hoard(release_at={r})", {"r": []}, "must list numbers or strategy texts"),
    ("hoard(release_at={r})", {"r": [1, 1]}, "lists a value twice"),
    ("hoard(release_at={r})", {"r": [99]}, "release_at"),
    ("nosuch({r})", {"r": [1]}, "nosuch"),
])
def test_a_bad_space_is_one_error(template, space, words):
    with pytest.raises(SimkitError, match=None) as e:
        parse_space(GAME, template, space)
    assert words in str(e.value)


@pytest.mark.parametrize("changes, words", [
    ({"field": ["greedy"]}, "key 'field' has 1 strategies for 4 players"),
    ({"budget": 0}, "key 'budget'"),
    ({"tune": None}, "missing key 'tune'"),
    ({"hands": 5}, "unknown key 'hands'"),
    ({"race": {"sampler": "anneal"}}, "key 'race.sampler' must be one of grid, random, tpe"),
    ({"race": {"iterations": 3}}, "key 'race.iterations' applies to the tpe sampler only"),
    ({"race": {"sampler": "tpe", "candidates": 5, "iterations": 3}}, "must be at least twice race.iterations"),
    ({"race": {"sampler": "tpe", "iterations": 0}}, "key 'race.iterations' must be 1..64"),
    ({"race": {"alpha": 2}}, "key 'race.alpha'"),
    ({"race": {"first": 3}}, "key 'race.first' must be at least 16"),
    ({"confirm": {"seed": 3}}, "key 'confirm.seed' must differ"),
    ({"field": ["greedy", "greedy", "nosuch"]}, "nosuch"),
    ({"profile": {"attention": 0.5}}, "key 'profile' does not apply"),
    ({"tune": "{lead}", "space": {"lead": ["greedy", "lowest"]}}, "key 'default' is needed"),
])
def test_a_bad_tuning_spec_is_one_error(changes, words):
    with pytest.raises(SimkitError) as e:
        parse_tuning(tiny(**changes))
    assert words in str(e.value)


def test_an_experiment_spec_is_told_a_tuning_is_run_by_tune():
    with pytest.raises(SimkitError, match="this is a tuning spec"):
        parse_spec_dict(tiny())


def test_gram_is_exact_in_float_spans_and_in_int64():
    rng = np.random.default_rng(0)
    small = rng.integers(-400, 400, (7, 10_000))
    assert (rc.gram(small) == small @ small.T).all()
    big = rng.integers(-(2 ** 27), 2 ** 27, (3, 50))  # squares beyond float64's whole numbers in one span
    assert (rc.gram(big) == big @ big.T).all()


def test_estimates_are_the_paired_statistics_of_the_deals():
    rng = np.random.default_rng(1)
    x = rng.integers(0, 60, (3, 500))
    x[1] = x[0] + 3 + rng.integers(-2, 3, 500)  # worse by 3 a deal, paired
    s = rc.Sums.zeros(3)
    s.merge(np.arange(3), rc.Sums.of(x[:, :200]))
    s.merge(np.arange(3), rc.Sums.of(x[:, 200:]))  # two rounds add up to one
    e = rc.estimate(s, 1, 0)
    d = x[1] - x[0]
    assert math.isclose(e.mean, x[1].mean()) and math.isclose(e.diff, d.mean())
    assert math.isclose(e.diff_half, 1.959963984540054 * d.std(ddof=1) / math.sqrt(500))
    assert e.p < 1e-6
    r = rc.judge(s, [0, 1, 2], 0, 0.05, 1, 3)
    assert r.leader in (0, 2) and 1 in r.dropped


ALPHA, RACES, M = 0.05, 400, 30


def _races(means: np.ndarray, judge, seed: int) -> np.ndarray:
    """For each of RACES simulated races of the candidates' true `means` (rounds of 64, 128, 256
    and 512 more deals, each deal's values sharing a deal effect, as paired deals do): the
    candidates dropped over the race, as a boolean row."""
    rng = np.random.default_rng(seed)
    out = np.zeros((RACES, len(means)), bool)
    for race in range(RACES):
        s, alive = rc.Sums.zeros(len(means)), list(range(len(means)))
        for k, block in enumerate((64, 128, 256, 512)):
            deal = rng.integers(0, 30, block)
            values = deal[None, :] + np.rint(means[alive, None] + rng.normal(0, 6, (len(alive), block)))
            s.merge(np.array(alive), rc.Sums.of(values.astype(np.int64)))
            dropped = judge(s, alive, k)
            out[race, dropped] = True
            alive = [c for c in alive if c not in dropped]
            if len(alive) == 1:
                break
    return out


def _leader_and_holm(s, alive, k):
    """The former test: each candidate against the leader alone, Holm's correction across them."""
    leader = min(alive, key=lambda c: (int(s.sums[c]), c))
    p = sorted((rc.estimate(s, c, leader).p, c) for c in alive if c != leader)
    level, out = ALPHA / 2 ** (k + 1), []
    for i, (pc, c) in enumerate(p):
        if pc > level / (len(p) - i):
            break
        out.append(c)
    return out


def _upper(share: float) -> float:
    """The simulation's 95% upper reach above a true probability `share` (a binomial over RACES)."""
    return share + 1.96 * math.sqrt(share * (1 - share) / RACES)


def test_the_race_drops_no_candidate_as_good_as_the_best_with_probability_alpha():
    """docs/tuning.md's guarantee, simulated: M equally good candidates (any drop is of a best
    one), and one better among M - 1 worse by a little (a drop of it is the error); the selection
    of the leader is what the former test (leader against the rest, Holm) got wrong."""
    race = lambda s, alive, k: rc.judge(s, alive, k, ALPHA, 1, M).dropped  # noqa: E731
    equal = _races(np.zeros(M), race, 1)
    assert equal.any(axis=1).mean() <= _upper(ALPHA), equal.any(axis=1).mean()
    one_better = np.r_[-1.0, np.full(M - 1, 0.5)]
    better = _races(one_better, race, 2)
    assert better[:, 0].mean() <= _upper(ALPHA), better[:, 0].mean()
    assert better[:, 1:].mean() > 0.5  # and it does drop the worse ones
    former = _races(np.zeros(M), _leader_and_holm, 1)
    assert former.any(axis=1).mean() > 3 * ALPHA, former.any(axis=1).mean()  # the simulation can tell


def test_a_candidates_values_are_its_rows_in_the_runners_statistics(tmp_path):
    """The candidate sits at seat r in rotation r: its values summed over the deals are its
    penalty total in a run of the same lineup, seed and deals (rotated seating)."""
    t = parse_tuning(tiny())
    candidate = t.space.grid()[1].spec
    values = deal_values(Table(t.table, t.field), [candidate], 0, 120)
    spec = parse_spec_dict({"name": "x", "players": 4, "hands": 120, "seed": 3, "seating": "rotate",
                            "lineup": [str(candidate), "greedy", "greedy", "greedy"]})
    stats = experiments.run(spec, tmp_path / "o").stats
    means = tables.strategy_means(stats)
    row = means[means["strategy"] == str(candidate)].iloc[0]
    assert math.isclose(values.sum() / (120 * 4), row["mean"], rel_tol=1e-12)


def test_values_do_not_depend_on_the_split_or_the_threads():
    t = parse_tuning(tiny())
    cands = [c.spec for c in t.space.grid()[:3]]
    table = Table(t.table, t.field)
    whole = deal_values(table, cands, 0, 90)
    assert (np.hstack([deal_values(table, cands, 0, 40), deal_values(table, cands, 40, 90)]) == whole).all()
    threads = nb.get_num_threads()
    try:
        nb.set_num_threads(1)
        assert (deal_values(table, cands, 0, 90) == whole).all()
    finally:
        nb.set_num_threads(threads)


def _tuned(folder) -> tuple[dict, pd.DataFrame]:
    meta = read(folder)
    for key in ("race_s", "executor"):
        meta.pop(key, None)
    return meta, pd.read_parquet(folder / "race.parquet")


def test_a_race_drops_the_dominated_and_confirms_the_winner(tmp_path):
    t = parse_tuning(tiny())
    folder = run_tuning(t, str(tmp_path / "t"))
    meta, rows = _tuned(folder)
    labels = [c["label"] for c in meta["candidates"]]
    assert len(labels) == 8 and meta["complete"] and not (folder / "state.npz").exists()
    lowest_lead = [i for i, label in enumerate(labels) if "lead=lowest" in label]
    dropped = {c for r in meta["rounds"] for c in r["dropped"]}
    assert set(lowest_lead) <= dropped  # leading the lowest value loses decisively here
    assert "lead=greedy" in meta["winner"] == labels[meta["winner_candidate"]]
    roles = [c["role"] for c in meta["confirmation"]]
    assert roles[0] == "winner" and "default" in roles and "field" in roles
    assert meta["spent"] <= t.budget
    assert set(rows["round"]) == set(range(len(meta["rounds"])))


def test_ctrl_c_and_resume_give_the_same_answer(tmp_path):
    t = parse_tuning(tiny())
    whole = _tuned(run_tuning(t, str(tmp_path / "a")))
    calls = []

    def ctrl_c(hands: int) -> None:
        calls.append(hands)
        if len(calls) == 2:  # after the first round
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):  # in the first round: its record is there, no round yet
        run_tuning(t, str(tmp_path / "c"), progress=lambda hands: (_ for _ in ()).throw(KeyboardInterrupt))
    assert json.loads((tmp_path / "c" / "tune.json").read_text())["rounds"] == []
    assert _tuned(run_tuning(t, str(tmp_path / "c"), resume=True))[0] == whole[0]
    with pytest.raises(KeyboardInterrupt):
        run_tuning(t, str(tmp_path / "b"), progress=ctrl_c)
    kept = json.loads((tmp_path / "b" / "tune.json").read_text())
    assert len(kept["rounds"]) == 1 and (tmp_path / "b" / "state.npz").exists()
    with pytest.raises(SimkitError, match="is not empty: it holds a tuning"):
        run_tuning(t, str(tmp_path / "b"))
    with pytest.raises(SimkitError, match="holds another tuning"):
        run_tuning(t, str(tmp_path / "b"), budget=t.budget + 1, resume=True)
    resumed = _tuned(run_tuning(t, str(tmp_path / "b"), resume=True))
    assert resumed[0] == whole[0]
    pd.testing.assert_frame_equal(resumed[1], whole[1])


def test_a_dask_cluster_gives_the_same_answer_bit_for_bit(tmp_path):
    """An existing cluster (--scheduler) of two workers, a user's strategy in the field that the
    workers load themselves: every round's sums, the race and the confirmation as in this process."""
    distributed = pytest.importorskip("distributed")
    example = "strategies/examples/my_strategies.py"
    load_strategy_file(example)
    t = parse_tuning(tiny(field=["pairs_first(min_raise=5)", "greedy", "greedy"]))
    here = _tuned(run_tuning(t, str(tmp_path / "here"), strategy_files=(example,)))
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  env={"NUMBA_NUM_THREADS": "1"}) as cluster:
        folder = run_tuning(t, str(tmp_path / "there"), scheduler=cluster.scheduler_address,
                            strategy_files=(example,))
    assert read(folder)["executor"] == f"dask {cluster.scheduler_address}"
    there = _tuned(folder)
    assert there[0] == here[0]  # the confirmation's 300 deals played in spans of 64 there
    pd.testing.assert_frame_equal(there[1], here[1])


TPE = {"name": "e", "game": "ezelen", "players": 3, "seed": 5, "field": ["greedy"] * 2, "tune": "{policy}",
       "default": "greedy",
       "space": {"policy": ["greedy", "random", "memory(weight={w})"], "w": {"low": 0.0, "high": 4.0}},
       "budget": 60_000, "race": {"sampler": "tpe", "candidates": 9, "iterations": 3, "first": 32},
       "confirm": {"deals": 100}}


def test_tpe_proposes_in_iterations_over_a_continuous_range_and_resumes_bit_for_bit(tmp_path, monkeypatch):
    """Optuna's TPE proposes each iteration's settings (a real weight among them), the elites of
    an iteration race on in the next on fresh deals; Ctrl-C in the second iteration and --resume
    replay TPE's asks and tells to the same answer, as do Ctrl-C between a round's state and its
    record, and in the confirmation; a replay that proposes otherwise is refused."""
    t = parse_tuning(TPE)
    whole = _tuned(run_tuning(t, str(tmp_path / "a")))
    meta = whole[0]
    assert len(meta["iterations"]) == 3 and meta["complete"]
    weights = [c["setting"]["w"] for c in meta["candidates"] if "w" in c["setting"]]
    assert all(0 <= w <= 4 and w == round(w, 3) for w in weights)  # a continuum, to 4 digits of its width
    assert any(w != round(w, 1) for w in weights)
    assert all(c["label"] in meta["told"] for c in meta["candidates"])
    for before, it in zip(meta["iterations"], meta["iterations"][1:]):
        assert set(before["elites"]) <= set(it["members"]) and it["seed"] != before["seed"]
    assert meta["winner_candidate"] in meta["iterations"][-1]["members"]
    assert set(whole[1]["iteration"]) == {0, 1, 2}
    folder = tmp_path / "b"

    def ctrl_c(hands: int) -> None:
        if len(json.loads((folder / "tune.json").read_text())["iterations"]) >= 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_tuning(t, str(folder), progress=ctrl_c)
    kept = json.loads((folder / "tune.json").read_text())
    assert len(kept["iterations"]) == 2 and not kept["complete"]
    damaged = tmp_path / "c"
    shutil.copytree(folder, damaged)
    kept["trials"][0]["ask"] = "sticky"  # not in the space: TPE proposes another setting first
    (damaged / "tune.json").write_text(json.dumps(kept))
    with pytest.raises(SimkitError, match="cannot resume this tuning: Optuna .* proposes"):
        run_tuning(t, str(damaged), resume=True)
    real_write, real_confirm = tune_run._write_meta, tune_run._confirm
    writes = []

    def cut_after_the_state(*args):  # Ctrl-C after a round's state is written, before its record
        writes.append(1)
        if len(writes) == 2:
            raise KeyboardInterrupt
        real_write(*args)

    def cut_in_the_confirmation(*args):
        raise KeyboardInterrupt

    for cut in ({"_write_meta": cut_after_the_state}, {"_confirm": cut_in_the_confirmation}):
        with monkeypatch.context() as m:
            m.setattr(tune_run, *next(iter(cut.items())))
            with pytest.raises(KeyboardInterrupt):
                run_tuning(t, str(folder), resume=True)
    assert tune_run._write_meta is real_write and tune_run._confirm is real_confirm
    resumed = _tuned(run_tuning(t, str(folder), resume=True))
    assert resumed[0] == whole[0]
    pd.testing.assert_frame_equal(resumed[1], whole[1])


def test_tpe_checks_its_budget_and_its_space_before_writing(tmp_path):
    with pytest.raises(SimkitError, match=r"its first of 3 iterations gets 200\) does not cover the first round"):
        run_tuning(parse_tuning({**TPE, "budget": 600}), str(tmp_path / "a"))
    one = {**TPE, "tune": "{policy}", "space": {"policy": ["greedy"]}}
    with pytest.raises(SimkitError, match="the space holds one strategy only"):
        run_tuning(parse_tuning(one), str(tmp_path / "b"))
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()  # the folders it made, removed


def test_the_budget_must_cover_the_first_round(tmp_path):
    t = parse_tuning(tiny(budget=1000))
    with pytest.raises(SimkitError, match="does not cover the first round: 8 candidates x 4 rotations x 64"):
        run_tuning(t, str(tmp_path / "t"))
    assert not (tmp_path / "t").exists()  # nothing written: the same command with a budget can go on


def test_ezelen_tunes_a_passing_policy_with_a_profile(tmp_path):
    t = parse_tuning({"name": "e", "game": "ezelen", "players": 4, "seed": 2, "field": ["greedy"] * 3,
                      "tune": "memory(weight={w})", "space": {"w": {"low": 0, "high": 4, "step": 2}},
                      "profile": {"attention": 0.6}, "budget": 100_000, "race": {"first": 64},
                      "confirm": {"deals": 200}})
    meta, _ = _tuned(run_tuning(t, str(tmp_path / "t")))
    assert meta["label"] == "share of rounds lost" and meta["share"]
    assert [c["label"] for c in meta["candidates"]] == [f"memory(weight={w})" for w in (0, 2, 4)]
    table = Table(t.table, t.field, t.profile)
    seats = table.seatings(t.space.grid()[0].spec)
    assert [dict(seats[r][r].model).get("attention") for r in range(4)] == [0.6] * 4  # the tuned seat's only
    assert all(dict(s.model).get("attention") is None for r in range(4) for k, s in enumerate(seats[r]) if k != r)
    with pytest.raises(SimkitError, match="key 'profile': unknown model parameter"):
        parse_tuning({"name": "e", "game": "ezelen", "players": 4, "field": ["greedy"] * 3,
                      "tune": "memory(weight={w})", "space": {"w": [0, 1]}, "profile": {"focus": 0.6},
                      "budget": 1000})


def test_the_cli_tunes_and_says_what_it_found(run, tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    code, out, err = run("tune", path, "--out", tmp_path / "t")
    assert code == 0, err
    assert out.startswith("Against 3 x greedy at 4 players, the best of 8 settings is **compose(lead=greedy")
    assert "winner" in out and "default" in out
    code, _, err = run("tune", path, "--out", tmp_path / "t")
    assert code == 2 and err.count("\n") == 1 and "is not empty" in err
    code, _, err = run("tune", path, "--out", tmp_path / "u", "--budget", "0")
    assert code == 2 and "--budget must be positive" in err
    code, _, err = run("tune", path, "--out", tmp_path / "u", "--workers", "2", "--scheduler", "tcp://h:8786")
    assert code == 2 and err.count("\n") == 1 and "not both" in err
