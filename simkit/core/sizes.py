"""How much a request would hold, checked before anything is played: memory for results kept
per deal, disk for a trace, chunks for a run. Every command and analysis that takes a count checks
it here, so that a size too large is one error line naming the option, never a crash later."""

import math
import os
import shutil
from pathlib import Path

from simkit.core.errors import SimkitError

# Peak memory of `simulate` and `strength` per deal (hand, round or match), measured with /usr/bin/time at
# 2..13 players and 0.5..6 million deals: 31..111 bytes (the engine's result arrays, a seat's copy as float64
# for its mean, strength's paired columns). The estimate is above every measurement.
BYTES_PER_DEAL = 64
BYTES_PER_SEAT = 8
# The smallest trace record measured (an Ezelen round at 2 players: ~600 bytes; a Who's the Ass? hand: 2.7..6 KB):
# a trace of N records needs at least N times this on disk.
TRACE_BYTES_PER_RECORD = 500
# The most chunks a `simkit run` may be split into: the runner holds its plan (a few hundred bytes a chunk) and
# keeps a statistics file per chunk until the run ends. At 25,000..100,000 deals a chunk (2,500 matches) that is
# 2.5e10..1e11 deals, more than a machine plays in days.
MAX_RUN_CHUNKS = 1_000_000
# A row of `run --rows` read back (results.parquet into pandas): its config and measured columns.
BYTES_PER_ROW = 48
# The most hands one command may play in all (a field's profiles, a tuning's race or confirmation): the engine
# plays a few million hands a second on a core, so 10^12 is days of a 100-core cluster. Past it a request is a slip
# of the keyboard, not a plan: it is refused where it enters rather than played until interrupted.
MOST_PLAYED = 10**12


def memory() -> tuple[int, int]:
    """(bytes of memory available now, bytes of memory in all) of this machine."""
    try:
        import psutil

        vm = psutil.virtual_memory()
        return int(vm.available), int(vm.total)
    except Exception:  # noqa: BLE001 - psutil missing or unable to read: the system's own counts
        page = os.sysconf("SC_PAGE_SIZE")
        total = os.sysconf("SC_PHYS_PAGES") * page
        try:
            return os.sysconf("SC_AVPHYS_PAGES") * page, total
        except (ValueError, OSError):
            return total, total


def _size(n: float) -> str:
    if n >= 1e15:
        return f"{n:.2g} bytes"
    for unit, scale in (("TB", 1e12), ("GB", 1e9), ("MB", 1e6)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n / 1e3:.1f} kB"


def _amount(count: int) -> str:
    """A count for a message: written out while short, else as a power of ten."""
    return f"{count:,}" if count < 10**15 else f"{count:.3g}"


def check_played(count: int, what: str, played: int | None = None) -> int:
    """`count` (a key or option's value, named by `what`) whose command would play `played` hands
    in all (default: `count` itself) must stay within MOST_PLAYED; else one error with both."""
    played = count if played is None else played
    if played > MOST_PLAYED:
        would = "" if played == count else f" would play {_amount(played)} hands in all;"
        raise SimkitError(f"{what} {_amount(count)}{would} at most {_amount(MOST_PLAYED)} hands are played by one "
                          "command: give fewer")
    return count


def check_memory(count: int, option: str, unit: str, per_item: int) -> int:
    """`count` items (deals, rows) of `per_item` bytes each must fit in the memory available now;
    else one error with the numbers. Every command that holds a result per deal checks here."""
    need = count * per_item
    available, total = memory()
    if need > available:
        raise SimkitError(f"{option} {_amount(count)} {unit} would need {need:.2g} bytes of memory (about "
                          f"{per_item} bytes each); this machine has {_size(available)} available of "
                          f"{_size(total)}: play fewer")
    return count


def check_deals_in_memory(count: int, players: int, option: str, unit: str) -> int:
    """`simulate` and `strength`: their per-deal results held in memory (BYTES_PER_DEAL)."""
    return check_memory(count, option, unit, BYTES_PER_DEAL + BYTES_PER_SEAT * players)


def check_trace_disk(count: int, output: str, unit: str, option: str = "--hands") -> int:
    """A trace of `count` records must fit on the disk of `output`'s folder (at least
    TRACE_BYTES_PER_RECORD each); else one error with the numbers."""
    return check_disk(count, output, unit, option, TRACE_BYTES_PER_RECORD)


def check_disk(count: int, output: str, unit: str, option: str, per_item: int) -> int:
    """`count` items of at least `per_item` bytes each, written to `output` (a file, or a folder
    that is there or will be made), must fit on its disk; else one error with the numbers."""
    folder = next((p for p in [os.path.abspath(output), *Path(os.path.abspath(output)).parents]
                   if os.path.isdir(p)), "/")
    try:
        usage = shutil.disk_usage(folder)
    except OSError:
        return count  # a missing folder is the writer's error, said there
    if not usage.total:
        return count  # not a disk (/proc): whether it can be written is the writer's to say
    free = usage.free
    need = count * per_item
    if need > free:
        raise SimkitError(f"{option} {_amount(count)} {unit} would write at least {_size(need)} "
                          f"({per_item} bytes or more each) to {output}; {folder} has {_size(free)} free")
    return count


def check_run_size(count: int, chunk: int, option: str, unit: str) -> int:
    """A run of `count` deals in chunks of `chunk`: at most MAX_RUN_CHUNKS chunks."""
    chunks = math.ceil(count / chunk)
    if chunks > MAX_RUN_CHUNKS:
        raise SimkitError(f"{option} {_amount(count)} {unit} would make {_amount(chunks)} chunks of {chunk:,}; "
                          f"a run holds at most {MAX_RUN_CHUNKS:,} chunks ({MAX_RUN_CHUNKS * chunk:,} {unit}): "
                          "split it into several runs")
    return count
