"""Every input of every command checked where it enters: sizes against what the machine holds
(memory, disk, a run's chunks), ranges, file kinds; each a single `simkit: error:` line and exit
code 2, never a traceback. An OSError or MemoryError while a command runs is one line too; a bug
(any other exception) still shows its traceback."""

import errno
import json
import shutil
import sys
from collections import namedtuple
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from conftest import built_in_experiments, built_in_tunings

from simkit import cli
from simkit.core import sizes
from simkit.core.errors import SimkitError
from simkit.experiments import statistics as st
from simkit.experiments import stats_file
from simkit.experiments.executors import check_scheduler
from simkit.experiments.spec import load_spec, parse_spec_dict

HUGE = str(10**20)
SPEC = 'name = "s"\nplayers = 3\nhands = 300\nlineup = ["spend", "lowest", "lowest"]\n'


@pytest.fixture
def run(monkeypatch, capsys):
    """`simkit ARGS` in this process through cli.main: (exit code, stdout, stderr)."""
    def call(*args):
        monkeypatch.setattr(sys, "argv", ["simkit", *map(str, args)])
        try:
            cli.main()
            code = 0
        except SystemExit as e:
            code = e.code
        out, err = capsys.readouterr()
        return code, out, err
    return call


def one_error(result, *words: str) -> None:
    """Exit code 2, nothing on stdout, exactly one line on stderr, saying each of `words`."""
    code, out, err = result
    assert code == 2, (code, out, err)
    assert out == "" and err.count("\n") == 1 and err.startswith("simkit: error: "), (out, err)
    for word in words:
        assert word in err, err


@pytest.fixture
def small_machine(monkeypatch):
    """A machine with 1 GB of memory available (of 2 GB)."""
    monkeypatch.setattr(sizes, "memory", lambda: (10**9, 2 * 10**9))


# --- sizes: memory, disk, a run's chunks ----------------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["simulate", "-n", "4"], ["simulate", "--game", "ezelen", "-n", "4"],
    ["simulate", "--game", "ezelen", "-n", "4", "--matches"], ["strength", "-n", "4"],
    ["strength", "--game", "ezelen", "-n", "4"], ["bench"],
])
@pytest.mark.parametrize("hands", [HUGE, str(10**12)])
def test_huge_hands_are_refused_with_the_memory_they_would_need(run, args, hands):
    one_error(run(*args, "-H", hands), "--hands", "bytes of memory", "this machine has", "available")


@pytest.mark.parametrize("args", [["simulate", "-n", "12"], ["strength", "-n", "12"]])
def test_the_memory_check_compares_with_the_memory_available(run, small_machine, args):
    # 20 million hands at 12 players (~160 bytes each) do not fit in 1 GB, 1,000 do (and are played)
    one_error(run(*args, "-H", str(20_000_000)), "--hands 20,000,000 hands would need", "1.0 GB available of 2.0 GB")
    code, out, err = run(*args, "-H", "1000", *(("--strategies", "greedy") if args[0] == "strength" else ()))
    assert code == 0 and err == "" and out


def test_the_memory_estimate_is_the_bytes_per_deal_and_seat():
    assert sizes.BYTES_PER_DEAL + 4 * sizes.BYTES_PER_SEAT == 96
    with pytest.raises(SimkitError, match=r"--hands 1e\+20 hands would need 9.6e\+21 bytes of memory"):
        sizes.check_deals_in_memory(10**20, 4, "--hands", "hands")


def test_a_huge_trace_is_refused_with_the_disk_it_would_need(run, tmp_path, monkeypatch):
    target = tmp_path / "t.jsonl"
    one_error(run("trace", "-n", "4", "-H", HUGE, "-o", target), "would write at least", "bytes", "free")
    assert not target.exists() and list(tmp_path.iterdir()) == []
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: usage(10**7, 10**7 - 10**6, 10**6))  # 1 MB free
    one_error(run("trace", "-n", "4", "-H", "5000", "-o", target), "--hands 5,000 hands would write at least 2.5 MB",
              f"{tmp_path} has 1.0 MB free")
    code, out, _ = run("trace", "-n", "4", "-H", "3", "-o", target)
    assert code == 0 and "wrote 3 hands" in out


@pytest.fixture
def spec_file(tmp_path) -> Path:
    path = tmp_path / "s.toml"
    path.write_text(SPEC)
    return path


