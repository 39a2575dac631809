"""The command line's inputs, read from their text and checked, for every game alike: rule
options (--rule name=value and a game's shorthands such as --ass-joker), model values
(--model name=value), strategy files, player lists, and the table `simulate` and `trace` play."""

import math
import os
import shutil
from dataclasses import dataclass

from simkit import games
from simkit.errors import SimkitError, check_count
from simkit.files import input_file
from simkit.games import Game


def name_value(option: str, text: str) -> tuple[str, str]:
    name, eq, value = text.partition("=")
    if not eq or not name.strip():
        raise SimkitError(f"{option} needs name=value, got {text!r}")
    return name.strip(), value.strip()


def number(text: str) -> int | float | str:
    """A number if the text is one, else the text itself (the game's checks judge it)."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def shorthands() -> dict[str, tuple[str, ...]]:
    """Every registered game's rule shorthands (--ass-joker): flag -> the games that have it."""
    found: dict[str, tuple[str, ...]] = {}
    for name in games.names():
        for option in games.get(name).rule_flags:
            found[option.flag] = found.get(option.flag, ()) + (name,)
    return found


def rules(game: Game, pairs: tuple[str, ...] = (), flags: dict | None = None) -> dict:
    """Rule options from --rule name=value (any number) and the game's shorthands (`flags`: the
    shorthands' values by rule name, None where not given), checked by the game."""
    chosen = {}
    for text in pairs:
        name, value = name_value("--rule", text)
        chosen[name] = number(value)
    for rule, value in (flags or {}).items():
        if value is None:
            continue
        option = next((o for o in game.rule_flags if o.rule == rule), None)
        if option is None:
            flag = "--" + rule.replace("_", "-")
            owners = " and ".join(games.get(g).title for g in shorthands().get(flag, ()))
            raise SimkitError(f"{flag} is a rule option of {owners}; {game.title} has no such rule")
        chosen[option.rule] = value
    return game.check_rules(chosen)


def model(game: Game, pairs: tuple[str, ...], players: int) -> dict:
    """Model values (Ezelen's M8) from --model name=value: a number for every seat, or one per
    seat, comma-separated."""
    if not pairs:
        return {}
    if game.check_model is None:
        raise SimkitError(f"--model sets a game's model of the players; {game.title} has none")
    values = {}
    for text in pairs:
        name, given = name_value("--model", text)
        numbers = [number(x.strip()) for x in given.split(",")]
        if any(isinstance(x, str) for x in numbers):
            raise SimkitError(f"--model {name} needs a number, or one number per seat separated by commas, "
                              f"got {given!r}")
        values[name] = numbers if len(numbers) > 1 else numbers[0]
    return game.check_model(values, players, "--model")


def load_files(files: tuple[str, ...]) -> None:
    from simkit.plugins import load_strategy_file

    for f in files:
        load_strategy_file(f)


# --- files read ---------------------------------------------------------------------------------------------------

TEXT_PROBE = 1 << 16  # bytes of a file looked at to tell text from binary


def trace_file(path: str) -> str:
    """A trace file to read (`show`, `check`): a readable regular file (input_file) of UTF-8
    text (no NUL bytes; judged from its first 64 KiB) that holds at least one record (a line that
    is not blank)."""
    input_file(path, "trace file", missing=f"no trace file {path}")
    with open(path, "rb") as f:
        head = f.read(TEXT_PROBE)
        why = _not_text(head, cut=len(head) == TEXT_PROBE)
        if why:
            raise SimkitError(f"{path} is not a text trace file ({why})")
        block = head
        while block and not block.strip():
            block = f.read(TEXT_PROBE)
        if not block.strip():
            raise SimkitError(f"{path} holds no records (an empty trace file)")
    return path


def _not_text(data: bytes, cut: bool) -> str:
    """Why `data` (the start of a file; `cut`: more follows) is not UTF-8 text, or ''."""
    if b"\0" in data:
        return f"a NUL byte at byte {data.index(bytes(1)):,}"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as e:
        if not (cut and e.start >= len(data) - 3 and e.reason == "unexpected end of data"):
            return f"not UTF-8 at byte {e.start:,}"
    return ""


# --- sizes against what the machine holds ------------------------------------------------------------------------

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


def check_trace_disk(count: int, output: str, unit: str) -> int:
    """A trace of `count` records must fit on the disk of `output`'s folder (at least
    TRACE_BYTES_PER_RECORD each); else one error with the numbers."""
    folder = os.path.dirname(os.path.abspath(output))
    try:
        usage = shutil.disk_usage(folder)
    except OSError:
        return count  # a missing folder is the writer's error, said there
    if not usage.total:
        return count  # not a disk (/proc): whether it can be written is the writer's to say
    free = usage.free
    need = count * TRACE_BYTES_PER_RECORD
    if need > free:
        raise SimkitError(f"--hands {_amount(count)} {unit} would write at least {_size(need)} "
                          f"({TRACE_BYTES_PER_RECORD} bytes or more per record) to {output}; {folder} has "
                          f"{_size(free)} free")
    return count


def check_run_size(count: int, chunk: int, option: str, unit: str) -> int:
    """A run of `count` deals in chunks of `chunk`: at most MAX_RUN_CHUNKS chunks."""
    chunks = math.ceil(count / chunk)
    if chunks > MAX_RUN_CHUNKS:
        raise SimkitError(f"{option} {_amount(count)} {unit} would make {_amount(chunks)} chunks of {chunk:,}; "
                          f"a run holds at most {MAX_RUN_CHUNKS:,} chunks ({MAX_RUN_CHUNKS * chunk:,} {unit}): "
                          "split it into several runs")
    return count


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


def player_counts(option: str, text: str, game: Game) -> list[int]:
    """'4,8' -> [4, 8], each a player count the game allows."""
    try:
        counts = [int(x) for x in text.split(",")]
    except ValueError:
        raise SimkitError(f"{option} must be a comma-separated list of numbers, got {text!r}") from None
    for n in counts:
        game.check_players(n)
    return counts


@dataclass(frozen=True)
class Play:
    """What `simulate` and `trace` were asked to play, checked."""

    game: Game
    seats: list
    rules: dict
    model: dict
    seed: int
    count: int  # hands, rounds or matches

    def title(self, unit: str) -> str:
        """The first line of a table: the game, what was played, every option in force."""
        from simkit.summary import format_value

        options = [f"{k}={v}" for k, v in self.rules.items()] + [f"{k}={format_value(v)}"
                                                                 for k, v in self.model.items()]
        return (f"{self.game.title} - {len(self.seats)} players, {self.count:,} {unit}, seed {self.seed}, "
                f"{', '.join(options)} (± = 95% interval, n = {self.count:,} {unit})")


def play(game: str, players: int, count: int, seed: str, strategies: str | None, rule_pairs: tuple[str, ...],
         model_pairs: tuple[str, ...], strategy_files: tuple[str, ...], flags: dict) -> Play:
    """The table, seed and options of `simulate` or `trace`, each checked once."""
    from simkit.rng import check_seed
    from simkit.strategy_spec import split

    described = games.get(game)
    load_files(strategy_files)
    described.check_players(players)
    seats = described.seats_for(split(strategies or described.default_strategy), players)
    return Play(described, seats, rules(described, rule_pairs, flags), model(described, model_pairs, players),
                check_seed(seed), check_count(count, "--hands"))
