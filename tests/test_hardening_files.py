"""Outputs and run folders under bad input: nothing a command did not make is replaced or cut
short (a device, a link, a folder at -o; a full disk), temporary files are a writer's own and the
finished file has the umask's permissions, a report is replaced only by a whole one, two runs
never share a folder, and an unfinished or damaged run says how to go on. Each is one error line
and exit code 2."""

import errno
import fcntl
import os
import signal
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import chunks_of

from simkit.core.errors import SimkitError
from simkit.core.files import atomic_path
from simkit.experiments import runner
from simkit.experiments.spec import load_spec
from simkit.games import traces

SPEC = 'name = "s"\nplayers = 3\nhands = 300\nlineup = ["spend", "lowest", "lowest"]\n'


def one_error(code: int, err: str, *words: str) -> None:
    """Exit code 2, exactly one line on stderr, saying each of `words`."""
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("simkit: error: "), err
    for word in words:
        assert word in err, err


@pytest.fixture
def spec_file(tmp_path) -> Path:
    path = tmp_path / "s.toml"
    path.write_text(SPEC)
    return path


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


# -o: only new or regular files are written -------------------------------------------------------


@pytest.fixture
def device(tmp_path) -> Path:
    """A device like /dev/full (writes fail: disk full). As root, a node of it of our own: a
    regression that renamed over the device would replace /dev/full itself for the whole machine
    (the code before this test did). Others cannot replace /dev/full, so it is used as it is."""
    if os.geteuid() != 0:
        if not os.path.exists("/dev/full"):
            pytest.skip("no /dev/full here")
        return Path("/dev/full")
    node = tmp_path / "full"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 7))
    except OSError:
        pytest.skip("cannot make a device node here")
    return node


def test_trace_to_a_device_is_refused_and_the_device_kept(run, device):
    code, out, err = run("trace", "-n", "4", "-H", "2", "-o", device)
    one_error(code, err, f"cannot write {device}", "not a regular file")
    assert out == "" and stat.S_ISCHR(os.lstat(device).st_mode)


def test_trace_to_a_symlink_is_refused_and_the_link_kept(run, tmp_path):
    real = tmp_path / "real.jsonl"
    real.write_text("earlier\n")
    link = tmp_path / "t.jsonl"
    link.symlink_to(real)
    code, _, err = run("trace", "-n", "4", "-H", "2", "-o", link)
    one_error(code, err, f"cannot write {link}", "symbolic link")
    assert link.is_symlink() and os.readlink(link) == str(real) and real.read_text() == "earlier\n"
    dangling = tmp_path / "d.jsonl"
    dangling.symlink_to(tmp_path / "nowhere")
    code, _, err = run("trace", "-n", "4", "-o", dangling)
    one_error(code, err, "symbolic link")
    assert dangling.is_symlink() and not (tmp_path / "nowhere").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d.jsonl", "real.jsonl", "t.jsonl"]


def test_trace_to_a_directory_or_no_name_is_refused(run, tmp_path):
    code, _, err = run("trace", "-n", "4", "-o", tmp_path)
    one_error(code, err, "it is a directory")
    for name in ("", f"{tmp_path}/"):
        code, _, err = run("trace", "-n", "4", "-o", name)
        one_error(code, err, "-o needs a file name")
    assert list(tmp_path.iterdir()) == []


def test_a_fifo_is_refused_without_opening_it(tmp_path):
    fifo = tmp_path / "f"
    os.mkfifo(fifo)
    with pytest.raises(SimkitError, match="not a regular file"):
        with atomic_path(fifo):
            pass
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode) and [p.name for p in tmp_path.iterdir()] == ["f"]


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o027, 0o640), (0o002, 0o664)])
def test_a_written_file_has_the_umasks_permissions(tmp_path, umask, mode):
    target = tmp_path / "r.txt"
    target.write_text("earlier")
    os.chmod(target, 0o600)
    old = os.umask(umask)
    try:
        with atomic_path(target) as tmp:
            tmp.write_text("new")
        traces.write_traces(str(tmp_path / "t.jsonl"), [{"game": "x"}])
    finally:
        os.umask(old)
    assert stat.S_IMODE(target.stat().st_mode) == mode and target.read_text() == "new"
    assert stat.S_IMODE((tmp_path / "t.jsonl").stat().st_mode) == mode


def test_two_writers_of_one_file_have_their_own_temporary_files(tmp_path):
    target = tmp_path / "r.txt"
    with atomic_path(target) as first, atomic_path(target) as second:
        assert first != second and first.parent == second.parent == tmp_path
        assert first.is_file() and second.is_file()  # each made, not just named
        first.write_text("first")
        second.write_text("second")
    assert target.read_text() == "first"  # the outer block ends last
    assert [p.name for p in tmp_path.iterdir()] == ["r.txt"]