def test_a_run_of_more_chunks_than_it_can_hold_is_refused_at_once(run, spec_file, tmp_path):
    one_error(run("run", spec_file, "--hands", HUGE, "--out", tmp_path / "o"), "--hands 1e+20 hands would make",
              "chunks", "at most 1,000,000 chunks")
    assert not (tmp_path / "o").exists()
    spec_file.write_text(SPEC.replace("hands = 300", f"hands = {2**62}"))
    one_error(run("run", spec_file, "--out", tmp_path / "o"), "key 'hands'", "at most 1,000,000 chunks")


def test_rows_that_cannot_be_read_back_are_refused(run, spec_file, tmp_path, small_machine):
    # 10 million deals x 3 rotations x 3 seats = 90 million rows of ~48 bytes: more than 1 GB
    one_error(run("run", spec_file, "--hands", "10000000", "--rows", "--out", tmp_path / "o"),
              "--rows: 90,000,000 rows would need", "memory")
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("chunks, words", [
    ("0", "--chunks must be positive"), ("-5", "--chunks must be positive"),
    (HUGE, "--chunks must be 1..1,000"), ("1001", "--chunks must be 1..1,000"),
])
def test_chunks_are_one_to_the_hands(run, chunks, words):
    one_error(run("simulate", "-n", "4", "-H", "1000", "--chunks", chunks), words)


def test_chunks_within_the_hands_are_played(run):
    code, out, _ = run("simulate", "-n", "4", "-H", "1000", "--chunks", "1000")
    assert code == 0 and "1,000 hands" in out


# --- files read: kinds, emptiness, text ----------------------------------------------------------------------------

@pytest.fixture
def trace_path(tmp_path) -> Path:
    return tmp_path / "t.jsonl"


@pytest.mark.parametrize("command", ["check", "show"])
@pytest.mark.parametrize("content, words", [
    (b"", "holds no records"), (b"\n  \n\n", "holds no records"),
    (b"\x7fELF\x02\x01\x01\x00\x00\x00" * 10, "is not a text trace file (a NUL byte at byte 7)"),
    (b'{"game": "whos-the-ass"}\n\xff\xfe\xfa\n', "is not a text trace file (not UTF-8 at byte 25)"),
])
def test_an_empty_or_binary_trace_file_is_one_error(run, trace_path, command, content, words):
    trace_path.write_bytes(content)
    one_error(run(command, trace_path), str(trace_path), words)


@pytest.mark.parametrize("args, words", [
    (["check", "{dir}"], "trace file {dir} is a directory"),
    (["show", "{dir}"], "trace file {dir} is a directory"),
    (["run", "{dir}"], "spec file {dir} is a directory"),
    (["simulate", "-n", "4", "-H", "10", "--strategy-file", "{dir}"], "strategy file {dir} is a directory"),
    (["strategies", "--strategy-file", "{dir}"], "strategy file {dir} is a directory"),
    (["run", ""], "spec file needs a file name"),
    (["check", ""], "trace file needs a file name"),
    (["check", "{dir}/none.jsonl"], "no trace file {dir}/none.jsonl"),
    (["show", "/dev/null"], "trace file /dev/null is not a regular file"),
])
def test_a_folder_or_no_name_where_a_file_is_read_is_said_so(run, tmp_path, args, words):
    one_error(run(*(a.format(dir=tmp_path) for a in args)), words.format(dir=tmp_path))


def test_a_strategy_file_must_be_python(run, tmp_path):
    text = tmp_path / "mine.txt"
    text.write_text("x = 1\n")
    one_error(run("simulate", "-n", "4", "-H", "10", "--strategy-file", text), f"strategy file {text} must be a "
              "Python file (FILE.py)")
    one_error(run("strategies", "--strategy-file", text), "must be a Python file")


def test_an_unreadable_file_is_said_so(run, trace_path):
    trace_path.write_text('{"game": "whos-the-ass"}\n')
    trace_path.chmod(0)
    try:
        if trace_path.open("rb"):  # root reads anything: nothing to check
            pytest.skip("this user reads files without read permission")
    except PermissionError:
        one_error(run("check", trace_path), "cannot read trace file", "permission denied")
    finally:
        trace_path.chmod(0o644)


@pytest.mark.parametrize("option", ["--hand", "--match", "--round"])
def test_show_takes_no_negative_number(run, trace_path, option):
    trace_path.write_text('{"game": "whos-the-ass"}\n')
    one_error(run("show", trace_path, option, "-1", *(("--match", "0") if option == "--round" else ())),
              f"{option} must be at least 0")


def test_an_output_needs_a_name(run, tmp_path):
    one_error(run("trace", "-n", "4", "-o", ""), "-o needs a file name")
    one_error(run("trace", "-n", "4", "-o", "  "), "-o needs a file name")


