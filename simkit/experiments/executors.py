"""Where chunks run: in this process (the engine uses every core), or on a Dask cluster — a local
one started for the run (`workers`) or an existing one (`scheduler`). Every executor yields
(task, the engine's arrays) as chunks finish; the runner writes each one to disk at once, so a run stopped at
any moment keeps every finished chunk."""

import logging
from collections.abc import Callable, Iterator, Sequence

from simkit.errors import SimkitError

Play = Callable[..., dict]


def in_process(play: Play, tasks: Sequence, *args) -> Iterator[tuple[object, dict]]:
    for task in tasks:
        yield task, play(task, *args)


def on_dask(play: Play, tasks: Sequence, *args, workers: int | None = None,
            scheduler: str | None = None) -> Iterator[tuple[object, dict]]:
    """Submit every chunk to Dask; yield them as they finish. The chunk function lives in the
    installed package, so a standalone worker imports it like any other module."""
    try:
        from distributed import Client, LocalCluster, as_completed
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
        futures = {client.submit(play, task, *args, pure=False): task for task in tasks}
        for future in as_completed(futures):
            yield futures[future], future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
