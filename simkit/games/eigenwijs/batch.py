"""Many games at once through the compiled engine: outcome arrays for `simulate`, a tally for
experiments, records for traces.

Every function takes the seats (simkit.games.eigenwijs.strategy.seats_for), the rules (defaults filled
in) and `model`: overrides of the model values (H2-H5) as {name: number} for every seat or
{name: [one number per seat]}, on top of the defaults and each strategy's own profile.
"""

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from simkit.core.blocks import blocks_for, spans
from simkit.core.errors import IllegalMove, check_count
from simkit.core.rng import check_seed
from simkit.games.eigenwijs.driver import NO_ERROR, play_games, play_logged
from simkit.games.eigenwijs.engine import DECK_DTYPE, ERR_WIDTH, FLOG_WIDTH, LOG_WIDTH, OUTCOME_SIZE
from simkit.games.eigenwijs.model import model_matrix, model_record
from simkit.games.eigenwijs.rules import (
    DECK_MAX,
    MAX_PLAYERS,
    check_rules,
    check_table,
    deck,
    illegal_text,
    piles,
    rotating_at,
)
from simkit.games.eigenwijs.strategy import Seat, lineup_arrays, rotation_arrays
from simkit.games.eigenwijs.trace import game_record
from simkit.stats.tally import Tally, slots
from simkit.strategies.decisions import engine


@dataclass(frozen=True)
class _Seatings:
    """Several seatings of one table (a lineup's rotations) as the drivers take them."""

    seed: int
    rules: dict
    seatings: list[list[Seat]]
    models: np.ndarray  # [rotation, seat, column]
    args: tuple  # fns, order, params, model, then the rules as the engine takes them, and the deck


def _seatings(seatings: list[list[Seat]], seed: int, rules: dict | None, models: list[dict | None]) -> _Seatings:
    n = len(seatings[0])
    rules = check_rules(rules or {})
    check_table(rules, n)
    fns, order, params = rotation_arrays(seatings)
    model = np.stack([model_matrix([dict(s.model) for s in seats], over) for seats, over in zip(seatings, models)])
    engine_rules = (n, piles(rules, n), rules["chicks"], rules["precies"], rotating_at(rules, n), rules["colours"],
                    rules["hesitation"], rules["max_turns"])
    cards = np.array(deck(rules), DECK_DTYPE)
    return _Seatings(check_seed(seed), rules, seatings, model, (fns, order, params, model, *engine_rules, cards))


def _raise_illegal(seats: list[Seat], row: np.ndarray) -> None:
    number, _, seat, turn, response = (int(x) for x in row)
    raise IllegalMove(illegal_text(seats[seat].label, seats[seat].origin, seat, number, turn, response))


def _check_errors(seatings: list[list[Seat]], errs: np.ndarray) -> None:
    """Raise for a driver's first failure in the order played: (game, rotation)."""
    worst = errs[np.lexsort((errs[:, 0], errs[:, 1]))[0]]
    if worst[1] != NO_ERROR:
        _raise_illegal(seatings[int(worst[0])], worst[1:])


def play_rotations(seatings: list[list[Seat]], games: int, seed: int, rules: dict | None = None,
                   models: list[dict | None] | None = None, first: int = 0, chunks: int = 1,
                   progress: Callable[[int], None] | None = None, tally: tuple | None = None,
                   keep: bool = True) -> np.ndarray:
    """Games first..first+games-1, each in every seating (the same deal replayed, the strategies
    moved round the table, each with its model overrides) before the next, on all threads;
    identical for any `chunks`. Returns the engine's outcome rows [seating, game, OUTCOME_SIZE]
    (with `keep`; else none: what grows with the games is then only what the tally keeps). With
    a `tally` (simkit.stats.tally; its deal slots 0..games-1), each game is added to it as it is played."""
    run = _seatings(seatings, seed, rules, models or [None] * len(seatings))
    check_count(games, "games")
    out = np.zeros((len(seatings), games if keep else 0, OUTCOME_SIZE), np.int64)
    tally = Tally.off() if tally is None else tally
    for lo, hi in spans(games, chunks, progress):
        part = out[:, lo:hi] if keep else out
        part = np.ascontiguousarray(part)
        errs = engine(seatings[0], play_games, *run.args, np.uint64(run.seed), first + lo, hi - lo, part,
                      blocks_for(hi - lo), slots(tally, lo, hi))
        _check_errors(seatings, errs)
        if keep:
            out[:, lo:hi] = part
    return out


def play(seats: list[Seat], games: int, seed: int, rules: dict | None = None, model: dict | None = None,
         first: int = 0, chunks: int = 1, progress: Callable[[int], None] | None = None) -> np.ndarray:
    """`play_rotations` at one seating: the outcome rows [game, OUTCOME_SIZE]."""
    return play_rotations([seats], games, seed, rules, [model], first, chunks, progress)[0]


def traces(seats: list[Seat], games: int, seed: int, rules: dict | None = None, model: dict | None = None,
           first: int = 0) -> Iterator[dict]:
    """Trace records of the games `play` plays (first..first+games-1), one at a time."""
    run = _seatings([seats], seed, rules, [model])
    n = len(seats)
    entry = model_record(run.models[0], n)
    labels = [s.label for s in seats]
    turns = max(run.rules["max_turns"], 1)
    log = np.zeros((turns, LOG_WIDTH), np.int64)
    flog = np.zeros((turns, FLOG_WIDTH), np.float64)
    dealt = np.zeros((MAX_PLAYERS, DECK_MAX), DECK_DTYPE)
    start = np.zeros(1, np.int64)
    outcome = np.zeros(OUTCOME_SIZE, np.int64)
    err = np.zeros(ERR_WIDTH, np.int64)
    fns = lineup_arrays(seats)[0]  # seat by seat (the parallel driver's are distinct, with an order)
    _, _, params, model, *rest = run.args
    for number in range(first, first + games):
        played = engine(seats, play_logged, fns, params[0], model[0], *rest, np.uint64(run.seed), number, dealt,
                        start, log, flog, outcome, err)
        if played < 0:
            _raise_illegal(seats, np.concatenate([[number], err]))
        yield game_record(run.seed, number, run.rules, entry, labels, dealt, int(start[0]), log[:played],
                          flog[:played], outcome)

