"""`simkit search-strength`: candidates against the best heuristic of each table, paired on the
same deals (simkit.games.versus_best), and its verdict rule."""

import numpy as np
import pytest

from simkit.games.strength import rating_of, seat_values
from simkit.games.versus_best import MARGIN, verdict, versus_best


def test_the_verdict_follows_the_written_rule():
    assert verdict(-1.0, 0.9) == "decisively better"
    assert verdict(-1.0, 1.1) == "at least as good"
    assert verdict(MARGIN, 3.0) == "at least as good"
    assert verdict(MARGIN + 0.01, 0.0) == "worse"


def test_each_candidate_is_paired_with_the_best_heuristic_of_its_table():
    table = versus_best("whos-the-ass", ["highest", "greedy"], [3], ["lowest"], 90, seed=4)
    assert list(table["strategy"]) == ["highest", "greedy"] and (table["players"] == 3).all()
    rating = rating_of("whos-the-ass", "lowest")
    best = table["best heuristic"].iloc[0]
    mine = seat_values(rating, "greedy", 3, 90, 4)
    theirs = seat_values(rating, best, 3, 90, 4)
    row = table.iloc[1]
    assert row["vs best"] == pytest.approx((mine - theirs).mean())
    assert row["vs first"] == pytest.approx((mine - seat_values(rating, "highest", 3, 90, 4)).mean())
    assert np.isnan(table.iloc[0]["vs first"])
    # the best heuristic is the one of least mean: no candidate heuristic beats it
    assert (table["vs best"] >= -1e-12).all()


def test_search_strength_on_the_command_line(run):
    code, out, err = run("search-strength", "-n", "3", "-H", "6", "--field", "highest",
                         "--strategies", "pimc(samples=2),cheat(samples=2)", "--markdown")
    assert code == 0, err
    assert "| 3 | highest | pimc(samples=2) |" in out and "cheat(samples=2)" in out and "vs pimc(samples=2)" in out
    assert "† cheat(samples=2) sees every player's hand" in out


@pytest.mark.parametrize("args, message", [
    (["-n", "2"], "players"),
    (["--field", "nosuch"], "nosuch"),
    (["--strategies", "pimc(depth=3)"], "depth"),
])
def test_a_bad_input_is_one_line_and_exit_2(run, args, message):
    code, out, err = run("search-strength", "-H", "6", *args)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
