"""The strength table: paired against the game's baseline on the same deals, seats rotated
(Who's the Ass?: `lowest`, penalty points; Ezelen: `greedy`, rounds lost)."""

import numpy as np
from click.testing import CliRunner

from simkit import games
from simkit.cli import inputs
from simkit.games.ezelen import batch as ez_batch
from simkit.games.ezelen.strength import strength_table as ezelen_table
from simkit.games.whos_the_ass import batch
from simkit.games.whos_the_ass.strategy import seats_for
from simkit.games.whos_the_ass.strength import strength_table
from simkit.strategies import registry


def test_lowest_in_disguise_differs_by_exactly_zero_and_random_is_decisively_worse():
    table = strength_table(["dodge", "random"], players=4, hands=8000, seed=3)
    assert table.loc["dodge", "vs lowest"] == 0 and table.loc["dodge", "± "] == 0
    assert not table.loc["dodge", "decisive"]
    assert table.loc["random", "vs lowest"] > table.loc["random", "± "] > 0
    assert table.loc["random", "decisive"]
    assert (table["n"] == 8000).all()


def test_the_candidate_sits_in_each_seat_for_a_quarter_of_the_hands():
    table = strength_table(["greedy"], players=4, hands=400, seed=5)
    mine = []
    for k in range(4):  # rebuild the candidate's penalties by hand
        lineup = ["lowest"] * 4
        lineup[k] = "greedy"
        mine.append(batch.play(seats_for(lineup, 4), 100, 5, first=100 * k).penalties[:, k])
    assert np.isclose(table.loc["greedy", "mean penalty"], np.concatenate(mine).mean())


def test_each_game_rates_against_its_own_baseline_in_its_own_measure():
    wta, ez = games.get("whos-the-ass").strength, games.get("ezelen").strength
    assert (wta.baseline, wta.measure, wta.versus) == ("lowest", "mean penalty", "vs lowest")
    assert (ez.baseline, ez.measure, ez.versus) == ("greedy", "share of rounds lost", "vs greedy")
    assert ez.baseline == games.get("ezelen").default_strategy


def builtin(game: str) -> list[str]:
    """The game's built-in strategies (other tests register their own from files: those have an origin)."""
    return [i.name for i in registry.available(game) if not i.origin]


EZELEN = [name for name in builtin("ezelen") if name != "greedy"]


def test_ezelen_rates_every_strategy_and_its_attention_profiles():
    table = ezelen_table(EZELEN, players=4, hands=2000, seed=1)
    assert set(table.index) == set(builtin("ezelen")) >= {"greedy", "watcher", "dreamer", "memory", "sticky", "random"}
    assert list(table.columns) == ["share of rounds lost", "±", "vs greedy", "± ", "decisive", "n"]
    assert table.loc["greedy", "vs greedy"] == 0 and table.loc["greedy", "± "] == 0
    assert not table.loc["greedy", "decisive"]
    assert (table["n"] == 2000).all()
    assert ((table["share of rounds lost"] >= 0) & (table["share of rounds lost"] <= 1)).all()
    assert list(table["vs greedy"]) == sorted(table["vs greedy"])
    assert table.loc["random", "vs greedy"] > table.loc["random", "± "] > 0  # far worse even in 2,000 rounds


def test_ezelen_greedy_in_disguise_differs_by_exactly_zero():
    # memory with weight 0 makes greedy's every decision (and draws), so the paired rounds are equal
    table = ezelen_table(["memory(weight=0)", "greedy"], players=5, hands=3000, seed=8)
    assert list(table.index) in (["memory(weight=0)", "greedy"], ["greedy", "memory(weight=0)"])
    row, base = table.loc["memory(weight=0)"], table.loc["greedy"]
    assert row["vs greedy"] == 0 and row["± "] == 0 and not row["decisive"]
    assert row["share of rounds lost"] == base["share of rounds lost"] and row["±"] == base["±"]


def test_ezelen_rounds_are_those_simulate_plays_with_the_rules_and_the_profile_model():
    rules = {"beat": 1.5, "max_turns": 60}
    table = ezelen_table(["watcher"], players=3, hands=300, seed=7, rules=rules)
    lost, base = [], []
    for k in range(3):  # rebuild both seats' rounds lost as `simkit simulate` plays them
        lineup = ["greedy"] * 3
        lineup[k] = "watcher"
        run = inputs.play("ezelen", 3, 100, "7", ",".join(lineup), ("beat=1.5", "max_turns=60"), (), (), {})
        assert dict(run.seats[k].model) == {"attention": 1.5, "reaction_median": 0.5}
        lost.append(ez_batch.play(run.seats, 100, run.seed, run.rules, run.model, first=100 * k).loser == k)
        everyone = inputs.play("ezelen", 3, 100, "7", "greedy", ("beat=1.5", "max_turns=60"), (), (), {})
        base.append(ez_batch.play(everyone.seats, 100, 7, everyone.rules, first=100 * k).loser == k)
    mine, theirs = np.concatenate(lost), np.concatenate(base)
    assert table.loc["watcher", "share of rounds lost"] == mine.mean()
    assert np.isclose(table.loc["watcher", "vs greedy"], mine.mean() - theirs.mean())
    assert table.loc["greedy", "share of rounds lost"] == theirs.mean()
    default = ezelen_table(["watcher"], players=3, hands=300, seed=7)
    assert default.loc["greedy", "share of rounds lost"] != theirs.mean()  # the rules reached the engine


