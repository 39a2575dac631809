"""Users' strategy files: a plain Python file with decorated decision functions, loaded as a
module (so numba can cache it) and reported precisely when anything in it is wrong."""

import hashlib
import importlib.util
import sys
from pathlib import Path

from numba.core.errors import NumbaError

from simkit.errors import SimkitError


def load_strategy_file(path: str) -> str:
    """Import `path`, registering the strategies it defines; returns the module name."""
    file = Path(path)
    if not file.is_file():
        raise SimkitError(f"strategy file {path} does not exist")
    resolved = file.resolve()
    name = f"simkit_user_{resolved.stem}_{hashlib.sha1(str(resolved).encode()).hexdigest()[:8]}"
    if name in sys.modules:
        return name
    spec = importlib.util.spec_from_file_location(name, resolved)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except SimkitError as e:
        del sys.modules[name]
        message = str(e)
        if not message.startswith(f"{file.name}:"):  # the decorator's errors name the file already
            message = f"strategy file {path}: {message}"
        raise SimkitError(message) from None
    except SyntaxError as e:
        del sys.modules[name]
        raise SimkitError(f"strategy file {path}, line {e.lineno}: syntax error: {e.msg}") from None
    except NumbaError as e:
        del sys.modules[name]
        raise SimkitError(f"strategy file {path}: {_first_line(e)}") from None
    except Exception as e:
        del sys.modules[name]
        line = _user_line(e, resolved)
        raise SimkitError(f"strategy file {path}{line}: {type(e).__name__}: {_first_line(e)}") from None
    return name


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
