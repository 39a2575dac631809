"""Where numba keeps compiled code: a folder per version of simkit's sources.

numba checks a cached function against its own file only, so a caller compiled before a callee
in another module changed would be loaded stale. Keying the folder by a hash of every source of
simkit and its built-in strategies makes any edit or upgrade start from a fresh, consistent
cache. An explicit NUMBA_CACHE_DIR is respected.
"""

import hashlib
import os
import tempfile
from pathlib import Path

_PACKAGES = ("simkit",)


def source_hash() -> str:
    """A short hash of the sources whose compiled code depends on each other."""
    root = Path(__file__).resolve().parents[2]
    digest = hashlib.sha256()
    for package in _PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def configure() -> str:
    """Point numba's cache at simkit's folder for these sources; returns the folder used."""
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if not chosen:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
        chosen = str(base / "simkit" / "numba" / source_hash())
        try:
            os.makedirs(chosen, exist_ok=True)
        except OSError:
            chosen = os.path.join(tempfile.gettempdir(), "simkit-numba", source_hash())
            os.makedirs(chosen, exist_ok=True)
        os.environ["NUMBA_CACHE_DIR"] = chosen
    import numba  # after the variable is set: numba reads it on import

    numba.config.CACHE_DIR = chosen  # and in case numba was imported before simkit
    return chosen
