"""Grading recorded moves with the search (simkit.analyses.grading.grade): the positions are the
record's, replayed by the engine's own rules; a move's cost is paired on samples against the best
action, and the bad moves of `random` show."""

import numpy as np
import pandas as pd
import pytest

from simkit.analyses.grading.grade import POINTS, grade, positions
from simkit.core.errors import SimkitError
from simkit.games.whos_the_ass import batch
from simkit.games.whos_the_ass.engine import ERR_WIDTH, LOG_WIDTH, step
from simkit.games.whos_the_ass.legal import nth_legal
from simkit.games.whos_the_ass.strategy import seats_for


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
        final = [sorted(np.repeat(np.arange(15), hands[s, :15]).tolist()) for s in range(record["players"])]
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


def test_the_grades_do_not_depend_on_the_number_of_threads(tmp_path):
    """Hands are graded side by side; each draws from its own stream, so 1 and 3 threads agree
    exactly, in the file's order."""
    from simkit.analyses.grading.grade import grade_file
    from simkit.games.traces import write_traces

    path = tmp_path / "t.jsonl"
    write_traces(str(path), _records(["random", "greedy", "lowest", "lowest"], 7, seed=9))
    one = grade_file(str(path), 0, "pimc(samples=4)", 8, 3, threads=1)
    three = grade_file(str(path), 0, "pimc(samples=4)", 8, 3, threads=3)
    assert one[:2] == three[:2] == ("random", list(range(7)))
    pd.testing.assert_frame_equal(one[2], three[2])
    assert len(one[2]) > 7


def test_simkit_grade_prints_the_points_lost_per_decision_point(tmp_path):
    from click.testing import CliRunner

    from simkit.cli import cli
    from simkit.games.traces import write_traces

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


