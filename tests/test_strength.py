"""The strength table: paired against lowest on the same deals, seats rotated."""

import numpy as np

from simkit.whos_the_ass import batch
from simkit.whos_the_ass.strategy import seats_for
from simkit.whos_the_ass.strength import strength_table


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
