"""Results grouped by what each seat was dealt (`simulate --by jokers,ass`): per seat and group
of feature values, the seat measure's mean with its 95% interval and the count, from whole-number
sums (n, the sum and the sum of squares per group), so any split of the hands into chunks or
threads gives the same table."""

from dataclasses import dataclass

import numpy as np
import pandas as pd

from simkit.stats.intervals import Z95


@dataclass(frozen=True)
class By:
    """The features a run groups by: their names, columns of the game's `dealt` and largest values."""

    game: str
    names: tuple[str, ...]
    columns: tuple[int, ...]
    tops: tuple[int, ...]

    @property
    def groups(self) -> int:
        return int(np.prod([t + 1 for t in self.tops]))

    def keys(self, dealt: np.ndarray) -> np.ndarray:
        """Each (hand, seat)'s group: its feature values in mixed radix, the first name slowest."""
        key = np.zeros(dealt.shape[:2], np.int64)
        for c, top in zip(self.columns, self.tops):
            key = key * (top + 1) + dealt[:, :, c]
        return key

    def values(self, key: int) -> tuple[int, ...]:
        out = []
        for top in reversed(self.tops):
            key, v = divmod(key, top + 1)
            out.append(v)
        return tuple(reversed(out))


@dataclass
class Sums:
    """Per seat and group: hands, the sum and the sum of squares of the measure (int64)."""

    count: np.ndarray
    total: np.ndarray
    squares: np.ndarray

    @classmethod
    def zeros(cls, seats: int, groups: int) -> "Sums":
        return cls(*(np.zeros((seats, groups), np.int64) for _ in range(3)))

    def add(self, key: np.ndarray, values: np.ndarray) -> None:
        """Hands' groups key[hand, seat] and measures values[hand, seat] (whole numbers)."""
        x = values.astype(np.int64)
        for s in range(key.shape[1]):
            self.count[s] += np.bincount(key[:, s], minlength=self.count.shape[1])
            self.total[s] += np.bincount(key[:, s], weights=x[:, s], minlength=self.count.shape[1]).round().astype(
                np.int64)
            self.squares[s] += np.bincount(key[:, s], weights=x[:, s] * x[:, s],
                                           minlength=self.count.shape[1]).round().astype(np.int64)


def table(by: By, sums: Sums, labels: list[str], scale: float = 1.0) -> pd.DataFrame:
    """A row per seat and group that holds hands: seat, strategy, each feature, n, mean, ci95
    (the measure divided by `scale`)."""
    rows = []
    for s, label in enumerate(labels):
        for g in np.flatnonzero(sums.count[s]):
            n, t, q = int(sums.count[s, g]), int(sums.total[s, g]), int(sums.squares[s, g])
            mean = t / n
            half = Z95 * np.sqrt(max(q - t * t / n, 0.0) / (n - 1) / n) if n > 1 else np.nan
            rows.append({"seat": s, "strategy": label, **dict(zip(by.names, by.values(int(g)))), "n": n,
                         "mean": mean / scale, "ci95": half / scale})
    return pd.DataFrame(rows)


def shown(found: pd.DataFrame) -> pd.DataFrame:
    """The table for people: the mean and its interval as one text."""
    from simkit.stats import notation

    out = found.drop(columns=["mean", "ci95", "n"]).copy()
    out["mean"] = [notation.mean(m, h) for m, h in zip(found["mean"], found["ci95"])]
    out["n"] = [f"{n:,}" for n in found["n"]]
    return out


def is_table(head: bytes) -> bool:
    """Whether a file's first line is the header `write_csv` writes: what a table may be written over."""
    return head.startswith(b"seat,strategy,") and head.rstrip(b"\r\n").endswith(b",n,mean,ci95")


def write_csv(found: pd.DataFrame, path: str) -> None:
    """The table as CSV, written beside its place and renamed in (never half a file)."""
    from simkit.core.files import atomic_path

    with atomic_path(path) as tmp:
        found.to_csv(tmp, index=False)
