"""Ctrl-C during compiled code: a call into the engine (or a strategy file's import) runs in a
worker thread while the main thread waits for it in short steps, so Python's KeyboardInterrupt
reaches the main thread within a step however long the compiled code runs (a strategy that
loops for ever included).

Python only runs its signal handlers in the main thread between bytecodes; a compiled driver
that loops for ever never returns to Python, so without this Ctrl-C could not stop it. The
engine's drivers are compiled with `nogil=True`, so the worker runs them without the GIL and the
main thread stays free to notice Ctrl-C. (A driver compiled without `nogil` holds the GIL while
it runs: it is still run correctly, but the main thread cannot notice Ctrl-C until it returns.)

On Ctrl-C the main thread raises KeyboardInterrupt at once and the worker is abandoned, still
running: the worker is a daemon thread, and the process must exit soon after (the `simkit`
command does, with exit code 130). A later call gets a fresh worker, but the abandoned one may
still be using the engine's threads; a program that catches KeyboardInterrupt and carries on
playing does so at its own risk.

Exceptions raised in the worker are raised again in the caller, with their type and traceback.
Calls from any thread but the main one (Dask workers, the worker itself) run directly: only the
main thread receives KeyboardInterrupt.
"""

import queue
import signal
import threading
import time
from collections.abc import Callable

import numba as nb

STEP = 0.1  # seconds between the main thread's looks for Ctrl-C while it waits


class OutOfTime(Exception):
    """`call_within` gave up waiting."""


class _Worker:
    """A daemon thread that runs calls one at a time; kept between calls (a fresh thread per call
    would give OpenMP a fresh team of threads per call)."""

    def __init__(self) -> None:
        self.inbox: queue.SimpleQueue = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._serve, name="simkit-engine", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while True:
            call = self.inbox.get()
            call.run()


class _Call:
    def __init__(self, fn: Callable, args: tuple, kwargs: dict, threads: int | None) -> None:
        self.fn, self.args, self.kwargs, self.threads = fn, args, kwargs, threads
        self.done = threading.Event()
        self.value = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            if self.threads is not None:
                nb.set_num_threads(self.threads)  # numba's thread count is the calling thread's own
            self.value = self.fn(*self.args, **self.kwargs)
        except BaseException as e:  # raised again in the caller
            self.error = e
        finally:
            self.done.set()


_worker: _Worker | None = None
_lock = threading.Lock()


def _interruptible() -> bool:
    return (threading.current_thread() is threading.main_thread()
            and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN)


def call(fn: Callable, *args, **kwargs):
    """`fn(*args, **kwargs)`, run so that Ctrl-C (KeyboardInterrupt) stops the wait for it at once
    (see the module's description); its result, or its exception raised again here."""
    return _run(fn, args, kwargs, None, threads=True)


def call_within(fn: Callable, budget: Callable[[float], bool], *args, **kwargs):
    """`call`, also giving up when `budget(seconds waited)` turns False: raises OutOfTime and
    abandons the worker, as Ctrl-C does. Outside the main thread the call is direct, unlimited."""
    return _run(fn, args, kwargs, budget, threads=False)


def _run(fn: Callable, args: tuple, kwargs: dict, budget: Callable[[float], bool] | None, threads: bool):
    global _worker
    if not _interruptible():
        return fn(*args, **kwargs)
    task = _Call(fn, args, kwargs, nb.get_num_threads() if threads else None)
    with _lock:
        if _worker is None:
            _worker = _Worker()
        worker = _worker
    start = time.perf_counter()
    try:
        worker.inbox.put(task)
        while not task.done.wait(STEP):
            if budget is not None and not budget(time.perf_counter() - start):
                raise OutOfTime(f"gave up after {time.perf_counter() - start:.1f} s")
    except BaseException:  # KeyboardInterrupt (or the budget): the worker is left to its call
        with _lock:
            if _worker is worker:
                _worker = None
        raise
    if task.error is not None:
        error, task.error = task.error, None  # no reference cycle through the traceback
        raise error
    return task.value
