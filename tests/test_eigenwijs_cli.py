"""`simkit` for Eigenwijs as a user meets it: trace -> show -> check round trips, simulate,
strategies, strength, an experiment with its report, and one clear line with exit code 2 for
every kind of bad input."""

import json

import pytest

from simkit.games.eigenwijs import batch
from simkit.games.eigenwijs.strategy import seats_for
from simkit.games.traces import to_line

CASES = [  # players, games, seed, extra options, the rules and model they set
    (2, 3, 1, [], {}, {}),
    (3, 2, 2, ["--rotating", "true", "--precies", "true", "--model", "slip=0.2"],
     {"rotating": True, "precies": True}, {"slip": 0.2}),
    (6, 2, 3, ["--chicks", "true", "--rule", "egg_cards=4,3,2,1", "--model", "false_slap=0.05"],
     {"chicks": True, "egg_cards": [4, 3, 2, 1]}, {"false_slap": 0.05}),
]


@pytest.mark.parametrize("n, games, seed, extra, rules, model", CASES)
def test_trace_show_check_round_trip(run, tmp_path, n, games, seed, extra, rules, model):
    target = tmp_path / "t.jsonl"
    lineup = (["right", "quick", "careful", "beginner", "no_precies", "chick_blind"] * 2)[:n]
    code, out, err = run("trace", "--game", "eigenwijs", "-n", n, "-H", games, "-s", seed,
                         "--strategies", ",".join(lineup), *extra, "-o", target)
    assert code == 0 and err == "" and out.startswith(f"wrote {games} games to ")
    lines = target.read_text(encoding="utf-8").splitlines()
    expected = batch.traces(seats_for(lineup, n), games, seed, rules, model)
    assert lines == [to_line(r) for r in expected]
    code, out, _ = run("check", target)
    assert code == 0 and out == f"{target}: {games} games follow the rules and the trace format\n"
    for k, line in enumerate(lines):
        rec = json.loads(line)
        code, out, _ = run("show", target, "--hand", k)
        assert code == 0 and out.startswith(f"Eigenwijs, game {k} of seed {seed}, {n} players")
        assert "cards (an assumption, E2: the rules give no card list)" in out
        assert out.count(" flips ") == len(rec["turns"])
        assert ("wins (E10)" in out) == (rec["end"] == "won")


def test_check_names_every_broken_game(run, tmp_path):
    target = tmp_path / "t.jsonl"
    run("trace", "--game", "eigenwijs", "-n", "3", "-H", "5", "-s", "7", "-o", target)
    recs = [json.loads(line) for line in target.read_text().splitlines()]
    recs[0]["turns"][3]["said"] = "Jullie" if recs[0]["turns"][3]["said"] != "Jullie" else "Ik"
    recs[1]["turns"][0]["call"] += 1e-9
    recs[2]["deal"][0].reverse()
    recs[3]["winner"] = (recs[3]["winner"] + 1) % 3
    del recs[4]["model"]
    target.write_text("\n".join(json.dumps(r) for r in recs) + "\n")
    code, out, err = run("check", target)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 5 and all(line.startswith(f"simkit: error: {target}:") for line in lines)
    assert "turn 3 differs" in lines[0] and "turn 0 differs" in lines[1]
    assert "deal: the rules' replay gives" in lines[2] and "winner" in lines[3] and "missing key 'model'" in lines[4]


def test_simulate_prints_every_seat_and_the_game(run):
    code, out, err = run("simulate", "--game", "eigenwijs", "-n", "4", "-H", "3000", "--strategies",
                         "right,quick,careful,beginner", "--precies", "true")
    assert code == 0, err
    for word in ("win %", "takes/game", "mean turns per game", "capped", "games/s", "precies=True",
                 "(an assumption, E2: the rules give no card list)"):
        assert word in out
    for name in ("right", "quick", "careful", "beginner"):
        assert f" {name} " in out


def test_strategies_lists_the_profiles_with_their_model_values(run):
    code, out, _ = run("strategies", "--game", "eigenwijs")
    assert code == 0
    for name in ("right", "no_precies", "chick_blind", "guesser", "careful", "quick", "beginner"):
        assert f"\n{name}\n" in f"\n{out}"
    assert "model: slip=0.05, call_median=0.7" in out


@pytest.mark.parametrize("args, message", [
    (["simulate", "-n", "7"], "Eigenwijs needs 2 to 6 players, got 7"),
    (["simulate", "-n", "5", "--rule", "beginners=true"], "beginners' version of Eigenwijs is for at most 4"),
    (["simulate", "-n", "3", "--rule", "beginners=true", "--chicks", "true"], "has no chicks"),
    (["simulate", "-n", "3", "--chicks", "maybe"], "rule option chicks must be true or false"),
    (["simulate", "-n", "3", "--rule", "egg_cards=0,0"], "at least one card with eggs"),
    (["simulate", "-n", "3", "--rule", "colours=9"], "colours must be a whole number from 2 to 6"),
    (["simulate", "-n", "3", "--model", "slip=2"], "model parameter slip=2 is outside 0..1"),
    (["simulate", "-n", "3", "--strategies", "lowest"], "unknown strategy 'lowest' for eigenwijs"),
    (["simulate", "-n", "2", "--rule", "colours=2", "--rule", "egg_cards=1", "--rule", "broken=0",
      "--rule", "max_turns=-1"], "max_turns must be a whole number"),
])
def test_bad_input_is_one_line(run, args, message):
    code, out, err = run(*args[:1], "--game", "eigenwijs", *args[1:], "-H", "10")
    assert code == 2 and out == ""
    assert err.startswith("simkit: error: ") and message in err and err.count("\n") == 1


def test_an_experiment_runs_with_its_report(run, tmp_path):
    out = tmp_path / "run"
    code, text, err = run("run", "experiments/eigenwijs-error-rate.toml", "-H", "60", "--out", out)
    assert code == 0, err
    report = (out / "report.md").read_text()
    for title in ("Share of games lost per strategy", "Per strategy and game (means)", "Per table and game",
                  "starter_won", "Parameter sweep: difference to right along quick.slip", "game-length.png"):
        assert title in report
    assert json.loads((out / "meta.json").read_text())["assumption"].startswith("the deck holds 4 hen colours")
    assert "Assumed: the deck holds 4 hen colours" in report
