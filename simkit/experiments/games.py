"""What the runner needs to know of each game: its checks, its strategies, its match modes, and
how to play a chunk into measured columns. Adding a game to the runner = one entry here.

Each game's modules are imported when the game is first used, so a run of one game never loads
(or compiles) the other's engine.
"""

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa

from simkit.errors import SimkitError


@dataclass(frozen=True)
class Measures:
    """What a run's statistics count of a game in one match mode (experiments/statistics.py).

    Seat rows (a seat in a hand, round or match) and table rows (a hand or round of a table) each
    carry small-integer measures; the first of each counts rows. `main` is the seat measure the
    report compares strategies by (lower is better), `scale` what its sum is divided by (match
    wins are counted in 1/27720ths, so a win shared by up to 12 is still a whole number)."""

    seat: tuple[str, ...]
    table: tuple[str, ...]
    main: str
    per: str = "rows"                  # the seat measure `main` is a mean per
    seat_histogram: str | None = None  # a seat measure whose distribution the report draws
    table_histogram: str | None = None
    scale: dict = field(default_factory=dict)
    many_rows: bool = False            # a deal holds many rows (an Ezelen match's rounds)


REPLAY = ("replays", "beats2")  # table measures of every deal's replay (the runner's): a count, and
#                                 2 x (a beats b) + (a ties b)


@dataclass(frozen=True)
class Game:
    name: str
    check_players: Callable[[int], None]
    check_rules: Callable[[dict], dict]
    seats_for: Callable[[list[str], int], list]
    match_modes: tuple[str, ...]       # the spec's [match] modes; "single" (one deal per row group) first
    play: Callable[..., dict]          # (seatings, count, first, spec, cell, tally, rows) -> the engine's arrays,
    #                                    a seating each along their first axis
    measured: Callable[[dict, int, int], pa.Table]  # (played, players, first) -> a row per deal and seat
    deal: str                          # the name of a deal: "hand", "round"
    default_baseline: str
    extra_keys: tuple[str, ...] = ()   # spec keys only this game has
    model_names: tuple[str, ...] = ()  # per-seat model values a sweep may set for one strategy's seats
    seat_config: Callable[..., dict[str, list[float]]] | None = None  # (spec, cell, seats) -> column per seat
    check_model: Callable[..., dict] | None = None  # (values, players, where) -> the spec's `model` table, checked
    meta: Callable[..., dict] | None = None                           # (spec) -> more for meta.json
    measures: Callable[[str], Measures] | None = None  # (match mode) -> what the statistics count
    seating: Callable[..., dict] = lambda played, r: {k: v[r] for k, v in played.items()}  # (played, r) -> r's arrays


def _play_whos_the_ass(seatings: list[list], count: int, first: int, spec, cell, tally: tuple | None = None,
                       rows: bool = False) -> dict[str, np.ndarray]:
    """Deals first..first+count-1 (hands, or matches) with each seating (a rotation of the
    cell's lineup), added to `tally` if given; the engine's arrays (every hand's or match's: the
    rows need nothing more)."""
    from simkit.whos_the_ass import batch

    if spec.match["mode"] == "single":
        res = batch.play_rotations(seatings, count, spec.seed, spec.rules, first=first, tally=tally)
        return {"penalties": res.penalties, "ass_end": res.ass_end, "tricks": res.tricks}
    res = batch.match_rotations(seatings, count, spec.seed, spec.rules, hands=spec.match.get("hands", 0),
                                threshold=spec.match.get("threshold", 0), first=first, tally=tally)
    return {"totals": res.totals, "wins": res.win_shares(), "hands": res.hands}


def _rows_whos_the_ass(played: dict[str, np.ndarray], n: int, first: int) -> pa.Table:
    if "penalties" in played:
        return pa.table({"penalty": played["penalties"].ravel(),
                         "ass_end": (played["ass_end"][:, None] == np.arange(n)).ravel(),
                         "tricks": np.repeat(played["tricks"], n)})
    return pa.table({"total": played["totals"].ravel().astype(np.int32), "win": played["wins"].ravel(),
                     "hands": np.repeat(played["hands"].astype(np.int32), n)})


def _measures_whos_the_ass(mode: str) -> Measures:
    from simkit.whos_the_ass.measures import MATCH_SEAT, MATCH_TABLE, SEAT, TABLE, WIN_SCALE

    if mode == "single":
        return Measures(SEAT, TABLE, "penalty", seat_histogram="penalty", table_histogram="tricks")
    return Measures(MATCH_SEAT, MATCH_TABLE, "total", seat_histogram="total", table_histogram="hands",
                    scale={"win": WIN_SCALE})


def _whos_the_ass() -> Game:
    from simkit.whos_the_ass.rules import GAME, check_players, check_rules
    from simkit.whos_the_ass.strategy import seats_for

    return Game(GAME, check_players, check_rules, seats_for, ("single", "hands", "threshold"), _play_whos_the_ass,
                _rows_whos_the_ass, "hand", "lowest", measures=_measures_whos_the_ass)


def _ezelen_model(spec, cell, seats: list) -> dict:
    """The model overrides of a cell's seats: the spec's `model` table (a number for every seat,
    or one per seat), then swept model values (`strategy.attention`) on that strategy's seats."""
    n = len(seats)
    overrides = {k: (list(v) if isinstance(v, list) else [v] * n) for k, v in spec.model.items()}
    for key, value in cell.sweep:
        name, param = key.split(".", 1)
        if param in _ezelen_names():
            row = overrides.setdefault(param, [None] * n)
            for s, seat in enumerate(seats):
                if seat.label.split("(", 1)[0] == name:
                    row[s] = value
    if not overrides:
        return {}
    from simkit.ezelen.model import PARAMETERS, model_matrix

    base = model_matrix([dict(seat.model) for seat in seats])  # defaults and profiles: what None keeps
    return {k: [base[s, PARAMETERS[k][0]] if v is None else v for s, v in enumerate(row)]
            for k, row in overrides.items()}


