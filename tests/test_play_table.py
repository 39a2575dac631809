"""`simkit play`: a person's game of Who's the Ass? against the strategies, scripted from a pipe
(bad lines answered and asked again), its saved hands read by `check`, `show --grade` and `grade`,
the same moves giving the same file, a replay from one of the person's decisions, the end of the
input and Ctrl-C leaving cleanly with the finished hands, and bad input one line."""

import io
import json
import signal
import subprocess
import sys
import threading
import time

import pytest

from simkit.games import traces
from simkit.games.whos_the_ass.action import short
from simkit.games.whos_the_ass.moves import move_names, parse_move
from simkit.games.whos_the_ass.strategy import seats_for
from simkit.games.whos_the_ass.table import Table
from simkit.strategies.spec import split

pytestmark = pytest.mark.long  # left out of the development subset (pyproject.toml)

TABLE = ("-n", "4", "--opponents", "pimc,highest,greedy", "--seed", "5", "--samples", "8")


def _play(run, monkeypatch, script: str, *args):
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    return run("play", *args)


def _alternating(count: int = 300) -> list[str]:
    return ["2" if k % 2 == 0 else "1" for k in range(count)]


def test_a_piped_game_answers_bad_lines_and_saves_hands_that_the_readers_read(run, monkeypatch, tmp_path):
    saved = tmp_path / "mine.jsonl"
    script = "\nnonsense\n99\n14 14\n" + "1\n" * 300
    code, out, err = _play(run, monkeypatch, script, *TABLE, "--hands", "2", "--save", saved)
    assert code == 0, err
    assert "an empty line: type a move's number or the move itself" in out
    assert "'nonsense' is not a move: cards are A (the ass), 1 to 13 and J (a joker), or pass" in out
    assert "there is no move 99: type 1 to" in out and "'14 14' is not a move" in out
    assert out.count("end of hand: penalties") == 2 and "match totals:" in out and "points lost in all" in out
    records = list(traces.read_traces(str(saved)))
    assert [r["hand"] for r in records] == [0, 1] and all(r["strategies"][0] == "person" for r in records)
    for command in (("check", saved), ("show", saved, "--hand", "1", "--grade", "0", "--samples", "8"),
                    ("grade", saved, "--seat", "0", "--samples", "8")):
        code, _, err = run(*command)
        assert code == 0, err
    assert "seat 0 person" in run("show", saved, "--hand", "0")[1]


def test_the_same_moves_give_the_same_file_and_a_replay_with_them_the_same_hand(run, monkeypatch, tmp_path):
    first, second, replayed = (tmp_path / f"{k}.jsonl" for k in ("a", "b", "c"))
    for path in (first, second):
        code, _, err = _play(run, monkeypatch, "\n".join(_alternating()) + "\n", *TABLE, "--save", path)
        assert code == 0, err
    assert first.read_text() == second.read_text()
    # the k-th line answered the k-th decision with a choice: from decision 3 on, the same lines
    code, out, err = _play(run, monkeypatch, "\n".join(_alternating()[2:]) + "\n", "--replay", first, "--hand", "0",
                           "--from", "3", "--save", replayed)
    assert code == 0, err
    assert "replayed up to your decision 3" in out and "(your decision 3: you played" in out
    assert replayed.read_text() == first.read_text()  # the same choices from there: the same hand, the bots alike


def test_a_replay_of_a_hand_the_strategies_did_not_play_is_one_error(run, monkeypatch, tmp_path):
    saved, changed = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    code, _, err = _play(run, monkeypatch, "1\n" * 200, *TABLE, "--save", saved)
    assert code == 0, err
    record = json.loads(saved.read_text())
    record["strategies"][2] = "lowest"  # highest's moves, said to be lowest's
    changed.write_text(json.dumps(record) + "\n")
    code, out, err = _play(run, monkeypatch, "1\n" * 200, "--replay", changed, "--hand", "0", "--from", "40")
    assert code == 2 and err.count("\n") == 1
    assert "(lowest) would play" in err or "decisions with a choice" in err


def test_the_end_of_the_input_keeps_the_finished_hands(run, monkeypatch, tmp_path):
    saved = tmp_path / "mine.jsonl"
    code, out, err = _play(run, monkeypatch, "1\n" * 30, *TABLE, "--hands", "3", "--save", saved)
    assert code == 0, err
    done = len(list(traces.read_traces(str(saved))))
    assert 1 <= done < 3 and f"the input ended: {done} finished hand" in out and "(end of input)" in out
    code, out, err = _play(run, monkeypatch, "", *TABLE, "--save", tmp_path / "none.jsonl")
    assert code == 0 and "the input ended: 0 finished hands" in out and not (tmp_path / "none.jsonl").exists()