# --- --scheduler ----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("address, words", [
    ("nonsense", "missing port number"), ("tcp://host", "missing port number"),
    ("tcp://host:abc", "--scheduler must be a Dask scheduler address"), ("foo://host:1", "unknown address scheme"),
    ("", "missing port number"), ("tcp://host:99999", "port 99999 is not 1..65535"),
])
def test_a_scheduler_address_is_checked_before_anything_runs(run, spec_file, tmp_path, address, words):
    one_error(run("run", spec_file, "--scheduler", address, "--out", tmp_path / "o"), "--scheduler", words)
    assert not (tmp_path / "o").exists()


def test_a_well_formed_scheduler_address_passes():
    for address in ("tcp://127.0.0.1:8786", "host:8786", "tls://h:1"):
        assert check_scheduler(address) == address


# --- spec files: the baseline must play -----------------------------------------------------------------------------

BASE = {"name": "b", "players": 4, "hands": 10}


@pytest.mark.parametrize("changes, words", [
    ({"lineup": ["greedy", "spend"] * 2, "baseline": "lowest"}, "lowest is not in the lineup (greedy, spend, greedy"),
    ({"pool": ["greedy", "spend", "hoard"], "baseline": "lowest"}, "lowest is not in the pool (greedy, spend, hoard)"),
    ({"lineups": [["greedy"], ["spend"]], "baseline": "lowest"}, "lowest is not in any of the lineups (greedy; spend)"),
    ({"lineup": ["hoard", "lowest", "lowest", "lowest"], "baseline": "hoard(release_at=3)"},
     "hoard(release_at=3) is not in the lineup"),
    ({"lineup": ["hoard", "lowest", "lowest", "lowest"], "baseline": "hoard", "sweep": {"hoard.release_at": [1, 2]}},
     "it is swept"),
])
def test_a_baseline_that_plays_nowhere_is_refused(changes, words):
    with pytest.raises(SimkitError, match=r"key 'baseline': ") as e:
        parse_spec_dict({**BASE, **changes})
    assert words in str(e.value)


@pytest.mark.parametrize("changes", [
    {"lineup": ["greedy", "lowest", "spend", "lowest"], "baseline": "lowest"},
    {"lineups": [["greedy"], ["spend", "lowest", "spend", "lowest"]], "baseline": "lowest"},
    {"pool": ["greedy", "lowest"], "baseline": "lowest"},
    {"lineup": ["greedy"]},  # no baseline named: the game's default need not play (no paired differences then)
    {"lineup": ["hoard", "lowest", "lowest", "lowest"], "baseline": "hoard(release_at=2)",
     "sweep": {"hoard.release_at": [1, 2]}},
])
def test_a_baseline_that_plays_is_accepted(changes):
    parse_spec_dict({**BASE, **changes})


def test_the_spec_file_names_itself_in_the_baseline_error(run, tmp_path):
    path = tmp_path / "b.toml"
    path.write_text(SPEC + 'baseline = "greedy"\n')
    one_error(run("run", path, "--out", tmp_path / "o"), f"{path}: key 'baseline': greedy is not in the lineup "
              "(spend, lowest, lowest)")


def test_every_built_in_experiment_and_tuning_still_loads():
    from simkit.analyses.tune.spec import load_tuning

    for path in built_in_experiments():
        load_spec(str(path))
    for path in built_in_tunings():
        load_tuning(str(path))
        with pytest.raises(SimkitError, match="this is a tuning spec"):
            load_spec(str(path))


# --- statistics files ---------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    """A finished run's folder."""
    from simkit.experiments.runner import run_spec

    folder = tmp_path_factory.mktemp("run") / "o"
    run_spec(parse_spec_dict({"name": "s", "players": 3, "hands": 60, "lineup": ["spend", "lowest", "lowest"]}),
             str(folder))
    return folder


def _damage(folder: Path, tmp_path: Path, how) -> Path:
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    how(copy / "stats.parquet")
    return copy


@pytest.mark.parametrize("how, words", [
    (lambda p: p.write_bytes(b""), "size is 0 bytes"),
    (lambda p: p.write_bytes(p.read_bytes()[:300]), "not a simkit statistics file"),
    (lambda p: p.write_bytes(b"PAR1" + bytes(100) + b"PAR1"), "not a simkit statistics file"),
    (lambda p: pq.write_table(pa.table({"x": [1]}), p), "not a simkit statistics file (KeyError: b'simkit')"),
    (lambda p: pq.write_table(pa.table({"x": [1]}).replace_schema_metadata({"simkit": "[1]"}), p),
     "its simkit metadata is not a table"),
    (lambda p: pq.write_table(pa.table({"x": [1]}).replace_schema_metadata({"simkit": "{"}), p), "JSONDecodeError"),
])
def test_report_on_a_damaged_statistics_file_is_one_error(run, finished, tmp_path, how, words):
    copy = _damage(finished, tmp_path, how)
    one_error(run("report", copy), f"{copy}/stats.parquet", words)


