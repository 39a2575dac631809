"""Trace files of either game through one module (simkit/games/traces.py): written whole with the usual
permissions, read back, shown and checked; a file that is not a trace gets one error line per
record, never a traceback."""

import os
import stat

import pytest

from simkit.core.errors import SimkitError
from simkit.games import traces
from simkit.games.ezelen import batch as ezelen
from simkit.games.whos_the_ass import batch as whos
from simkit.games.whos_the_ass.strategy import seats_for


def test_a_written_trace_reads_back_and_has_the_umasks_permissions(tmp_path):
    records = list(whos.traces(seats_for(["lowest"] * 3, 3), 4, 9))
    path = tmp_path / "t.jsonl"
    old = os.umask(0o022)
    try:
        count, last = traces.write_traces(str(path), records)
    finally:
        os.umask(old)
    assert count == 4 and last == records[-1]
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    assert list(traces.read_traces(str(path))) == records
    assert [p.name for p in tmp_path.iterdir()] == ["t.jsonl"]  # no temporary file left


def test_both_games_records_are_found_shown_and_checked(tmp_path):
    from simkit.games.ezelen.strategy import seats_for as ezelen_seats

    path = tmp_path / "both.jsonl"
    hands = list(whos.traces(seats_for(["greedy", "lowest", "lowest"], 3), 2, 3))
    rounds = list(ezelen.match_traces(ezelen_seats(["greedy"] * 3, 3), 2, 3, {}, {}))[:2]
    traces.write_traces(str(path), hands + rounds)
    assert traces.find_record(str(path), hand=1) == hands[1]
    assert traces.find_record(str(path), match=0, round_no=1) == rounds[1]
    assert traces.show_record(hands[0]).startswith("hand 0 (seed 3)")
    counts, problems = traces.check_file(str(path))
    assert problems == [] and counts == {"whos-the-ass": 2, "ezelen": 2}
    with pytest.raises(SimkitError, match="hand 7 is not in"):
        traces.find_record(str(path), hand=7)


def test_a_binary_file_gets_error_lines_not_a_traceback(tmp_path):
    path = tmp_path / "noise.bin"
    path.write_bytes(bytes(range(256)) * 4 + b"\n\xff\xfe\n")
    counts, problems = traces.check_file(str(path))
    assert not counts and problems and all(p.startswith(f"{path}:") for p in problems)
