"""Hardening of users' strategies: a name taken twice is one error in every command, parameter
slots are checked when a strategy is registered, an exception inside a strategy during play is
one error line naming the lineup, Ctrl-C stops a run whatever a strategy does, and a strategy
file must finish importing in time."""

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from simkit.core import interrupt
from simkit.core.errors import SimkitError
from simkit.strategies import plugins, registry
from simkit.strategies.registry import Param

pytestmark = pytest.mark.long  # left out of the development subset (pyproject.toml)

ROOT = Path(__file__).resolve().parent.parent
SIMKIT = [sys.executable, "-c", "from simkit.cli import main; main()"]

HEADER = """
from simkit.strategies.registry import Param
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.action import PASS, LEAD_ASS, make_set
from simkit.games.whos_the_ass.strategy import strategy
"""

EZELEN_HEADER = """
from simkit.games.ezelen import view as V
from simkit.games.ezelen.strategy import strategy
"""

# loops for ever on a value of the view that never changes; the counter keeps numba from proving it
ENDLESS = HEADER + """
@strategy("endless", "never decides")
def endless(hand, view, params, rng):
    n = 0
    while view[V.PHASE] >= 0:
        n += 1
        if n < 0:
            break
    return n
"""


@pytest.fixture(autouse=True)
def _ctrl_c_reaches_python():
    """Each test here starts with Python's own Ctrl-C handler, whatever an earlier test in this
    worker left: an ignored SIGINT is inherited by the commands these tests start, which then
    would not stop (seen once from a fresh clone, with the failing tests' order)."""
    before = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before if before is not None else signal.default_int_handler)


@pytest.fixture(autouse=True)
def _registry_kept(monkeypatch):
    """What a test registers in this process is forgotten after it (other tests list every strategy)."""
    registry.load_all()
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    before = set(sys.modules)
    yield
    for name in set(sys.modules) - before:
        if name.startswith("simkit_user_"):
            del sys.modules[name]


def write(tmp_path, name, body):
    path = tmp_path / name
    path.write_text(textwrap.dedent(body))
    return path


# 1. a name registered twice -------------------------------------------------------------------

SECOND_LOWEST = HEADER + """
@strategy("lowest", "a second lowest")
def lowest(hand, view, params, rng):
    return PASS
"""
TWICE = "my.py: lowest: a Who's the Ass? strategy named 'lowest' is registered twice (the first is built in)"


@pytest.mark.parametrize("command", [
    ["simulate", "-n", "4", "-H", "10", "--strategies", "lowest"],
    ["simulate", "-n", "4", "-H", "10", "--strategies", "random"],
    ["trace", "-n", "4", "-H", "1", "--strategies", "lowest", "-o", "{tmp}/t.jsonl"],
    ["strength", "-n", "4", "-H", "100", "--strategies", "random"],
    ["strategies"],
    ["run", "{tmp}/spec.toml", "--out", "{tmp}/out"],
])
def test_a_built_in_name_taken_again_is_the_same_error_in_every_command(run, tmp_path, command):
    path = write(tmp_path, "my.py", SECOND_LOWEST)
    (tmp_path / "spec.toml").write_text('name = "x"\nplayers = 4\nhands = 100\nlineup = ["random", "lowest"]\n')
    args = [a.format(tmp=tmp_path) for a in command] + ["--strategy-file", path]
    code, out, err = run(*args)
    assert (code, out) == (2, "")
    assert err == f"simkit: error: {TWICE}\n"
    assert not (tmp_path / "t.jsonl").exists() and not (tmp_path / "out").exists()


def test_two_files_taking_one_name_name_the_first(run, tmp_path):
    body = HEADER + """
@strategy("mine", "x")
def mine(hand, view, params, rng):
    return PASS
"""
    first, second = write(tmp_path, "a.py", body), write(tmp_path, "b.py", body)
    code, _, err = run("strategies", "--strategy-file", first, "--strategy-file", second)
    assert code == 2
    assert err == ("simkit: error: b.py: mine: a Who's the Ass? strategy named 'mine' is registered twice "
                   "(the first is from a.py: mine)\n")


