"""Users' strategy files: a plain Python file with decorated decision functions, loaded as a
module (so numba can cache it) and reported precisely when anything in it is wrong.

Every built-in and installed strategy is registered before a file is loaded, so a file that
registers a name again is an error in every command (simkit.strategies.registry.add).

A file must finish importing within SIMKIT_IMPORT_TIMEOUT seconds (an environment variable,
default 60): one that runs for ever at import (a loop, a simulation, a wait for input) is an
error instead of a hang. The time numba spends compiling the file's strategies does not count
(simkit.strategies.decisions.compile_seconds), so a file of many strategies on a slow machine is not cut
short; the time limit is for the file's own code. The file is imported in a worker thread
(simkit.core.interrupt), so Ctrl-C stops a hanging import too; one abandoned at its time limit is
left running in that (daemon) thread, and the process should exit soon after, as the `simkit`
command does. Code in the file that must run in the main thread (signal.signal) cannot.
"""

import hashlib
import importlib.util
import os
import sys
from pathlib import Path

from numba.core.errors import NumbaError

from simkit.core import interrupt
from simkit.core.errors import SimkitError
from simkit.core.files import input_file
from simkit.strategies import decisions, registry

IMPORT_TIMEOUT = 60.0  # seconds, unless SIMKIT_IMPORT_TIMEOUT says otherwise
TIMEOUT_VARIABLE = "SIMKIT_IMPORT_TIMEOUT"


def import_timeout() -> float:
    """Seconds a strategy file may take to import, compiling left out: SIMKIT_IMPORT_TIMEOUT or 60."""
    text = os.environ.get(TIMEOUT_VARIABLE, "").strip()
    if not text:
        return IMPORT_TIMEOUT
    try:
        seconds = float(text)
    except ValueError:
        seconds = float("nan")
    if not seconds > 0:
        raise SimkitError(f"{TIMEOUT_VARIABLE} must be a positive number of seconds, got {text!r}")
    return seconds


def load_strategy_files(paths) -> None:
    """Each of a command's strategy files (--strategy-file, a worker's copy of the list), in order."""
    for path in paths:
        load_strategy_file(path)


def load_strategy_file(path: str) -> str:
    """Import `path`, registering the strategies it defines; returns the module name. Every
    built-in and installed strategy is registered first; the import has a time limit (above)."""
    file = Path(input_file(path, "strategy file"))
    if file.suffix != ".py":
        raise SimkitError(f"strategy file {path} must be a Python file (FILE.py), got {file.name!r}")
    resolved = file.resolve()
    name = f"simkit_user_{resolved.stem}_{hashlib.sha1(str(resolved).encode()).hexdigest()[:8]}"
    if name in sys.modules:
        return name
    limit = import_timeout()
    registry.load_all()  # a name the file takes again is then an error, whatever a command looks up first
    spec = importlib.util.spec_from_file_location(name, resolved)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    compiled = decisions.compile_seconds()
    try:
        interrupt.call_within(spec.loader.exec_module,
                              lambda waited: waited - (decisions.compile_seconds() - compiled) < limit, module)
    except BaseException as e:  # Ctrl-C during the import included
        sys.modules.pop(name, None)
        if isinstance(e, Exception):
            raise _reported(e, path, file, resolved, limit) from None
        raise
    return name


def _reported(e: Exception, path: str, file: Path, resolved: Path, limit: float) -> SimkitError:
    """Whatever went wrong importing a strategy file, as one line naming the file."""
    if isinstance(e, interrupt.OutOfTime):
        return SimkitError(f"strategy file {path} did not finish importing within {limit:g} s, compiling not "
                           f"counted (set {TIMEOUT_VARIABLE} to allow longer)")
    if isinstance(e, SimkitError):
        message = str(e)
        if not message.startswith(f"{file.name}:"):  # the decorator's errors name the file already
            message = f"strategy file {path}: {message}"
        return SimkitError(message)
    if isinstance(e, SyntaxError):
        return SimkitError(f"strategy file {path}, line {e.lineno}: syntax error: {e.msg}")
    if isinstance(e, NumbaError):
        return SimkitError(f"strategy file {path}: {_first_line(e)}")
    return SimkitError(f"strategy file {path}{_user_line(e, resolved)}: {type(e).__name__}: {_first_line(e)}"
                       f"{registry.moved(e)}")


def _first_line(e: Exception) -> str:
    lines = [x.strip() for x in str(e).splitlines() if x.strip()]
    return lines[0] if lines else type(e).__name__


def _user_line(e: Exception, file: Path) -> str:
    tb = e.__traceback__
    line = ""
    while tb is not None:
        if Path(tb.tb_frame.f_code.co_filename).resolve() == file:
            line = f", line {tb.tb_lineno}"
        tb = tb.tb_next
    return line
