"""Who's the Ass? as simkit sees it (simkit.games.Game): the description, and how an experiment,
`simulate`, `trace` and `bench` play it. The engine is imported when first played."""

import numpy as np
import pyarrow as pa

from simkit.games import Game, Measures, Objective, Option, Words
from simkit.games.whos_the_ass.rules import DEFAULT_RULES, GAME, MAX_PLAYERS, MIN_PLAYERS, check_players, check_rules
from simkit.games.whos_the_ass.strength import RATING


def _seats_for(specs: list, players: int) -> list:
    from simkit.games.whos_the_ass.strategy import seats_for

    return seats_for(specs, players)


def _play(seatings: list[list], count: int, first: int, spec, cells: list, tally: tuple | None = None,
          rows: bool = False, fold: tuple | None = None) -> dict[str, np.ndarray]:
    """Deals first..first+count-1 (hands, or matches) with each seating (a rotation of its
    cell's lineup: cells[r] is seating r's), added to `tally` if given, and single hands to
    `fold` (a spec's `by`: simkit.stats.deal_fold) if given, as the engine plays them; the
    engine's arrays (every hand's or match's: the rows need nothing more)."""
    from simkit.games.whos_the_ass import batch

    if spec.match["mode"] == "single":
        res = batch.play_rotations(seatings, count, spec.seed, spec.rules, first=first, tally=tally, fold=fold)
        return {"penalties": res.penalties, "ass_end": res.ass_end, "tricks": res.tricks}
    res = batch.match_rotations(seatings, count, spec.seed, spec.rules, hands=spec.match.get("hands", 0),
                                threshold=spec.match.get("threshold", 0), first=first, tally=tally)
    return {"totals": res.totals, "wins": res.win_shares(), "hands": res.hands}


def _measured(played: dict[str, np.ndarray], n: int, first: int) -> pa.Table:
    if "penalties" in played:
        return pa.table({"penalty": played["penalties"].ravel(),
                         "ass_end": (played["ass_end"][:, None] == np.arange(n)).ravel(),
                         "tricks": np.repeat(played["tricks"], n)})
    return pa.table({"total": played["totals"].ravel().astype(np.int32), "win": played["wins"].ravel(),
                     "hands": np.repeat(played["hands"].astype(np.int32), n)})


def _objective(mode: str) -> Objective:
    """Single hands: penalty points per hand (lower is better); matches: the share of matches won,
    a win shared by the k equal lowest totals counted as WIN_SCALE / k (W18)."""
    from simkit.games.whos_the_ass.measures import WIN_SCALE

    if mode == "single":
        return Objective("penalty points per hand", True, lambda played, seat: played["penalties"][:, seat])

    def won(played: dict, seat: int) -> np.ndarray:
        totals = played["totals"]
        best = totals == totals.min(axis=-1, keepdims=True)
        return np.where(best[:, seat], WIN_SCALE // best.sum(axis=-1), 0).astype(np.int64)

    return Objective("share of matches won", False, won, WIN_SCALE, share=True)


PENALTY = Words("Mean penalty per strategy", "penalty points per hand and seat", "fewer points", deal="hand",
                zero="a seat that went out",
                length="Tricks per hand, the share of hands at each length. A hand's length belongs to its whole "
                       "table, so it is drawn per table (its strategies named)")
TOTAL = Words("Mean match total per strategy", "points per match and seat", "fewer points", deal="match",
              zero="a seat that went out")


def _measures(mode: str) -> Measures:
    from simkit.games.whos_the_ass.measures import (
        HISTOGRAMS,
        MATCH_HISTOGRAMS,
        MATCH_SEAT,
        MATCH_TABLE,
        SEAT,
        TABLE,
        WIN_SCALE,
    )

    if mode == "single":
        seat, table = HISTOGRAMS
        return Measures(SEAT, TABLE, "penalty", seat_histogram=seat, table_histogram=table,
                        shares=(("out", "rows"), ("ass", "rows")), words=PENALTY, sections=("went out",),
                        fair=("ass",))
    seat, table = MATCH_HISTOGRAMS
    return Measures(MATCH_SEAT, MATCH_TABLE, "total", seat_histogram=seat, table_histogram=table,
                    scale={"win": WIN_SCALE}, shares=(("win", "rows"),), words=TOTAL, sections=("match wins",),
                    fair=("win",))


def _simulate(seats: list, count: int, seed: int, rules: dict, model: dict, matches: bool, chunks: int, progress):
    from simkit.games.whos_the_ass.summary import simulate

    return simulate(seats, count, seed, rules, chunks, progress)


# what `--by` groups by (simkit.stats.by_deal): name -> (column of features.dealt, what it counts, largest value)
FEATURES = {
    "jokers": (0, "jokers dealt", 5),
    "ass": (1, "dealt the ass (1) or not (0)", 1),
    "size": (2, "cards dealt", 38),
    "low": (3, "cards of the three lowest values (1, 2, 3) dealt", 12),
}


def _dealt(seed: int, first: int, count: int, n: int) -> np.ndarray:
    from simkit.games.whos_the_ass.features import dealt

    return dealt(seed, first, count, n)


def _traces(seats: list, count: int, seed: int, rules: dict, model: dict):
    from simkit.games.whos_the_ass.batch import traces

    return traces(seats, count, seed, rules)


def _show(record: dict) -> str:
    from simkit.games.whos_the_ass.trace import show_hand

    return show_hand(record)


def _checker():
    from simkit.games.whos_the_ass.check import check_record

    return check_record


GAME = Game(
    name=GAME, title="Who's the Ass?", deal="hand", players=(MIN_PLAYERS, MAX_PLAYERS), check_players=check_players,
    rules=DEFAULT_RULES, check_rules=check_rules, match_modes=("single", "hands", "threshold"),
    counted_modes=("hands", "threshold"),
    default_strategy="lowest", default_baseline="lowest", strategies="simkit.strategies.whos_the_ass",
    seats_for=_seats_for, measures=_measures,
    rule_flags=(Option("--ass-joker", "ass_joker", "Who's the Ass? rule option W13: 1or14 (default), 1 or any."),),
    play=_play, measured=_measured,
    simulate=_simulate, traces=_traces, picks=lambda record, i, number, match: (
        match is None and number in (None, record["hand"])),
    show=_show, checker=_checker,
    bench="simkit.games.whos_the_ass.bench", bench_players="3,4,6,8,12", reference_deals=300, strength=RATING,
    objective=_objective, features=FEATURES, dealt=_dealt, folds_by=True,
)