def test_an_ezelen_name_taken_again(run, tmp_path):
    path = write(tmp_path, "mine.py", EZELEN_HEADER + """
@strategy("greedy", "x")
def mine(hand, view, params, memory, rng):
    return 0
""")
    code, _, err = run("strategies", "--game", "ezelen", "--strategy-file", path)
    assert code == 2
    assert err == ("simkit: error: mine.py: mine: an Ezelen strategy named 'greedy' is registered twice "
                   "(the first is built in)\n")


def test_a_name_of_the_other_game_is_free(run, tmp_path):
    path = write(tmp_path, "mine.py", EZELEN_HEADER + """
@strategy("lowest", "passes the value held least often; no relation to Who's the Ass?'s lowest")
def lowest(hand, view, params, memory, rng):
    best = -1
    for v in range(view[V.PLAYERS]):
        if hand[v] > 0 and (best < 0 or hand[v] < hand[best]):
            best = v
    return best
""")
    code, out, err = run("simulate", "--game", "ezelen", "-n", "4", "-H", "100", "--strategies", "lowest",
                         "--strategy-file", path)
    assert code == 0, err


# 2. parameter slots ---------------------------------------------------------------------------

@pytest.mark.parametrize("params, message", [
    ('(Param("a", 1, 0, 2, slot=3),)', None),
    ('(Param("a", 1, 0, 2, slot=15),)', "my.py: f: parameter 'a': slot 15 is outside 0..14 (params[0]..params[14])"),
    ('(Param("a", 1, 0, 2, slot=-1),)', "my.py: f: parameter 'a': slot -1 is outside 0..14"),
    ('(Param("a", 1, 0, 2, slot=1), Param("b", 1, 0, 2))', "my.py: f: parameters 'a' and 'b' share slot 1"),
    ('(Param("a", 1, 0, 2, slot=2), Param("b", 1, 0, 2, slot=2))', "my.py: f: parameters 'a' and 'b' share slot 2"),
    ('(Param("a", 1, 0, 2, slot=1.5),)', "my.py: f: parameter 'a': slot must be a whole number, got 1.5"),
    ('(Param("a", 1, 0, 2, slot=True),)', "my.py: f: parameter 'a': slot must be a whole number, got True"),
    ('tuple(Param(f"p{i}", 0, 0, 1) for i in range(16))', "my.py: f: a strategy has at most 15 parameters"),
    ('(("a", 1, 0, 2),)', "my.py: f: params must be Param(...) entries"),
])
def test_parameter_slots_are_checked_at_registration(run, tmp_path, params, message):
    path = write(tmp_path, "my.py", HEADER + f"""
@strategy("slotted", "reads params[3]", params={params})
def f(hand, view, params, rng):
    return LEAD_ASS if view[V.MAY_LEAD_ASS] == 1 and params[3] >= 0 else PASS
""")
    code, out, err = run("simulate", "-n", "4", "-H", "10", "--strategy-file", path, "--strategies", "lowest")
    if message is None:  # a slot beyond the parameters' count is allowed: params[3] holds it
        assert code == 0, err
        return
    assert (code, out) == (2, "")
    assert err.startswith(f"simkit: error: {message}") and err.count("\n") == 1, err


def test_a_slot_beyond_the_count_of_parameters_reaches_the_engine(tmp_path):
    path = write(tmp_path, "slot3.py", HEADER + """
@strategy("slot3", "the one parameter at params[3]", params=(Param("a", 1, 0, 9, slot=3),))
def slot3(hand, view, params, rng):
    return PASS
""")
    plugins.load_strategy_file(str(path))
    _, vector, label = registry.resolve("whos-the-ass", "slot3(a=7)")
    assert (vector, label) == ((0.0, 0.0, 0.0, 7.0), "slot3(a=7)")


def test_a_preset_s_slot_must_lie_in_its_vector():
    info = registry.StrategyInfo("whos-the-ass", "preset_x", "", object(), (Param("a", 0, 0, 1, slot=4),),
                                 base=(0.0,) * 4)
    with pytest.raises(SimkitError, match=r"strategy 'preset_x': parameter 'a': slot 4 is outside 0..3"):
        registry.add(info)