def test_an_interrupted_write_leaves_no_temporary_file(tmp_path):
    target = tmp_path / "r.txt"
    target.write_text("earlier")
    with pytest.raises(KeyboardInterrupt):
        with atomic_path(target) as tmp:
            tmp.write_text("half")
            raise KeyboardInterrupt
    assert target.read_text() == "earlier" and [p.name for p in tmp_path.iterdir()] == ["r.txt"]


class FullDisk:
    """A text file whose second write finds the disk full."""

    def __init__(self, path, *args, **kwargs):
        self._f = open(path, *args, **kwargs)
        self._writes = 0

    def write(self, text: str) -> int:
        self._writes += 1
        if self._writes > 1:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return self._f.write(text)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._f.close()


def test_a_full_disk_is_one_error_and_keeps_the_earlier_file(run, tmp_path, monkeypatch):
    target = tmp_path / "t.jsonl"
    assert run("trace", "-n", "4", "-H", "1", "-o", target)[0] == 0  # an earlier result, a trace simkit wrote
    earlier = target.read_text()
    monkeypatch.setattr(traces, "open", FullDisk, raising=False)
    code, out, err = run("trace", "-n", "4", "-H", "3", "-o", target)
    one_error(code, err, f"cannot write {target}: No space left on device")
    assert out == "" and target.read_text() == earlier
    assert [p.name for p in tmp_path.iterdir()] == ["t.jsonl"]
    with pytest.raises(SimkitError, match=r"^cannot write .*r\.txt: No space left on device$"):
        with atomic_path(tmp_path / "r.txt"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
    assert [p.name for p in tmp_path.iterdir()] == ["t.jsonl"]


# reports: an unknown baseline is refused; only a whole report replaces the earlier one ------------


@pytest.fixture
def finished(run, spec_file, tmp_path) -> Path:
    folder = tmp_path / "o"
    code, _, err = run("run", spec_file, "--out", folder, "-H", "50")
    assert code == 0, err
    return folder


def test_report_with_an_unknown_baseline_is_refused_and_keeps_the_report(run, finished):
    before = snapshot(finished)
    code, out, err = run("report", finished, "--baseline", "nonsense")
    one_error(code, err, "--baseline nonsense is not a strategy of this run", "spend, lowest")
    assert out == "" and snapshot(finished) == before
    code, _, err = run("report", finished, "--baseline", "spend()")  # the same strategy, written otherwise
    assert code == 0, err
    assert "Paired difference to spend" in (finished / "report.md").read_text()


def test_a_report_that_fails_part_way_keeps_the_earlier_one(run, finished, monkeypatch):
    from simkit.experiments.report import write as report
    from simkit.reports import page

    before = snapshot(finished)
    drawn, header = report.figures_for, report._header

    def other_figures(*args, **kwargs):  # figures unlike the earlier ones
        found = drawn(*args, **kwargs)
        for fig in found.values():
            fig.axes[0].set_title("another report")
        return found

    def broken(markdown: str) -> str:
        raise RuntimeError("cut short")

    monkeypatch.setattr(report, "figures_for", other_figures)
    monkeypatch.setattr(report, "_header", lambda *args: "another report: " + header(*args))
    monkeypatch.setattr(page, "html_table", broken)  # after report.md is made, before report.html
    with pytest.raises(RuntimeError, match="cut short"):
        report.make_report(str(finished), "lowest")
    assert snapshot(finished) == before


# run folders: one run at a time; a used folder says how to go on ------------------------------------


def hold_lock(folder: Path, pid: int | None = None) -> int:
    """Lock `folder` as a run does (flock on the folder, its process id in run.pid)."""
    folder.mkdir(exist_ok=True)
    fd = os.open(folder, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    if pid is not None:
        (folder / runner.PID).write_text(f"{pid}\n")
    return fd


def test_a_folder_in_use_is_refused_at_once(run, spec_file, tmp_path):
    folder = tmp_path / "o"
    fd = hold_lock(folder, 4242)
    try:
        for resume in ((), ("--resume",)):
            code, out, err = run("run", spec_file, "--out", folder, "-H", "50", *resume)
            one_error(code, err, f"{folder} is in use by process 4242")
            assert out == ""
        assert [p.name for p in folder.iterdir()] == [runner.PID]  # nothing of a run written
    finally:
        os.close(fd)
    code, _, err = run("run", spec_file, "--out", folder, "-H", "50")  # a stale run.pid is no run
    assert code == 0, err
    assert not (folder / runner.PID).exists()


def test_the_lock_is_another_process_and_goes_with_it(tmp_path):
    """A second process is refused with the holder's process id; when the holder is killed (no
    chance to clean up), the folder is free again."""
    folder = tmp_path / "o"
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sys, time
        from simkit.experiments import runner
        with runner.hold({str(folder)!r}):
            print("held", flush=True)
            time.sleep(60)
        """)], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "held"
        with pytest.raises(SimkitError, match=f"is in use by process {child.pid}"):
            with runner.hold(str(folder)):
                pass
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    with runner.hold(str(folder)) as held:  # free again, though its run.pid stayed behind
        assert (held / runner.PID).read_text().strip() == str(os.getpid())
    assert list(folder.iterdir()) == []


def test_run_out_a_file_is_refused(run, spec_file, tmp_path):
    target = tmp_path / "o"
    target.write_text("mine")
    code, _, err = run("run", spec_file, "--out", target, "-H", "50")
    one_error(code, err, f"--out {target} exists and is not a folder")
    assert target.read_text() == "mine"


def interrupted(spec_file: Path, folder: Path, monkeypatch, rows: bool = False) -> None:
    """A run of 50 hands in two chunks cut short by Ctrl-C once its first is kept (the last
    goes straight into stats.parquet: a run that played all its chunks keeps none); the chunks
    stay 25 deals for the test's runs."""
    chunks_of(monkeypatch, 25)
    def ctrl_c(n: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        runner.write_results(load_spec(str(spec_file)), str(folder), hands=50, progress=ctrl_c, keep_rows=rows)
    assert (folder / "run.json").is_file() and list((folder / "chunks").glob("*.npy"))


def test_a_used_folder_says_how_to_go_on(run, spec_file, tmp_path, monkeypatch):
    folder = tmp_path / "o"
    interrupted(spec_file, folder, monkeypatch)
    code, _, err = run("run", spec_file, "--out", folder, "-H", "50")
    one_error(code, err, f"{folder} holds an unfinished run: finish it with --resume, or choose another --out")
    code, _, err = run("run", spec_file, "--out", folder, "-H", "50", "--resume")
    assert code == 0, err
    code, _, err = run("run", spec_file, "--out", folder, "-H", "50")  # the same run again: read back
    assert code == 0 and f"{folder} already holds this run, finished" in err, err
    code, _, err = run("run", spec_file, "--out", folder, "-H", "60")  # another run: refused
    one_error(code, err, f"{folder} already holds a run (a finished one); choose another --out")
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    code, _, err = run("run", spec_file, "--out", other, "-H", "50")
    one_error(code, err, "is not empty (it holds no simkit run)")
    code, _, err = run("run", spec_file, "--out", other, "-H", "50", "--resume")
    one_error(code, err, "holds no simkit run to resume")
    assert [p.name for p in other.iterdir()] == ["notes.txt"]


@pytest.mark.parametrize("rows", [False, True])
def test_a_damaged_chunk_is_one_error_on_resume(run, spec_file, tmp_path, rows, monkeypatch):
    folder = tmp_path / "o"
    interrupted(spec_file, folder, monkeypatch, rows)
    chunks = sorted((folder / "chunks").glob("*.arrow" if rows else "*.npy"))
    damaged = chunks[0]
    data = damaged.read_bytes()
    damaged.write_bytes(data[: len(data) // 2])  # cut short, as by a crash or a full disk
    code, out, err = run("run", spec_file, "--out", folder, "-H", "50", "--resume", *(("--rows",) if rows else ()))
    npy = next((folder / "chunks").glob("*.npy"))  # what says the chunk is whole: delete it, and it is played again
    one_error(code, err, f"{damaged} is damaged", f"delete {npy if rows else 'it'}", "--resume")
    assert damaged.read_bytes() == data[: len(data) // 2]  # left for the user to delete
    npy.unlink()
    code, _, err = run("run", spec_file, "--out", folder, "-H", "50", "--resume", *(("--rows",) if rows else ()))
    assert code == 0, err


def test_a_damaged_run_json_is_one_error(run, spec_file, tmp_path, monkeypatch):
    folder = tmp_path / "o"
    interrupted(spec_file, folder, monkeypatch)
    (folder / "run.json").write_text('{"spec": ')
    code, _, err = run("run", spec_file, "--out", folder, "-H", "50", "--resume")
    one_error(code, err, "run.json is damaged")
