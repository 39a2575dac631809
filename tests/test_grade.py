"""Grading recorded moves with the search (simkit.whos_the_ass.grade): the positions are the
record's, replayed by the engine's own rules; a move's cost is paired on samples against the best
action, and the bad moves of `random` show."""

import numpy as np
import pytest

from simkit.errors import SimkitError
from simkit.whos_the_ass import batch
from simkit.whos_the_ass.engine import ERR_WIDTH, LOG_WIDTH, step
from simkit.whos_the_ass.grade import POINTS, grade, positions
from simkit.whos_the_ass.legal import nth_legal
from simkit.whos_the_ass.strategy import seats_for


def _records(lineup, hands, seed=3):
    return list(batch.traces(seats_for(lineup, len(lineup)), hands, seed))


def test_the_positions_replay_the_record_to_its_final_hands():
    for record in _records(["greedy", "random", "lowest", "hoard"], 20):
        moves = list(positions(record))
        assert len(moves) == sum(len(t["plays"]) for t in record["tricks"])
        last = moves[-1]
        hands, view = last.hands.copy(), last.view.copy()
        assert any(nth_legal(hands[last.seat], view, k) == last.action
                   for k in range(nth_legal(hands[last.seat], view, -1)))
        assert step(hands, view, last.action, np.zeros((0, LOG_WIDTH), np.int64), np.zeros(ERR_WIDTH, np.int64)) > 0
        final = [sorted(np.repeat(np.arange(15), hands[s]).tolist()) for s in range(record["players"])]
        assert final == record["final_hands"]


def test_random_makes_moves_that_cost_and_the_best_move_costs_nothing():
    graded = [g for record in _records(["random", "lowest", "lowest", "lowest"], 6)
              for g in grade(record, 0, "pimc(samples=8, rollout=lowest)", samples=48, seed=1)]
    assert graded and {g["point"] for g in graded} <= set(POINTS)
    assert all(g["cost"] == 0 and g["ci95"] == 0 for g in graded if g["move"] == g["best"])
    assert any(g["cost"] - g["ci95"] > 0 for g in graded)  # a decisively bad move
    assert all(g["best"] in g["means"] and g["move"] in g["means"] for g in graded)


def test_same_seed_same_grades_and_only_a_search_grades():
    record = _records(["greedy", "lowest", "lowest"], 1, seed=5)[0]
    assert grade(record, 0, "pimc(samples=4)", samples=16, seed=2) == grade(record, 0, "pimc(samples=4)", 16, 2)
    with pytest.raises(SimkitError, match="grading needs a search"):
        grade(record, 0, "greedy")


def test_simkit_grade_prints_the_points_lost_per_decision_point(tmp_path):
    from click.testing import CliRunner

    from simkit.cli import cli
    from simkit.traces import write_traces

    path = tmp_path / "t.jsonl"
    write_traces(str(path), _records(["random", "lowest", "lowest", "lowest"], 4))
    result = CliRunner().invoke(cli, ["grade", str(path), "--seat", "0", "--search", "pimc(samples=4)",
                                      "--samples", "8", "--moves"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("random at seat 0: ")
    assert "in 4 hands, graded by pimc(samples=4) on 8 samples" in lines[0]
    assert lines[1].split() == ["point", "moves", "lost", "per", "hand", "±", "decisively", "worse"]
    assert {line.split()[0] for line in lines[2:] if line.split()[0] in ("lead", "follow")} == {"lead", "follow"}
    assert any(line.split()[:2] == ["hand", "trick"] for line in lines)
    bad = CliRunner().invoke(cli, ["grade", str(path), "--seat", "4"])
    assert isinstance(bad.exception, SimkitError) and str(bad.exception) == "--seat must be 0..3 for 4 players, got 4"


@pytest.mark.parametrize("text, why", [
    ('{"game": "whos-the-ass"\n', "record 1: Expecting ',' delimiter"),
    ("[1]\n", "record 1: a record is a JSON object"),
    ('{"game": "ezelen"}\n', "record 1: grading reads Who's the Ass? hands, not 'ezelen'"),
])
def test_a_bad_trace_file_is_one_error_naming_the_record(tmp_path, text, why):
    from click.testing import CliRunner

    from simkit.cli import cli

    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    result = CliRunner().invoke(cli, ["grade", str(path), "--seat", "0"])
    assert isinstance(result.exception, SimkitError) and why in str(result.exception)
