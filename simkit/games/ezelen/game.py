"""Ezelen as simkit sees it (simkit.games.Game): the description, and how an experiment,
`simulate`, `trace` and `bench` play it. The engine is imported when first played."""

from itertools import islice

import numpy as np
import pyarrow as pa

from simkit.games import Game, Measures, Objective, Words
from simkit.games.ezelen.model import DEFAULT_MODEL, MODEL, PARAMETERS, check_values
from simkit.games.ezelen.rules import DEFAULT_RULES, GAME, MAX_PLAYERS, MIN_PLAYERS, check_players, check_rules
from simkit.games.ezelen.strength import RATING


def _seats_for(specs: list, players: int) -> list:
    from simkit.games.ezelen.strategy import seats_for

    return seats_for(specs, players)


def _play(seatings: list[list], count: int, first: int, spec, cells: list, tally: tuple | None = None,
          rows: bool = False) -> dict[str, np.ndarray]:
    """Deals first..first+count-1 (rounds, or matches) with each seating (a rotation of its
    cell's lineup, cells[r] seating r's, with the cell's model values), added to `tally` if
    given; the engine's arrays: every round's, and of matches only their ends unless `rows` asks
    for every round (the matches are then played twice, first to count their rounds; the rounds
    of all seatings in one array)."""
    from simkit.games.ezelen import batch

    models = [MODEL.cell_overrides(spec, cell, seats) for seats, cell in zip(seatings, cells)]
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


def _seating(played: dict[str, np.ndarray], r: int) -> dict[str, np.ndarray]:
    """Seating r's part of `_play`'s arrays (the rows of matches: its rounds, and their offsets
    from its first one, with the end of its last)."""
    if "offsets" not in played:
        return {k: v[r] for k, v in played.items()}
    start = int(played["offsets"][r, 0])
    end = start + int(played["rounds"][r].sum())
    out = {k: played[k][start:end] for k in ("loser", "reason", "turns", "first_signal")}
    return {**out, "offsets": np.append(played["offsets"][r] - start, end - start), "donkey": played["donkey"][r],
            "letters": played["letters"][r]}


def _measured(played: dict[str, np.ndarray], n: int, first: int) -> pa.Table:
    from simkit.games.ezelen.rules import REASONS

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


LOST = Words("Share of rounds lost per strategy", "share of rounds lost", "fewer rounds lost", "rounds",
             "percentage points of rounds lost", deal="round",
             labels=(("last", "rounds ended by the last to copy"), ("tempo", "by a tempo fault"),
                     ("tie", "tied"), ("stalled", "stalled"), ("signalled", "with a signal")))


def _measures(mode: str) -> Measures:
    from simkit.games.ezelen.measures import MATCH_SEAT, SEAT, TABLE, TABLE_HISTOGRAM

    rounds = (("lost", "rows"), ("lost_last", "rows"), ("lost_tempo", "rows"))
    return Measures(MATCH_SEAT if mode == "ezel" else SEAT, TABLE, "lost", table_histogram=TABLE_HISTOGRAM,
                    many_rows=mode == "ezel", shares=rounds + ((("donkey", "matches"),) if mode == "ezel" else ()),
                    table_shares=tuple((why, "rows") for why in ("last", "tempo", "tie", "stalled", "signalled")),
                    words=LOST, fair=("donkey",),
                    sections=(("donkey",) if mode == "ezel" else ()) + ("loss causes", "round endings", "first signal"))


# what `--by` groups single rounds by (simkit.stats.by_deal): name -> (column of features.dealt, what it counts,
# largest value)
FEATURES = {
    "pairs": (0, "pairs in the seat's first hand (two cards of one value)", 2),
    "most": (1, "the most cards of one value in the seat's first hand", 4),
}


def _dealt(seed: int, first: int, count: int, n: int) -> np.ndarray:
    from simkit.games.ezelen.features import dealt

    return dealt(seed, first, count, n)


def _simulate(seats: list, count: int, seed: int, rules: dict, model: dict, matches: bool, chunks: int, progress):
    from simkit.games.ezelen import summary

    return (summary.matches if matches else summary.rounds)(seats, count, seed, rules, model, chunks, progress)


def _traces(seats: list, count: int, seed: int, rules: dict, model: dict):
    """Match 0 until its donkey, then match 1 from round 0, ..., `count` rounds in all."""
    from simkit.games.ezelen.batch import match_traces

    return islice(match_traces(seats, count, seed, rules, model), count)


def _show(record: dict) -> str:
    from simkit.games.ezelen.show import show_round

    return show_round(record)


def _checker():
    from simkit.games.ezelen.check import Checker

    return Checker().check


GAME = Game(
    name=GAME, title="Ezelen", deal="round", players=(MIN_PLAYERS, MAX_PLAYERS), check_players=check_players,
    rules=DEFAULT_RULES, check_rules=check_rules, match_modes=("single", "ezel"), counted_modes=(),
    default_strategy="greedy", default_baseline="random", strategies="simkit.strategies.ezelen",
    seats_for=_seats_for, measures=_measures, model=DEFAULT_MODEL,
    check_model=lambda values, players, where="key 'model'": check_values(values, players, where),
    play=_play, seating=_seating, measured=_measured, extra_keys=("model",), model_names=tuple(PARAMETERS),
    seat_config=MODEL.seat_config, meta=lambda spec: {"model": {"defaults": DEFAULT_MODEL, "overrides": spec.model}},
    simulate=_simulate, matches="whole matches, until a player spells E-Z-E-L (Z7)", traces=_traces,
    traced=lambda count, last: f" (matches 0..{last['match']})" if last else "",
    picks=lambda record, i, number, match: number in (None, i) and match in (None, (record["match"], record["round"])),
    show=_show, checker=_checker,
    bench="simkit.games.ezelen.bench", bench_players="4,8", reference_deals=2_000, strength=RATING,
    objective=lambda mode: Objective("share of rounds lost", True, lambda played, seat: played["loser"] == seat,
                                     share=True) if mode == "single" else
    Objective("share of matches lost (the donkey, Z7)", True, lambda played, seat: played["donkey"] == seat,
              share=True),
    features=FEATURES, dealt=_dealt,
)
