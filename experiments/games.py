"""What the runner needs to know of each game: its checks, its strategies, its match modes, and
how to play a chunk into measured columns. Adding a game to the runner = one entry here."""

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pyarrow as pa

from simkit.errors import SimkitError


@dataclass(frozen=True)
class Game:
    name: str
    check_players: Callable[[int], None]
    check_rules: Callable[[dict], dict]
    seats_for: Callable[[list[str], int], list]
    match_modes: tuple[str, ...]       # "single" first: one deal per row group
    play: Callable[..., pa.Table]      # (seats, count, first, spec, cell) -> measured columns, a row per deal and seat
    deal: str                          # the name of a deal: "hand", "round"
    default_baseline: str
    extra_keys: tuple[str, ...] = ()   # spec keys only this game has


def _play_whos_the_ass(seats: list, count: int, first: int, spec, cell) -> pa.Table:
    from simkit.whos_the_ass import batch

    n = len(seats)
    if spec.match["mode"] == "single":
        res = batch.play(seats, count, spec.seed, spec.rules, first=first)
        return pa.table({"penalty": res.penalties.ravel(), "ass_end": (res.ass_end[:, None] == np.arange(n)).ravel(),
                         "tricks": np.repeat(res.tricks, n)})
    res = batch.matches(seats, count, spec.seed, spec.rules, hands=spec.match.get("hands", 0),
                        threshold=spec.match.get("threshold", 0), first=first)
    return pa.table({"total": res.totals.ravel().astype(np.int32), "win": res.win_shares().ravel(),
                     "hands": np.repeat(res.hands.astype(np.int32), n)})


def _whos_the_ass() -> Game:
    from simkit.whos_the_ass.rules import GAME, check_players, check_rules
    from simkit.whos_the_ass.strategy import seats_for

    return Game(GAME, check_players, check_rules, seats_for, ("single", "hands", "threshold"), _play_whos_the_ass,
                "hand", "lowest")


_GAMES: dict[str, Callable[[], Game]] = {"whos-the-ass": _whos_the_ass}
DEFAULT = "whos-the-ass"


def get(name: str) -> Game:
    if name not in _GAMES:
        raise SimkitError(f"unknown game {name!r} (known: {', '.join(_GAMES)})")
    return _GAMES[name]()