def test_a_statistics_file_missing_its_columns_or_keys_is_damaged(finished, tmp_path):
    table = pq.read_table(finished / "stats.parquet")
    pq.write_table(table.drop_columns(["value"]), tmp_path / "a.parquet")
    with pytest.raises(SimkitError, match="is a damaged simkit statistics file"):
        stats_file.read(tmp_path / "a.parquet")
    meta = json.loads(table.schema.metadata[b"simkit"])
    del meta["measures"]
    pq.write_table(table.replace_schema_metadata({"simkit": json.dumps(meta)}), tmp_path / "b.parquet")
    with pytest.raises(SimkitError, match=r"is a damaged simkit statistics file \(KeyError: 'measures'\)"):
        stats_file.read(tmp_path / "b.parquet")


def test_a_damaged_chunk_file_is_one_error(finished, tmp_path):
    lay = stats_file.read(finished / "stats.parquet").layout
    spec = parse_spec_dict({"name": "s", "players": 3, "hands": 60, "lineup": ["spend", "lowest", "lowest"]})
    part = st.reduce_chunk(spec, 0, 5, lay=lay)
    path = tmp_path / "c.npy"
    stats_file.write_chunk(part, path)
    assert stats_file.read_chunk(path, lay) == part
    whole = path.read_bytes()
    for damaged in (whole[: len(whole) // 2], b"", whole[:128]):
        path.write_bytes(damaged)
        with pytest.raises(SimkitError, match="c.npy: not a whole chunk statistics file"):
            stats_file.read_chunk(path, lay)
    path.write_bytes(whole)
    flat = np.load(path)
    np.save(path, flat[:-1])  # a whole .npy file, one number short
    with pytest.raises(SimkitError, match="short of its layout's"):
        stats_file.read_chunk(path, lay)
    np.save(path, np.append(flat, [0, 0]))
    with pytest.raises(SimkitError, match="2 numbers more than its layout's"):
        stats_file.read_chunk(path, lay)
    np.save(path, np.zeros(3, np.float64))
    with pytest.raises(SimkitError, match="not a flat int64 one"):
        stats_file.read_chunk(path, lay)


# --- errors while a command runs -------------------------------------------------------------------------------------

def raising(error: BaseException):
    def fails(*args, **kwargs):
        raise error
    return fails


def test_an_os_error_while_running_is_one_line(run, trace_path, monkeypatch):
    import simkit.games.traces

    trace_path.write_text('{"game": "whos-the-ass"}\n')

    def full(path):
        raise OSError(errno.ENOSPC, "No space left on device", str(path))

    monkeypatch.setattr(simkit.games.traces, "check_file", full)
    one_error(run("check", trace_path), f"simkit: error: No space left on device: {trace_path}")


def test_an_os_error_without_a_file_names_its_reason(run, trace_path, monkeypatch):
    import simkit.games.traces

    trace_path.write_text('{"game": "whos-the-ass"}\n')
    monkeypatch.setattr(simkit.games.traces, "check_file", raising(OSError(errno.EIO, "Input/output error")))
    one_error(run("check", trace_path), "simkit: error: Input/output error")


def test_running_out_of_memory_is_one_line(run, trace_path, monkeypatch):
    import simkit.games.traces

    trace_path.write_text('{"game": "whos-the-ass"}\n')
    monkeypatch.setattr(simkit.games.traces, "check_file",
                        raising(MemoryError("Unable to allocate 7.28 TiB")))
    one_error(run("check", trace_path), "out of memory (Unable to allocate 7.28 TiB)")


def test_a_bug_still_shows_its_traceback(run, trace_path, monkeypatch):
    import simkit.games.traces

    trace_path.write_text('{"game": "whos-the-ass"}\n')
    monkeypatch.setattr(simkit.games.traces, "check_file", raising(RuntimeError("a bug")))
    with pytest.raises(RuntimeError, match="a bug"):
        run("check", trace_path)


def test_ctrl_c_is_not_an_os_error(run, trace_path, monkeypatch):
    import simkit.games.traces

    trace_path.write_text('{"game": "whos-the-ass"}\n')
    monkeypatch.setattr(simkit.games.traces, "check_file", raising(KeyboardInterrupt()))
    code, _, err = run("check", trace_path)  # click makes it an Abort: exit 130, not an error line
    assert code == 130 and "simkit: aborted" in err and "error" not in err
