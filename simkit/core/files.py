"""Writing files so that nobody ever sees half of one: write beside, then rename over. The one
way simkit writes an output, so that no command replaces what it should not (a device, a link, a
folder) and a failed write (a full disk, Ctrl-C) leaves the earlier file whole; and the one check
of a file simkit reads (`input_file`)."""

import os
import secrets
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from simkit.core.errors import SimkitError


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """A new temporary file beside `path` (made with the umask's permissions, its name this
    process's own); renamed over `path` when the block ends without error, removed otherwise, so
    an earlier file stays whole. An OSError while writing (a full disk) is one SimkitError."""
    target = writable(path)
    tmp = _create_beside(target)
    try:
        yield tmp
        os.replace(tmp, target)
    except OSError as e:
        raise SimkitError(_cannot(path, e, tmp)) from None
    finally:
        tmp.unlink(missing_ok=True)


def writable(path: str | Path) -> Path:
    """`path` as a file simkit may (re)place: a name of a regular file or of nothing yet, in a
    folder that exists. Renaming over a device, a link or a fifo would replace something the user
    made (and writing a device like /dev/full 'succeeds' with nothing kept), so they are refused."""
    text = os.fspath(path)
    if not text.strip() or text.endswith(("/", os.sep)):
        raise SimkitError(f"-o needs a file name, got {text!r}")
    target = Path(text)
    try:
        mode = os.lstat(target).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as e:
        raise SimkitError(_cannot(text, e)) from None
    if mode is not None and not stat.S_ISREG(mode):
        what = ("a directory" if stat.S_ISDIR(mode) else "a symbolic link" if stat.S_ISLNK(mode)
                else "not a regular file")
        raise SimkitError(f"cannot write {text}: it is {what} (simkit writes only new or regular files)")
    parent = target.parent
    if not parent.is_dir():
        raise SimkitError(f"cannot write {text}: folder {parent} does not exist")
    return target


def replaceable(path: str | Path, ours: Callable[[bytes], bool], what: str, force: bool = False) -> Path:
    """`path` as `writable` gives it, refused where it holds a file simkit did not write: one whose
    first line `ours` does not recognise (a trace over a trace, a table over a table is replaced;
    an empty file too), unless `force`. Checked before anything is played."""
    target = writable(path)
    if force:
        return target
    try:
        with open(target, "rb") as f:
            head = f.readline(1 << 20)
    except FileNotFoundError:
        return target
    except OSError as e:
        raise SimkitError(_cannot(path, e)) from None
    if head and not ours(head):
        raise SimkitError(f"{os.fspath(path)} exists and is not {what} simkit wrote; give another file name, or "
                          "--force to replace it")
    return target


def input_file(path: str, what: str, missing: str | None = None) -> str:
    """A file a command reads (`what`: "spec file", "strategy file", "trace file"): named, there,
    a regular file (not a folder or a device) and readable; else one error saying which.
    `missing` is the message for a file that is not there (default: "WHAT PATH does not exist")."""
    if not path:
        raise SimkitError(f"{what} needs a file name, got ''")
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise SimkitError(missing or f"{what} {path} does not exist") from None
    except OSError as e:
        raise SimkitError(f"cannot read {what} {path}: {e.strerror}") from None
    if stat.S_ISDIR(mode):
        raise SimkitError(f"{what} {path} is a directory, not a file")
    if not stat.S_ISREG(mode):
        raise SimkitError(f"{what} {path} is not a regular file")
    if not os.access(path, os.R_OK):
        raise SimkitError(f"cannot read {what} {path}: permission denied")
    return path


def _create_beside(target: Path) -> Path:
    """A new empty file beside `target` that no other process or block shares: created with
    O_EXCL and mode 0o666, so it gets the umask's permissions like any file the user makes."""
    for _ in range(100):
        tmp = part_path(target)
        try:
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
            return tmp
        except FileExistsError:
            continue
        except OSError as e:
            raise SimkitError(_cannot(target, e, tmp)) from None
    raise SimkitError(f"cannot write {target}: no free temporary name beside it")


def part_path(path: Path) -> Path:
    """Where `path` is written before it is renamed into place: a hidden name beside it with this
    process's id and a random part, so that two writers of one file never share it."""
    return path.with_name(f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.part")


def _cannot(path: str | Path, error: OSError, tmp: Path | None = None) -> str:
    """One line for an OSError while writing `path`; the file it was about, when another
    (e.g. the source of a copy), is named too."""
    why = error.strerror or str(error) or type(error).__name__
    other = error.filename
    named = other is not None and os.fspath(other) not in (os.fspath(path), os.fspath(tmp or path))
    return f"cannot write {os.fspath(path)}: {why}" + (f" ({os.fspath(other)})" if named else "")