def test_show_grade_prints_each_graded_move_beside_its_play(tmp_path):
    from click.testing import CliRunner

    from simkit.analyses.grading.grade import note
    from simkit.cli import cli
    from simkit.games.traces import write_traces

    path = tmp_path / "t.jsonl"
    record = _records(["random", "lowest", "lowest", "lowest"], 1)[0]
    write_traces(str(path), [record])
    args = ["show", str(path), "--grade", "0", "--search", "pimc(samples=4)", "--samples", "8"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    graded = grade(record, 0, "pimc(samples=4)", samples=8, seed=0)
    lines = result.output.splitlines()
    noted = [line for line in lines if line.startswith("    seat 0: ") and line.rstrip().endswith(
        tuple(note(g) for g in graded))]
    assert len(noted) == len(graded) > 0  # every graded move, each beside a play of seat 0
    assert all(note(g) in line for g, line in zip(graded, noted))  # in the order they were played
    assert lines[-1].startswith(f"seat 0 (random): {len(graded)} moves with a choice graded by pimc(samples=4)")
    assert CliRunner().invoke(cli, args[:2]).output == CliRunner().invoke(cli, ["show", str(path)]).output
    bad = CliRunner().invoke(cli, ["show", str(path), "--grade", "7"])
    assert isinstance(bad.exception, SimkitError) and str(bad.exception) == "--grade must be 0..3 for 4 players, got 7"


def _spec(tmp_path, text: str):
    path = tmp_path / "g.toml"
    path.write_text('name = "g"\nplayers = 4\nhands = 3\nseed = 4\ngraded = ["random", "greedy"]\n'
                    'field = "lowest"\nsearch = "pimc(samples=4)"\nsamples = 8\n' + text)
    return path


def test_a_grading_run_writes_traces_moves_and_a_report_and_is_reproducible(tmp_path):
    from click.testing import CliRunner

    from simkit.analyses.grading.record import read_grading
    from simkit.analyses.grading.report import by_point
    from simkit.analyses.grading.spec import load_grading
    from simkit.cli import cli
    from simkit.games.traces import read_traces

    spec = _spec(tmp_path, "")
    result = CliRunner().invoke(cli, ["grade", str(spec), "--out", str(tmp_path / "a")])
    assert result.exit_code == 0, result.output
    assert "Against pimc(samples=4)'s best actions, random loses" in result.output
    assert "; on the same deals greedy loses" in result.output
    folder = tmp_path / "a"
    names = {p.name for p in folder.iterdir()}
    assert {"traces-1.jsonl", "traces-2.jsonl", "moves.parquet", "hands.parquet", "grading.json", "report.md",
            "report.html", "lost-by-point.png", "move-costs.png"} <= names
    graded, moves, hands, _ = read_grading(folder)
    assert graded == load_grading(str(spec))
    records = list(read_traces(str(folder / "traces-1.jsonl")))
    assert [r["hand"] for r in records] == [0, 1, 2] and records[0]["strategies"][0] == "random"
    # the same deals for both graded strategies: only seat 0's strategy differs
    assert [r["deal"] for r in records] == [r["deal"] for r in read_traces(str(folder / "traces-2.jsonl"))]
    again = grade(records[1], 0, "pimc(samples=4)", samples=8, seed=4)
    assert moves[(moves["strategy"] == "random") & (moves["hand"] == 1)]["cost"].tolist() == [g["cost"] for g in again]
    assert hands["lost"].tolist() == [moves[(moves["strategy"] == s) & (moves["hand"] == h)]["cost"].sum()
                                      for s, h in zip(hands["strategy"], hands["hand"])]
    points = by_point(graded, moves, hands)
    every = points[points["point"] == "all"].set_index("strategy")
    assert every.loc["random", "lost per hand"] == pytest.approx(hands[hands["strategy"] == "random"]["lost"].mean())
    report = (folder / "report.md").read_text()
    assert "## Points lost per decision point" in report and "simkit show " in report
    second = CliRunner().invoke(cli, ["grade", str(spec), "--out", str(tmp_path / "b")])
    assert second.exit_code == 0
    assert (tmp_path / "b" / "moves.parquet").read_bytes() == (folder / "moves.parquet").read_bytes()
    assert CliRunner().invoke(cli, ["report", str(folder)]).exit_code == 0  # `simkit report` knows a grading


@pytest.mark.parametrize("extra, why", [
    ("colour = 1\n", "unknown key 'colour'"),
    ('seat = 4\n', "key 'seat' must be 0..3 for 4 players, got 4"),
    ('game = "ezelen"\n', "grading plays Who's the Ass?"),
    ('rules = { ass_joker = "5" }\n', "ass_joker"),
])
def test_a_bad_grading_spec_is_one_error_naming_the_key(tmp_path, extra, why):
    from click.testing import CliRunner

    from simkit.cli import cli

    result = CliRunner().invoke(cli, ["grade", str(_spec(tmp_path, extra)), "--out", str(tmp_path / "o")])
    assert isinstance(result.exception, SimkitError) and why in str(result.exception), result.output
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("text, why", [
    ('search = "greedy"\n', r"key 'search': grading needs a search \(pimc or cheat\), got greedy"),
    ('graded = ["nosuch"]\n', "nosuch"),
])
def test_a_grading_spec_names_a_search_and_known_strategies(tmp_path, text, why):
    from simkit.analyses.grading.spec import load_grading

    path = tmp_path / "g.toml"
    base = 'name = "g"\nplayers = 4\nhands = 3\nfield = "lowest"\n'
    path.write_text(base + ('graded = ["greedy"]\n' if "graded" not in text else "") + text)
    with pytest.raises(SimkitError, match=why):
        load_grading(str(path))


def test_options_that_belong_to_the_other_source_are_refused(tmp_path):
    from click.testing import CliRunner

    from simkit.cli import cli

    spec = _spec(tmp_path, "")
    for args, why in ((["--seat", "0", "--out", "o"], "--seat is for a trace file"),
                      ([], "a grading spec needs --out DIR")):
        result = CliRunner().invoke(cli, ["grade", str(spec)] + args)
        assert isinstance(result.exception, SimkitError) and str(result.exception).startswith(why)
    trace = tmp_path / "t.jsonl"
    trace.write_text("")
    for args, why in ((["--out", "o", "--seat", "0"], "--out is for a grading spec"), ([], "needs --seat")):
        result = CliRunner().invoke(cli, ["grade", str(trace)] + args)
        assert isinstance(result.exception, SimkitError) and why in str(result.exception)


def test_an_interrupted_grading_leaves_the_earlier_one_whole(tmp_path, monkeypatch):
    """Ctrl-C while the hands are graded, or while the new grading is made whole beside the
    folder: the earlier grading stays whole (its files as they were), the hands graded are kept
    apart (.partial) for --resume, and nothing is left beside the folder."""
    from simkit.analyses.grading import grade as grading  # where a grading run's hands are graded
    from simkit.analyses.grading.run import PARTIAL, run_grading
    from simkit.analyses.grading.spec import load_grading

    spec = load_grading(str(_spec(tmp_path, "")))
    run_grading(spec, str(tmp_path / "a"))
    before = {p.name: p.read_bytes() for p in (tmp_path / "a").iterdir()}
    def interrupted(record, *args, **kwargs):
        if record["strategies"][0] == "greedy" and record["hand"] == 1:  # whichever thread grades it
            raise KeyboardInterrupt
        return grade(record, *args, **kwargs)

    def files():
        return {p.name: p.read_bytes() for p in (tmp_path / "a").iterdir() if p.name != PARTIAL}

    monkeypatch.setattr(grading, "grade", interrupted)
    with pytest.raises(KeyboardInterrupt):
        run_grading(spec, str(tmp_path / "a"))
    assert files() == before
    kept = [len((tmp_path / "a" / PARTIAL / f"traces-{k}.jsonl").read_text().splitlines()) for k in (1, 2)]
    assert kept == [3, 1]  # random's three hands and greedy's first, graded before Ctrl-C
    monkeypatch.setattr(grading, "grade", grade)

    def broken(*args, **kwargs):
        raise KeyboardInterrupt  # while the new folder is being written, beside the old one

    import simkit.analyses.grading.report as report

    monkeypatch.setattr(report, "make_grading_report", broken)
    with pytest.raises(KeyboardInterrupt):
        run_grading(spec, str(tmp_path / "a"), resume=True)
    assert files() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a", "g.toml"]  # nothing left beside it
    with pytest.raises(SimkitError, match="holds an unfinished grading: finish it with --resume"):
        run_grading(spec, str(tmp_path / "a"))


def test_a_grading_is_written_only_into_a_new_folder_or_an_earlier_grading(tmp_path):
    from simkit.analyses.grading.run import run_grading
    from simkit.analyses.grading.spec import load_grading

    spec = load_grading(str(_spec(tmp_path, "")))
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    with pytest.raises(SimkitError, match="is a folder of other files"):
        run_grading(spec, str(mine))
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]
    run_grading(spec, str(tmp_path / "new" / "folders"))  # the folders above are made, as for a run
    assert (tmp_path / "new" / "folders" / "report.html").is_file()
    (tmp_path / "file").write_text("")
    with pytest.raises(SimkitError, match="is not a folder this user can write"):
        run_grading(spec, str(tmp_path / "file" / "below"))