def test_strength_for_ezelen_on_the_command_line(monkeypatch):
    from simkit.cli import cli

    builtins = builtin("ezelen")  # only these, whatever other tests registered
    monkeypatch.setattr(registry, "_REGISTRY", {k: v for k, v in registry._REGISTRY.items() if not v.origin})
    result = CliRunner().invoke(cli, ["strength", "--game", "ezelen", "-n", "3", "-H", "300", "--seed", "4",
                                      "--rule", "beat=2.5"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert "against greedy, 300 rounds each, seed 4, beat=2.5, max_turns=1000" in lines[0]
    assert "'vs greedy' is the paired difference in share of rounds lost" in lines[0]
    assert lines[1].split() == ["share", "of", "rounds", "lost", "vs", "greedy", "decisive", "n"]
    assert {line.split()[0] for line in lines[3:-1]} == set(builtins)
    assert lines[-1].startswith("(1,800 rounds in ")
    picked = CliRunner().invoke(cli, ["strength", "--game", "ezelen", "-n", "4", "-H", "40", "--strategies",
                                      "watcher,greedy,watcher", "--markdown"])
    assert picked.exit_code == 0, picked.output
    assert picked.output.splitlines()[1] == "| strategy | share of rounds lost | vs greedy | decisive | n |"
    assert sorted(line.split(" | ")[0] for line in picked.output.splitlines()[3:-1]) == ["| greedy", "| watcher"]


def test_a_bad_player_count_for_ezelen_is_one_line_and_exit_2(run):
    for players, message in (("1", "Ezelen needs 2 to 13 players, got 1"),
                             ("14", "Ezelen needs 2 to 13 players, got 14")):
        code, out, err = run("strength", "--game", "ezelen", "-n", players, "-H", "100")
        assert (code, out) == (2, "")
        assert err == f"simkit: error: {message}\n"
    code, _, err = run("strength", "--game", "ezelen", "-n", "4", "--ass-joker", "any")
    assert code == 2 and "--ass-joker is a rule option of Who's the Ass?" in err


def test_a_field_other_than_the_baseline_is_the_comparison_table():
    """--field highest: every other seat and the comparison table play highest; its own row is 0."""
    from click.testing import CliRunner

    from simkit.cli import cli

    result = CliRunner().invoke(cli, ["strength", "-n", "4", "-H", "400", "--field", "highest",
                                      "--strategies", "greedy,lowest,highest"])
    assert result.exit_code == 0, result.output
    assert "against highest" in result.output and "vs highest" in result.output
    rows = {line.split()[0]: line.split() for line in result.output.splitlines()
            if line.split() and line.split()[0] in ("greedy", "lowest", "highest")}
    assert set(rows) == {"greedy", "lowest", "highest"}
    assert rows["highest"][4] == "+0.000"  # the field's own row: the comparison table itself
    assert float(rows["lowest"][4]) > 0  # seed 0: lowest does worse than highest among highest players


def test_cheat_is_marked_a_ceiling_in_the_strength_table():
    from simkit.cli import cli

    result = CliRunner().invoke(cli, ["strength", "-n", "4", "-H", "8", "--strategies",
                                      "cheat(samples=2),pimc(samples=2)"])
    assert result.exit_code == 0, result.output
    rows = {line.split()[0]: line.split()[1] for line in result.output.splitlines()[3:-2]}
    assert rows["cheat(samples=2)"] == "†" and "pimc(samples=2)" in rows and rows["pimc(samples=2)"] != "†"
    assert result.output.splitlines()[-2] == ("† cheat(samples=2) sees every player's hand: a ceiling on good play, "
                                              "not a way to play.")


def test_a_mixed_field_seats_its_strategies_clockwise_from_the_rated_seat():
    """--field lowest,greedy,highest: the seats after the rated one play them in turn; the comparison
    table puts lowest (the first) in the rated seat among the same others; rebuilt by hand."""
    from simkit.games.strength import rating_of

    rating = rating_of("whos-the-ass", "lowest,greedy,highest")
    assert (rating.baseline, rating.others, rating.versus) == ("lowest", ("lowest", "greedy", "highest"), "vs lowest")
    table = rating(["spend"], players=4, hands=400, seed=5)
    mine, base = [], []
    for k in range(4):
        others = {(k + 1) % 4: "lowest", (k + 2) % 4: "greedy", (k + 3) % 4: "highest"}
        for who, out in (("spend", mine), ("lowest", base)):
            lineup = [others.get(s, who) for s in range(4)]
            out.append(batch.play(seats_for(lineup, 4), 100, 5, first=100 * k).penalties[:, k])
    mine, base = np.concatenate(mine), np.concatenate(base)
    assert np.isclose(table.loc["spend", "mean penalty"], mine.mean())
    assert np.isclose(table.loc["spend", "vs lowest"], (mine - base).mean())
    assert table.loc["lowest", "vs lowest"] == 0
    from simkit.cli import cli

    result = CliRunner().invoke(cli, ["strength", "-n", "3", "-H", "30", "--field", "lowest,greedy",
                                      "--strategies", "spend"])
    assert result.exit_code == 0 and "against lowest, greedy in turn clockwise from its seat, paired with lowest in " \
                                      "that seat" in result.output, result.output
