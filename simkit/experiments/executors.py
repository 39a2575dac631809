"""Where tasks run: in this process (the engine uses every core), or on a Dask cluster — a local
one started for the run (`workers`) or an existing one (`scheduler`). A pool is opened once for
a run (a tuning maps one round after another on it); `map` yields (task, what it returned) as
tasks finish, so the caller can write each one at once and a run stopped at any moment keeps
every finished one. Callers fold the results with integer addition, so their order does not
change the answer."""

import logging
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from simkit.core.errors import SimkitError, check_count

Play = Callable[..., object]


class InProcess:
    """Tasks one after another in this process."""

    workers = 1

    def map(self, play: Play, tasks: Sequence, *args) -> Iterator[tuple[object, object]]:
        for task in tasks:
            yield task, play(task, *args)


class OnDask:
    """Tasks submitted to a Dask client at once, yielded as they finish. The task function lives
    in the installed package, so a standalone worker imports it like any other module."""

    def __init__(self, client) -> None:
        self.client = client

    @property
    def workers(self) -> int:
        return max(1, sum(self.client.nthreads().values()))

    def map(self, play: Play, tasks: Sequence, *args) -> Iterator[tuple[object, object]]:
        from distributed import as_completed

        futures = {self.client.submit(play, task, *args, pure=False): task for task in tasks}
        try:
            for future in as_completed(futures):
                yield futures[future], future.result()
        finally:
            self.client.cancel(list(futures))  # a caller that stops early leaves nothing running


def describe(workers: int | None, scheduler: str | None) -> str:
    """The executor in words, for a run's record."""
    if workers is None and scheduler is None:
        return "in-process"
    return f"dask {scheduler}" if scheduler else f"dask local cluster, {workers} workers"


@contextmanager
def pool(workers: int | None = None, scheduler: str | None = None) -> Iterator[InProcess | OnDask]:
    """This process (neither given), a local Dask cluster of `workers` processes, or the existing
    cluster at `scheduler`; closed (a local cluster shut down) on leaving."""
    check_where(workers, scheduler)
    if workers is None and scheduler is None:
        yield InProcess()
        return
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise SimkitError("--workers and --scheduler need dask.distributed (pip install 'dask[distributed]')") from None
    cluster = None
    if scheduler:
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError) as e:
            raise SimkitError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
    else:
        # one engine thread per worker process: the workers are the parallelism
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                               silence_logs=logging.ERROR, env={"NUMBA_NUM_THREADS": "1"})
        client = Client(cluster)
    try:
        yield OnDask(client)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def check_scheduler(address: str) -> str:
    """--scheduler: a Dask scheduler's address, protocol://host:port (tcp://host:8786; tcp:// may
    be left out; tls, ws, wss and ucx as Dask knows them)."""
    try:
        from distributed.comm.addressing import get_address_host_port
    except ImportError:
        return address  # the runner says that dask.distributed is missing
    try:
        _, port = get_address_host_port(address)
    except (ValueError, TypeError) as e:
        raise SimkitError(f"--scheduler must be a Dask scheduler address such as tcp://host:8786, got {address!r} "
                          f"({e})") from None
    if not 0 < port < 65536:
        raise SimkitError(f"--scheduler {address}: port {port} is not 1..65535")
    return address


def check_where(workers: int | None, scheduler: str | None) -> None:
    """Where a run plays, as asked: a local Dask cluster or an existing one, never both; checked
    before anything is played."""
    if workers is not None and scheduler is not None:
        raise SimkitError("give --workers (a local Dask cluster) or --scheduler (an existing one), not both")
    if workers is not None:
        check_count(workers, "--workers")
    if scheduler is not None:
        check_scheduler(scheduler)