# 3. an exception inside a strategy during play ---------------------------------------------------

DIVIDER = HEADER + """
@strategy("divider", "divides by zero once it has to decide")
def divider(hand, view, params, rng):
    z = 0
    for i in range(hand.shape[0]):
        z += hand[i] * 0
    return 7 // z
"""
@pytest.fixture(scope="module")
def divider_file(tmp_path_factory):
    """One file for the module: a strategy name is registered once per process."""
    return write(tmp_path_factory.mktemp("divider"), "div.py", DIVIDER)


RAISED = ("simkit: error: a strategy raised ZeroDivisionError (integer division by zero) during play "
          "(lineup: {lineup}); check div.py: divider\n")


@pytest.mark.parametrize("command, lineup", [
    (["simulate", "-n", "4", "-H", "50", "--strategies", "lowest,divider,lowest,lowest"],
     "lowest, divider, lowest, lowest"),
    (["trace", "-n", "3", "-H", "2", "--strategies", "divider", "-o", "{tmp}/t.jsonl"], "divider, divider, divider"),
])
def test_an_exception_in_a_strategy_is_one_line_naming_the_lineup(run, tmp_path, divider_file, command, lineup):
    code, out, err = run(*[a.format(tmp=tmp_path) for a in command], "--strategy-file", divider_file)
    assert (code, out) == (2, "")
    assert err == RAISED.format(lineup=lineup)
    assert not (tmp_path / "t.jsonl").exists()


def test_an_exception_in_an_ezelen_strategy_too(run, tmp_path):
    path = write(tmp_path, "div.py", EZELEN_HEADER + """
@strategy("divider", "divides by zero")
def divider(hand, view, params, memory, rng):
    return 7 // (view[V.PLAYERS] - view[V.PLAYERS])
""")
    for command in (["simulate", "--game", "ezelen", "-n", "4", "-H", "50"],
                    ["simulate", "--game", "ezelen", "-n", "4", "-H", "3", "--matches"],
                    ["trace", "--game", "ezelen", "-n", "4", "-H", "2", "-o", tmp_path / "t.jsonl"]):
        code, _, err = run(*command, "--strategies", "divider,greedy,greedy,greedy", "--strategy-file", path)
        assert code == 2
        assert err == RAISED.format(lineup="divider, greedy, greedy, greedy")


def test_with_built_in_strategies_only_an_exception_is_raised_as_it_is(monkeypatch):
    from simkit.games.whos_the_ass.strategy import seats_for
    from simkit.strategies import decisions

    def fails(*args):
        raise ZeroDivisionError("integer division by zero")

    with pytest.raises(ZeroDivisionError):
        decisions.engine(seats_for(["lowest"], 4), fails)


# 4. Ctrl-C ----------------------------------------------------------------------------------------

def test_a_call_returns_its_value_and_raises_its_exception_with_its_type(monkeypatch):
    # Ctrl-C as a terminal's foreground process has it (a background job ignores it: calls run directly)
    monkeypatch.setattr(signal, "getsignal", lambda sig: signal.default_int_handler)
    assert interrupt.call(lambda a, b=0: a + b, 2, b=3) == 5

    class Odd(Exception):
        pass

    def fails():
        raise Odd("x")

    with pytest.raises(Odd, match="x"):
        interrupt.call(fails)
    assert interrupt.call(threading.current_thread) is not threading.main_thread()  # run in the worker
    got = []
    other = threading.Thread(target=lambda: got.append(interrupt.call(threading.current_thread)))
    other.start()
    other.join()
    assert got == [other]  # outside the main thread: run directly


def test_the_worker_keeps_the_callers_engine_thread_count():
    import numba as nb

    before = nb.get_num_threads()
    try:
        nb.set_num_threads(1)
        assert interrupt.call(nb.get_num_threads) == 1
    finally:
        nb.set_num_threads(before)
    assert interrupt.call(nb.get_num_threads) == before


