"""Eigenwijs as simkit sees it (simkit.games.Game): the description, and how an experiment,
`simulate`, `trace`, `show`, `check`, `bench`, `strength`, `tune` and `field` play it. The
engine is imported when first played."""

import numpy as np
import pyarrow as pa

from simkit.games import Game, Measures, Objective, Option, Words
from simkit.games.eigenwijs.features import FEATURES, dealt_of
from simkit.games.eigenwijs.model import DEFAULT_MODEL, MODEL, PARAMETERS, check_values
from simkit.games.eigenwijs.rules import (
    DEFAULT_RULES,
    GAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    check_players,
    check_rules,
    deck_note,
)
from simkit.games.eigenwijs.strength import RATING


def _seats_for(specs: list, players: int) -> list:
    from simkit.games.eigenwijs.strategy import seats_for

    return seats_for(specs, players)


def _play(seatings: list[list], count: int, first: int, spec, cells: list, tally: tuple | None = None,
          rows: bool = False) -> dict[str, np.ndarray]:
    """Games first..first+count-1 with each seating (a rotation of its cell's lineup, cells[r]
    seating r's, with the cell's model values), added to `tally` if given; the engine's arrays,
    a seating each along their first axis (none where only the tally is wanted), the seat that
    flipped first among them."""
    from simkit.games.eigenwijs import batch
    from simkit.games.eigenwijs.engine import LEFT, START, TAKES, TURNS, WINNER

    models = [MODEL.cell_overrides(spec, cell, seats) for seats, cell in zip(seatings, cells)]
    keep = tally is None or rows
    out = batch.play_rotations(seatings, count, spec.seed, spec.rules, models, first=first, tally=tally, keep=keep)
    if not keep:
        return {}
    n = len(seatings[0])
    return {"winner": out[:, :, WINNER].astype(np.int8), "turns": out[:, :, TURNS].astype(np.int32),
            "takes": out[:, :, TAKES:TAKES + n].astype(np.int32), "left": out[:, :, LEFT:LEFT + n].astype(np.int32),
            "start": out[:, :, START].astype(np.int8)}


def _measured(played: dict[str, np.ndarray], n: int, first: int) -> pa.Table:
    return pa.table({"games_lost": (played["winner"][:, None] != np.arange(n)).ravel(),
                     "takes": played["takes"].ravel(), "cards_left": played["left"].ravel(),
                     "turns": np.repeat(played["turns"], n)})


LOST = Words("Share of games lost per strategy", "share of games lost", "fewer games lost", "games",
             "percentage points of games lost", deal="game",
             means="How often each strategy's seat took the played cards per game, and for which reason: a wrong "
                   "word, a hesitation over the limit, a false slap (E9), the last slap at a tie (E8)",
             length="Turns per game (every card flipped is a turn), the share of games at each length. A game's "
                    "length belongs to its whole table, so it is drawn per table (its strategies named), or per "
                    "player count where there are many tables", logarithmic=True,
             labels=(("turns", "turns per game"), ("ties", "ties per game"), ("taken", "cards taken per game"),
                     ("starter_won", "games won by the seat that flipped first (of the games won)"),
                     ("won", "games won"), ("capped", "games stopped at max_turns")))


def _measures(mode: str) -> Measures:
    from simkit.games.eigenwijs.measures import SEAT, TABLE, TABLE_HISTOGRAM

    return Measures(SEAT, TABLE, "games_lost", table_histogram=TABLE_HISTOGRAM, shares=(("games_lost", "rows"),),
                    table_shares=(("won", "rows"), ("capped", "rows"), ("starter_won", "won")), fair=("starter_won",),
                    means=tuple((m, "rows") for m in SEAT[2:-1]), table_means=tuple((m, "rows") for m in TABLE[4:]),
                    words=LOST)


def _simulate(seats: list, count: int, seed: int, rules: dict, model: dict, matches: bool, chunks: int, progress):
    from simkit.games.eigenwijs import summary

    return summary.games(seats, count, seed, rules, model, chunks, progress)


def _traces(seats: list, count: int, seed: int, rules: dict, model: dict):
    from simkit.games.eigenwijs.batch import traces

    return traces(seats, count, seed, rules, model)


def _show(record: dict) -> str:
    from simkit.games.eigenwijs.show import show_game

    return show_game(record)


def _checker():
    from simkit.games.eigenwijs.check import check_record

    return check_record


def _meta(spec) -> dict:
    return {"model": {"defaults": DEFAULT_MODEL, "overrides": spec.model},
            "assumption": deck_note(check_rules(spec.rules))}


GAME = Game(
    name=GAME, title="Eigenwijs", deal="game", players=(MIN_PLAYERS, MAX_PLAYERS), check_players=check_players,
    rules=DEFAULT_RULES, check_rules=check_rules, match_modes=("single",), counted_modes=(),
    default_strategy="right", default_baseline="right", strategies="simkit.strategies.eigenwijs",
    seats_for=_seats_for, measures=_measures, deal_rules=("colours", "egg_cards", "broken", "chick_cards", "chicks"),
    rule_flags=(Option("--chicks", "chicks", "Eigenwijs: play with the chick cards (E12), true or false."),
                Option("--precies", "precies", "Eigenwijs: the Precies variant (E14), true or false."),
                Option("--rotating", "rotating", "Eigenwijs: rotating piles (E13), true, false or auto (the "
                                                  "default: own piles for 2-4 players, rotating for 5-6).")),
    model=DEFAULT_MODEL,
    check_model=lambda values, players, where="key 'model'": check_values(values, players, where),
    play=_play, measured=_measured, extra_keys=("model",), model_names=tuple(PARAMETERS),
    seat_config=MODEL.seat_config, meta=_meta,
    simulate=_simulate, traces=_traces, show=_show, checker=_checker,
    picks=lambda record, i, number, match: number in (None, record["number"]),
    features=FEATURES, dealt_of=lambda played, n: dealt_of(played["start"][0].astype(np.int64), n),
    bench="simkit.games.eigenwijs.bench", bench_players="2,4,6", reference_deals=200, strength=RATING,
    objective=lambda mode: Objective("share of games not won", True,
                                     lambda played, seat: played["winner"] != seat, share=True),
)