@pytest.mark.parametrize("lineup", [("highest", "1"), ("greedy", "1")])
def test_one_hand_or_moves_without_a_choice_still_make_a_report(tmp_path, lineup):
    from simkit.analyses.grading.record import read_grading
    from simkit.analyses.grading.run import run_grading
    from simkit.analyses.grading.spec import parse_grading

    name, hands = lineup
    spec = parse_grading({"name": "x", "players": 3, "hands": int(hands), "graded": [name], "field": "lowest",
                          "search": "pimc(samples=4)", "samples": 4})
    run_grading(spec, str(tmp_path / "x"))
    assert (tmp_path / "x" / "report.html").stat().st_size > 0
    _, moves, hands_, _ = read_grading(tmp_path / "x")
    assert len(hands_) == 1 and list(moves.columns)[:3] == ["strategy", "hand", "trick"]


def test_a_grading_with_no_moves_to_grade_still_makes_a_report(tmp_path, monkeypatch):
    from simkit.analyses.grading import grade as grading
    from simkit.analyses.grading.run import run_grading
    from simkit.analyses.grading.spec import load_grading

    monkeypatch.setattr(grading, "grade", lambda *args, **kwargs: [])
    run_grading(load_grading(str(_spec(tmp_path, ""))), str(tmp_path / "a"))
    assert "random had no choice to grade" in (tmp_path / "a" / "report.md").read_text()


def test_simkit_run_says_a_grading_spec_is_run_by_grade(tmp_path):
    from click.testing import CliRunner

    from simkit.cli import cli

    result = CliRunner().invoke(cli, ["run", "experiments/grading/grade-4p.toml", "--out", str(tmp_path / "o")])
    assert isinstance(result.exception, SimkitError)
    assert "this is a grading spec (it has 'graded'): run it with `simkit grade" in str(result.exception)