def _ezelen_names() -> tuple[str, ...]:
    from simkit.ezelen.model import PARAMETERS

    return tuple(PARAMETERS)


def _ezelen_seat_config(spec, cell, seats: list) -> dict[str, list[float]]:
    """M8: every model value of every seat, written beside its results."""
    from simkit.ezelen.model import PARAMETERS, model_matrix

    matrix = model_matrix([dict(seat.model) for seat in seats], _ezelen_model(spec, cell, seats))
    return {name: [float(matrix[s, p[0]]) for s in range(len(seats))] for name, p in PARAMETERS.items()}


def _play_ezelen(seatings: list[list], count: int, first: int, spec, cell, tally: tuple | None = None,
                 rows: bool = False) -> dict[str, np.ndarray]:
    """Deals first..first+count-1 (rounds, or matches) with each seating (a rotation of the
    cell's lineup, with its model values), added to `tally` if given; the engine's arrays: every
    round's, and of matches only their ends unless `rows` asks for every round (the matches are
    then played twice, first to count their rounds; the rounds of all seatings in one array)."""
    from simkit.ezelen import batch

    models = [_ezelen_model(spec, cell, seats) for seats in seatings]
    if spec.match["mode"] == "single":
        res = batch.play_rotations(seatings, count, spec.seed, spec.rules, models, first=first, tally=tally)
        extra = {}
    elif not rows:
        res = batch.match_rotations(seatings, count, spec.seed, spec.rules, models, first=first, tally=tally)
        return {"donkey": res.donkey, "letters": res.letters, "rounds": res.rounds}
    else:
        matches, res, offsets = batch.match_round_rotations(seatings, count, spec.seed, spec.rules, models,
                                                            first=first, tally=tally)
        extra = {"offsets": offsets, "donkey": matches.donkey, "letters": matches.letters, "rounds": matches.rounds}
    return {"loser": res.loser, "reason": res.reason, "turns": res.turns, "first_signal": res.first_signal, **extra}


def _seating_ezelen(played: dict[str, np.ndarray], r: int) -> dict[str, np.ndarray]:
    """Seating r's part of `_play_ezelen`'s arrays (the rows of matches: its rounds, and their
    offsets from its first one, with the end of its last)."""
    if "offsets" not in played:
        return {k: v[r] for k, v in played.items()}
    start = int(played["offsets"][r, 0])
    end = start + int(played["rounds"][r].sum())
    out = {k: played[k][start:end] for k in ("loser", "reason", "turns", "first_signal")}
    return {**out, "offsets": np.append(played["offsets"][r] - start, end - start), "donkey": played["donkey"][r],
            "letters": played["letters"][r]}


def _rows_ezelen(played: dict[str, np.ndarray], n: int, first: int) -> pa.Table:
    from simkit.ezelen.rules import REASONS

    columns = {}
    if "offsets" in played:  # every round of every match: number them
        offsets = played["offsets"]
        per_match = np.diff(offsets)
        m = np.repeat(np.arange(len(per_match)), per_match)  # the match of each round, within the chunk
        columns = {"match": np.repeat(first + m, n).astype(np.int64),
                   "round": np.repeat((np.arange(offsets[-1]) - offsets[m]).astype(np.int32), n)}
    columns["lost"] = (played["loser"][:, None] == np.arange(n)).ravel()
    table = pa.table(columns)
    table = table.append_column("reason", pa.DictionaryArray.from_arrays(np.repeat(played["reason"], n),
                                                                         list(REASONS)))
    for name in ("turns", "first_signal"):
        table = table.append_column(name, pa.array(np.repeat(played[name], n)))
    if "offsets" in played:
        table = table.append_column("donkey", pa.array((played["donkey"][m][:, None] == np.arange(n)).ravel()))
        table = table.append_column("letters", pa.array(played["letters"][m].ravel()))
    return table


def _measures_ezelen(mode: str) -> Measures:
    from simkit.ezelen.measures import MATCH_SEAT, SEAT, TABLE

    return Measures(MATCH_SEAT if mode == "ezel" else SEAT, TABLE, "lost", table_histogram="first_signal",
                    many_rows=mode == "ezel")


def _ezelen() -> Game:
    from simkit.ezelen.model import DEFAULT_MODEL, check_values
    from simkit.ezelen.rules import GAME, check_players, check_rules
    from simkit.ezelen.strategy import seats_for

    return Game(GAME, check_players, check_rules, seats_for, ("single", "ezel"), _play_ezelen, _rows_ezelen, "round",
                "random",
                extra_keys=("model",), model_names=_ezelen_names(), seat_config=_ezelen_seat_config,
                check_model=lambda values, players, where="key 'model'": check_values(values, players, where),
                meta=lambda spec: {"model": {"defaults": DEFAULT_MODEL, "overrides": spec.model}},
                measures=_measures_ezelen, seating=_seating_ezelen)


_GAMES: dict[str, Callable[[], Game]] = {"whos-the-ass": _whos_the_ass, "ezelen": _ezelen}
DEFAULT = "whos-the-ass"


@functools.cache
def get(name: str) -> Game:
    if name not in _GAMES:
        raise SimkitError(f"unknown game {name!r} (known: {', '.join(_GAMES)})")
    return _GAMES[name]()
