"""A table where every seat plays the same strategy function: the engine's `play_on` with that
function written into the loop by numba, as a hand-written engine would inline it. Through the
lineup's pointer, every decision is opaque to the compiler: the engine's state goes to memory
before the call and comes back after it. Same moves, same results (tests/test_alone.py); what it
buys: docs/performance.md.

Every strategy gets it the same way, a user's too: on the first long run (ALONE_FROM hands or
more) at a table it fills alone, a small module is written to numba's cache folder and compiled
(a few seconds), named by a hash of simkit's sources and the strategy's file, so an edited file
gets a new one; later runs load it from the cache. (A module, not a closure: numba cannot find a
closure over compiled functions in its cache again.) A strategy numba cannot compile into the
loop (one that allocates: the loop runs without numba's reference counting) is played through
the lineup, as at any other table.
"""

import hashlib
import importlib.util
import inspect
import os
import re
import sys
import tempfile
from pathlib import Path

import numba as nb
from numba.core.errors import NumbaError

from simkit.core.cache import source_hash
from simkit.strategies.decisions import SEES_ALL

ALONE_FROM = 1_000_000  # hands (deals x seatings) from which a run compiles its strategy into the loop

# play_alone(params, hands, view, rngs, log, err) -> tricks, or -1 with err set (engine.play_on)
SIGNATURE = nb.int64(nb.float64[:, ::1], nb.int64[:, ::1], nb.int64[::1], nb.uint64[:, ::1],
                     nb.int64[:, ::1], nb.int64[::1])
PLAY_ALONE = nb.types.FunctionType(SIGNATURE)

_MODULE = '''"""simkit: the play loop with {name} written into it (simkit.games.whos_the_ass.alone); generated."""

import numba as nb

from simkit.games.whos_the_ass.alone import SIGNATURE
from simkit.games.whos_the_ass.engine import play_on_alone

_strategy = nb.njit(inline="always")(STRATEGY)  # STRATEGY: set by the importer


@nb.njit(inline="always")
def _decides(table, seat, hand, view, params, rng):
    return _strategy(hand, view, params, rng)


@nb.njit(SIGNATURE, cache=True, _nrt=False)
def play_alone(params, hands, view, rngs, log, err):
    return play_on_alone(_decides, params, hands, view, rngs, log, err)
'''


@nb.njit(SIGNATURE, cache=True)
def nobody(params, hands, view, rngs, log, err):
    """What the drivers are handed where the seats differ: never called."""
    return -1


def _module_file(fn) -> Path:
    """The generated module's file for the Python function `fn`, written if missing."""
    digest = hashlib.sha256(source_hash().encode())
    digest.update(f"{fn.__module__}.{fn.__qualname__}".encode())
    digest.update(Path(inspect.getsourcefile(fn)).read_bytes())
    name = re.sub(r"\W", "_", fn.__name__)
    folder = Path(nb.config.CACHE_DIR) / "alone"
    path = folder / f"{name}_{digest.hexdigest()[:16]}.py"
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=folder, suffix=".tmp")
        with os.fdopen(fd, "w") as f:
            f.write(_MODULE.format(name=fn.__qualname__))
        os.replace(temporary, path)  # whole or not at all, whoever writes it first
    return path


_compiled: dict = {}


def play_alone(decide):
    """The compiled loop for the registered strategy function `decide`, or None where it cannot
    be compiled into the loop."""
    if decide not in _compiled:
        # one that needed numba's runtime to compile alone (simkit.strategies.decisions.compile_decision)
        # cannot go into a loop without it: not tried
        runtime = decide.targetoptions.get("_nrt", True)
        _compiled[decide] = None if runtime else _compile(decide.py_func)
    return _compiled[decide]


def _compile(fn):
    try:
        path = _module_file(fn)
    except (OSError, TypeError):  # no source file to hash (a function typed into a notebook)
        return None
    name = f"simkit_alone_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    module.STRATEGY = fn
    sys.modules[name] = module  # where numba's cache looks the module up again
    try:
        spec.loader.exec_module(module)  # compiles play_alone, or loads it from numba's cache
    except NumbaError:
        del sys.modules[name]
        return None
    return module.play_alone


def alone(seatings: list, hands: int, force: bool | None = None) -> tuple[object, int]:
    """(the compiled loop, 1) for seatings whose seats all play one function, none of which sees
    all, when the run is long (`hands` >= ALONE_FROM) or `force`; else (`nobody`, 0): what the
    drivers take. `force=False` never compiles it."""
    fns = {id(seat.decide): seat.decide for seats in seatings for seat in seats}
    sees = any(len(seat.params) > SEES_ALL and seat.params[SEES_ALL] for seats in seatings for seat in seats)
    wanted = hands >= ALONE_FROM if force is None else force
    if wanted and len(fns) == 1 and not sees:
        fn = play_alone(next(iter(fns.values())))
        if fn is not None:
            return fn, 1
    return nobody, 0
