"""The run's files as chunks finish: each chunk at once as an Arrow file (for resume), and the one
results.parquet, fed in the order of the plan — all in a background thread, so that encoding
overlaps the engine's next chunk. Row groups have a fixed size whatever the chunking, so the
same run gives the same file content (rows, values, row groups) however it was split."""

import os
import queue
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.feather as feather
import pyarrow.parquet as pq

from simkit import games
from simkit.core.files import atomic_path, part_path
from simkit.experiments.chunks import IDS, constant

ROW_GROUP = 1 << 18  # rows; small enough that the last one, written after play ends, is quick
_DONE = object()


def deal_major(replays: list[pa.Table]) -> pa.Table:
    """A chunk's rows deal by deal: for each deal (a hand, round or match), its rows in every cell
    and rotation, in that order (a stable sort of the replays' rows by deal). This order does not
    depend on how the run was split into chunks."""
    whole = pa.concat_tables(replays)
    key = next(name for name in games.deal_columns() if name in whole.column_names)
    return whole.take(pc.sort_indices(whole, sort_keys=[(key, "ascending")]))


def write_chunk(table: pa.Table, path: Path) -> None:
    with atomic_path(path) as tmp:
        feather.write_feather(table, tmp, compression="uncompressed")


def read_chunk(path: Path) -> pa.Table:
    return feather.read_table(path, memory_map=False)


class ResultsWriter:
    """Takes chunk tables in any order; writes each chunk file at once and the results file in
    plan order. `close()` finishes results.parquet (renamed into place); `abort()` still writes
    every chunk already handed over, and leaves no half results file."""

    def __init__(self, path: Path, measured: Callable[[object, dict], pa.Table],
                 rows: Callable[[object, pa.Table], pa.Table], columns: dict[str, str | float]):
        self._path = path
        self._measure = measured  # (task, the engine's arrays) -> the chunk as kept
        self._rows = rows  # (task, chunk as kept) -> its rows of the results table
        self._columns = columns  # constant columns: the experiment and its rule options
        self._queue: queue.Queue = queue.Queue(maxsize=8)
        self._pending: dict[int, pa.Table] = {}
        self._buffer: list[pa.Table] = []
        self._buffered = 0
        self._next = 0
        self._measured: list[str] = []
        self._writer: pq.ParquetWriter | None = None
        self._error: BaseException | None = None
        self._keep_results = True
        self._tmp = part_path(path)
        self.cpu_s = 0.0  # CPU time of the writing (chunk files, rows, encoding): what the run adds to play
        self._thread = threading.Thread(target=self._work, name="simkit-results", daemon=True)
        self._thread.start()

    def add(self, index: int, tasks: list, chunks: list, chunk_files: list) -> None:
        """Chunk `index` of the plan: for each of its replays (a cell and rotation: `tasks`), the
        engine's arrays, to be kept in its chunk file; or a replay read back from its file (its
        chunk file None). The work on them happens in this writer's thread."""
        self._queue.put((index, tasks, chunks, chunk_files))  # kept even if an earlier chunk failed
        self._raise()

    def flush(self) -> None:
        """Wait until everything handed over is written (its chunk files on disk)."""
        self._queue.join()
        self._raise()

    def close(self) -> None:
        self._queue.put(_DONE)
        self._thread.join()
        self._raise()
        start = time.thread_time()
        if self._buffer:
            self._write_group(pa.concat_tables(self._buffer))
        writer, self._writer = self._writer, None
        writer.close()
        os.replace(self._tmp, self._path)
        self.cpu_s += time.thread_time() - start

    def abort(self) -> None:
        self._keep_results = False
        if self._thread.is_alive():
            self._queue.put(_DONE)
            self._thread.join()
        if self._writer is not None:
            writer, self._writer = self._writer, None
            try:
                writer.close()
            except Exception:  # the half file is removed next; its error is not the one to report
                pass
        self._tmp.unlink(missing_ok=True)

    def _raise(self) -> None:
        if self._error is not None:
            raise self._error

    def _work(self) -> None:
        start = time.thread_time()
        try:
            self._take()
        finally:
            self.cpu_s += time.thread_time() - start

    def _take(self) -> None:
        while True:
            item = self._queue.get()
            if item is _DONE:
                self._queue.task_done()
                return
            index, tasks, chunks, chunk_files = item
            try:
                kept = []
                for task, chunk, chunk_file in zip(tasks, chunks, chunk_files):
                    if chunk_file is not None:  # kept on disk whatever happens to the results file
                        chunk = self._measure(task, chunk)
                        write_chunk(chunk, chunk_file)
                    kept.append(chunk)
                if self._keep_results and self._error is None:
                    self._measured = kept[0].column_names
                    self._pending[index] = deal_major([self._rows(t, c) for t, c in zip(tasks, kept)])
                    while self._next in self._pending:
                        self._append(self._pending.pop(self._next))
                        self._next += 1
            except BaseException as e:  # handed to the main thread by add() / close()
                self._error = self._error or e
            finally:
                self._queue.task_done()

    def _append(self, table: pa.Table) -> None:
        for name, value in self._columns.items():
            column = constant(value, len(table))
            table = table.add_column(0, name, column) if name == "experiment" else table.append_column(name, column)
        self._buffer.append(table)
        self._buffered += len(table)
        while self._buffered >= ROW_GROUP:
            whole = pa.concat_tables(self._buffer)
            self._write_group(whole.slice(0, ROW_GROUP))
            rest = whole.slice(ROW_GROUP)
            self._buffer, self._buffered = [rest], len(rest)

    def _write_group(self, table: pa.Table) -> None:
        if self._writer is None:
            schema = pa.schema([f.with_nullable(False) for f in table.schema])
            dictionaries = [f.name for f in schema if pa.types.is_dictionary(f.type)]
            counters = {name: "DELTA_BINARY_PACKED" for name in IDS if name in schema.names}  # deal numbers
            # the config columns repeat and shrink 200-fold with lz4; the measured ones barely
            # shrink, and compressing them would cost more time than all the others together
            compression = {name: "none" if name in self._measured else "lz4" for name in schema.names}
            self._writer = pq.ParquetWriter(self._tmp, schema, compression=compression, use_dictionary=dictionaries,
                                            column_encoding=counters, write_statistics=False,
                                            write_batch_size=1 << 16, data_page_size=8 << 20)
            self._schema = schema
        if len(table):
            self._writer.write_table(table.cast(self._schema), row_group_size=ROW_GROUP)