def test_ctrl_c_reaches_the_main_thread_while_the_worker_is_busy():
    release = threading.Event()
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            interrupt.call(release.wait, 30)  # stands for a compiled driver that does not return
        assert time.perf_counter() - start < 1.5
    finally:
        release.set()
    assert interrupt.call(lambda: 7) == 7  # a fresh worker serves the next call


def test_the_worker_returns_what_the_engine_returns_directly(lowest4, monkeypatch):
    """The interruptible worker only moves the call to another thread (its cost is part of the
    runner's overhead that `simkit bench --runner-only` measures, not a unit test's business)."""
    from simkit.games.whos_the_ass import batch

    through_worker = batch.play(lowest4, 200, 5)
    monkeypatch.setattr(interrupt, "_interruptible", lambda: False)  # called directly
    direct = batch.play(lowest4, 200, 5)
    for field in ("penalties", "tricks", "ass_end"):
        assert getattr(through_worker, field).tobytes() == getattr(direct, field).tobytes(), field


def _interrupt(command: list, tmp_path: Path, ready: float = 0) -> tuple[int, str, str, float]:
    """Start `command`, wait until its engine (or import) runs, send SIGINT: (exit code, stdout,
    stderr, seconds from the signal to the exit)."""
    marker = tmp_path / "started"
    env = {**os.environ, "SIMKIT_TEST_MARKER": str(marker)}
    proc = subprocess.Popen(SIMKIT + command, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 240  # compiling the engine when its cache is cold
    while not marker.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, proc.communicate()
    time.sleep(ready)
    signalled = time.perf_counter()
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        pytest.fail(f"still running 10 s after Ctrl-C: {err[-500:]}")
    return proc.returncode, out, err, time.perf_counter() - signalled


# the strategy marks the file system once it is first called from the engine (through an
# objmode-free route: the file is written when the module is imported, and the test waits a
# little more for the engine to start)
MARK = """
import os
open(os.environ["SIMKIT_TEST_MARKER"], "w").close()
"""


def test_ctrl_c_stops_a_strategy_that_loops_for_ever(tmp_path):
    write(tmp_path, "endless.py", ENDLESS + MARK)
    code, out, err, seconds = _interrupt(["simulate", "--strategy-file", "endless.py", "--strategies",
                                          "endless,lowest,lowest,lowest", "-H", "100", "-n", "4"], tmp_path, 3)
    assert code == 130, err
    assert out == "" and err.strip() == "simkit: aborted"
    assert seconds < 3


def _holds_the_gil(driver) -> bool:
    return not driver.targetoptions.get("nogil", False)


def _trace_drivers():
    from simkit.games.ezelen.driver import play_logged
    from simkit.games.whos_the_ass.driver import trace_hands

    return trace_hands, play_logged


@pytest.mark.skipif(any(map(_holds_the_gil, _trace_drivers())),
                    reason="the trace drivers are compiled without nogil: Ctrl-C waits for them")
@pytest.mark.parametrize("game, lineup, body", [
    ("whos-the-ass", "endless,lowest,lowest,lowest", ENDLESS),
    ("ezelen", "endless,greedy,greedy,greedy", EZELEN_HEADER + """
@strategy("endless", "never decides")
def endless(hand, view, params, memory, rng):
    n = 0
    while view[V.PLAYERS] > 0:
        n += 1
        if n < 0:
            break
    return n
"""),
])
def test_ctrl_c_stops_a_trace_too(tmp_path, game, lineup, body):
    write(tmp_path, "endless.py", body + MARK)
    code, _, err, seconds = _interrupt(["trace", "--game", game, "--strategy-file", "endless.py", "--strategies",
                                        lineup, "-H", "1", "-n", "4", "-o", "t.jsonl"], tmp_path, 3)
    assert code == 130 and err.strip() == "simkit: aborted" and seconds < 3, err


def test_ctrl_c_in_a_run_keeps_what_is_done_and_says_how_to_resume(tmp_path):
    write(tmp_path, "endless.py", ENDLESS + MARK)
    (tmp_path / "spec.toml").write_text('name = "x"\nplayers = 4\nhands = 100\n'
                                        'lineup = ["endless", "lowest", "lowest", "lowest"]\n')
    code, _, err, seconds = _interrupt(["run", "spec.toml", "--out", "out", "--strategy-file", "endless.py"],
                                       tmp_path, 3)
    assert code == 130, err
    assert err.startswith("simkit: interrupted; 0 of 1 chunks are kept in out/chunks; finish the run with: "
                          "simkit run spec.toml --out out --strategy-file endless.py --resume"), err  # all it needs
    assert err.count("\n") == 1 and seconds < 3


def test_ctrl_c_stops_a_file_that_loops_at_import(tmp_path):
    write(tmp_path, "hangs.py", MARK + "while True:\n    pass\n")
    code, _, err, seconds = _interrupt(["strategies", "--strategy-file", "hangs.py"], tmp_path, 0.5)
    assert code == 130 and err.strip() == "simkit: aborted" and seconds < 3, err


# 5. a strategy file's import time limit ------------------------------------------------------------

def test_a_file_that_does_not_finish_importing_is_an_error(tmp_path, monkeypatch):
    done = tmp_path / "done"
    path = write(tmp_path, "slow.py", f"""
import pathlib, time
start = time.monotonic()
while not pathlib.Path({str(done)!r}).exists() and time.monotonic() < start + 10:
    time.sleep(0.01)
""")
    monkeypatch.setenv("SIMKIT_IMPORT_TIMEOUT", "0.5")
    start = time.perf_counter()
    try:
        with pytest.raises(SimkitError) as e:
            plugins.load_strategy_file(str(path))
    finally:
        done.touch()  # lets the abandoned import end
    assert time.perf_counter() - start < 2
    assert str(e.value) == (f"strategy file {path} did not finish importing within 0.5 s, compiling not "
                            "counted (set SIMKIT_IMPORT_TIMEOUT to allow longer)")
    assert not any(name.startswith("simkit_user_slow_") for name in sys.modules)


def test_compiling_does_not_count_against_the_time_limit(tmp_path, monkeypatch):
    from simkit.strategies import decisions

    path = write(tmp_path, "compiled.py", HEADER + """
@strategy("compiled_slowly", "x")
def compiled_slowly(hand, view, params, rng):
    return PASS
""")
    real = decisions.compile_decision

    def slow(fn, signature):
        start = time.perf_counter()
        decisions._compiling.append(start)
        try:
            time.sleep(1.0)  # stands for a long compile
        finally:
            decisions._compiling.remove(start)
            decisions._compiled[0] += time.perf_counter() - start
        return real(fn, signature)

    monkeypatch.setattr(decisions, "compile_decision", slow)
    monkeypatch.setenv("SIMKIT_IMPORT_TIMEOUT", "0.5")
    plugins.load_strategy_file(str(path))
    assert registry.get("whos-the-ass", "compiled_slowly").name == "compiled_slowly"


@pytest.mark.parametrize("value", ["0", "-1", "soon", "nan"])
def test_a_bad_time_limit_is_named(tmp_path, monkeypatch, value):
    monkeypatch.setenv("SIMKIT_IMPORT_TIMEOUT", value)
    with pytest.raises(SimkitError, match=f"SIMKIT_IMPORT_TIMEOUT must be a positive number of seconds, got "
                                          f"'{value}'"):
        plugins.load_strategy_file(str(write(tmp_path, "x.py", "")))


def test_the_time_limit_ends_the_command_promptly(tmp_path):
    write(tmp_path, "hangs.py", "while True:\n    pass\n")
    env = {**os.environ, "SIMKIT_IMPORT_TIMEOUT": "1"}
    start = time.perf_counter()
    proc = subprocess.run(SIMKIT + ["strategies", "--strategy-file", "hangs.py"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=30)
    assert proc.returncode == 2
    assert proc.stderr == ("simkit: error: strategy file hangs.py did not finish importing within 1 s, compiling "
                           "not counted (set SIMKIT_IMPORT_TIMEOUT to allow longer)\n")
    assert time.perf_counter() - start < 30