def test_a_move_is_its_number_or_its_written_form():
    table = Table(seats_for(split("lowest"), 4), 0, 11, 2, {"ass_joker": "1or14"})
    while table.seat != 0 or len(table.legal()) < 2:
        table.play(table.decide())
    actions = table.legal()
    names = move_names(actions, False)
    assert len(set(names)) == len(names)
    for k, (action, name) in enumerate(zip(actions, names)):
        assert parse_move(str(k + 1), names, actions) == action
        if not name.isdigit():  # a lone number is always the list's
            assert parse_move(f"  {name.lower()} ", names, actions) == action
            assert parse_move(short(action), names, actions) == action
    with pytest.raises(ValueError, match="not one of your legal moves"):
        parse_move("13 13 13 13 J J", names, actions)


@pytest.mark.parametrize("ass_joker, typed, found", [
    ("1or14", "j (as 14)", "J (as 14)"), ("1or14", "J ( as 1 )", "J (as 1)"), ("1", "J", "J (as 1)"),
])
def test_a_lone_joker_in_an_ass_trick_is_typed_with_its_value_or_alone_where_it_has_one(ass_joker, typed, found):
    names, actions = ["1", "J (as 1)", "J (as 14)"], [0x11, 0x101, 0x10E]
    if ass_joker == "1":
        names, actions = names[:2], actions[:2]
    assert names[actions.index(parse_move(typed, names, actions))] == found
    if ass_joker == "1or14":
        with pytest.raises(ValueError, match=r"'J' is more than one move here: type J \(as 1\) or J \(as 14\)"):
            parse_move("J", names, actions)
    assert parse_move("5 j 5", ["5 5 J"], [7]) == 7  # cards in any order


@pytest.mark.parametrize("args, message", [
    (("-n", "4", "--opponents", "nosuch"), "unknown strategy 'nosuch'"),
    (("-n", "2"), "players"),
    (("-n", "4", "--opponents", "pimc,highest"), "--opponents names 2 strategies for the 3 other seats"),
    (("-n", "4", "--seat", "4"), "--seat must be 0..3 at 4 players, got 4"),
    (("-n", "4", "--hands", "0"), "--hands must be 1..1,000"),
    (("--game", "ezelen", "-n", "4"), "play seats a person at Who's the Ass? only"),
    (("-n", "4", "--hand", "2"), "--hand and --from go with --replay"),
    (("--replay", "/nonexistent.jsonl"), "no trace file /nonexistent.jsonl"),
    (("-n", "4", "--samples", "1"), "--samples"),
    ((), "-n/--players is required"),
    (("--replay", "x.jsonl", "--seat", "2"), "--replay plays the saved hand's table, seed and rules again"),
    (("-n", "4", "--save", ""), "--save needs a file name"),
])
def test_bad_input_is_one_line(run, monkeypatch, args, message):
    code, out, err = _play(run, monkeypatch, "1\n", *args)
    assert code == 2 and message in err and err.count("\n") == 1 and not out


def test_a_replay_does_not_save_over_the_file_it_replays(run, monkeypatch, tmp_path):
    saved = tmp_path / "mine.jsonl"
    code, _, err = _play(run, monkeypatch, "1\n" * 200, *TABLE, "--save", saved)
    assert code == 0, err
    before = saved.read_text()
    code, out, err = _play(run, monkeypatch, "1\n" * 200, "--replay", saved, "--hand", "0", "--save", saved)
    assert code == 2 and "is the file replayed" in err and saved.read_text() == before


def test_a_replay_needs_a_hand_a_person_played(run, monkeypatch, tmp_path):
    code, _, err = run("trace", "-n", "4", "-H", "2", "-o", tmp_path / "t.jsonl")
    assert code == 0, err
    code, out, err = _play(run, monkeypatch, "1\n", "--replay", tmp_path / "t.jsonl", "--hand", "1")
    assert code == 2 and "has no seat played by a person" in err and err.count("\n") == 1


def test_ctrl_c_leaves_within_a_second_keeping_the_finished_hands(tmp_path):
    """A real process, its moves fed a line at a time: once the second hand asks, Ctrl-C."""
    saved = tmp_path / "mine.jsonl"
    simkit = [sys.executable, "-m", "simkit.cli", "play", *TABLE, "--hands", "2", "--save", str(saved)]
    proc = subprocess.Popen(simkit, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, bufsize=1)
    seen = []
    reader = threading.Thread(target=lambda: seen.extend(iter(lambda: proc.stdout.read(1), "")), daemon=True)
    reader.start()
    deadline = time.time() + 240
    while "hand 2 of 2" not in "".join(seen) and time.time() < deadline and proc.poll() is None:
        if "".join(seen).endswith("your move> "):
            proc.stdin.write("1\n")
            proc.stdin.flush()
        time.sleep(0.01)
    while not "".join(seen).endswith("your move> ") and time.time() < deadline:
        time.sleep(0.01)
    sent = time.time()
    proc.send_signal(signal.SIGINT)
    code = proc.wait(timeout=10)
    took = time.time() - sent
    err = proc.stderr.read()
    assert code == 130 and took < 1.0, (code, took, err)
    assert "interrupted: 1 finished hand, saved to" in err
    assert len(list(traces.read_traces(str(saved)))) == 1
