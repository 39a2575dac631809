"""Many rounds or matches at once through the compiled engine: arrays for statistics, records for
traces, and one given deal for tests.

Every function takes the seats (simkit.games.ezelen.strategy.seats_for), the rules (beat, max_turns;
defaults filled in) and `model`: overrides of the model values (M8) as {name: number} for every
seat or {name: [one number per seat]}, on top of the defaults and each strategy's own profile.
"""

from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields

import numpy as np

from simkit.core.blocks import blocks_for, spans
from simkit.core.errors import IllegalMove, SimkitError, check_count
from simkit.core.rng import check_seed, py_hand_state, py_match_seed
from simkit.games.ezelen.driver import NO_ERROR, play_logged, play_matches, play_rounds
from simkit.games.ezelen.engine import ERR_WIDTH, LOSER, OUTCOME_SIZE, STATE_WIDTH
from simkit.games.ezelen.model import model_matrix, model_record
from simkit.games.ezelen.rules import (
    CARDS_PER_VALUE,
    DONKEY_AT,
    HAND_SIZE,
    MAX_PLAYERS,
    N_VALUES,
    REASONS,
    check_players,
    check_rules,
)
from simkit.games.ezelen.strategy import Seat, lineup_arrays, rotation_arrays
from simkit.games.ezelen.trace import round_record
from simkit.stats.tally import Tally, slots
from simkit.strategies.decisions import engine

DEFAULT_MAX_ROUNDS = 100_000  # a match that has not made a donkey by then stops unfinished


@dataclass
class RoundResults:
    """Per-round outcomes of single rounds, row r = round 0 of match first + r."""

    loser: np.ndarray         # int8 [rounds]: the seat that got a letter, -1 if none
    reason: np.ndarray        # int8 [rounds]: index into rules.REASONS
    turns: np.ndarray         # int32 [rounds]: turns played
    first_signal: np.ndarray  # int32 [rounds]: turn of the first signal, -1 if none


@dataclass
class MatchResults:
    """Per-match outcomes (Z7), row r = match first + r."""

    donkey: np.ndarray   # int8 [matches]: the seat that spelled E-Z-E-L, -1 if max_rounds came first
    rounds: np.ndarray   # int64 [matches]: rounds played
    letters: np.ndarray  # int8 [matches, players]: letters at the end
    reasons: np.ndarray  # int64 [matches, 4]: rounds ended by each of rules.REASONS


@dataclass(frozen=True)
class _Setup:
    seed: int
    rules: dict
    fns: tuple
    params: np.ndarray
    model: np.ndarray
    model_entry: dict  # the trace's `model` entry
    seats: list[Seat]


def _setup(seats: list[Seat], seed: int, rules: dict | None, model: dict | None) -> _Setup:
    check_players(len(seats))
    fns, params = lineup_arrays(seats)
    matrix = model_matrix([dict(s.model) for s in seats], model)
    return _Setup(check_seed(seed), check_rules(rules or {}), fns, params, matrix,
                  model_record(matrix, len(seats)), seats)


def _raise_illegal(seats: list[Seat], row: np.ndarray) -> None:
    match, round_no, _, seat, turn, value = (int(x) for x in row)
    n = len(seats)
    origin = f" ({seats[seat].origin})" if seats[seat].origin else ""
    why = "which it does not hold" if 0 <= value < n else f"values are 0..{n - 1}"
    raise IllegalMove(
        f"strategy {seats[seat].label!r}{origin} at seat {seat} made an illegal move in match {match}, "
        f"round {round_no}, turn {turn}: passed value {value}, {why} (Z3: a player passes one of its own cards)")


def _check_errors(seatings: list[list[Seat]], errs: np.ndarray) -> None:
    """Raise for a parallel driver's first failure in the order played: (match, rotation, round)."""
    worst = errs[np.lexsort((errs[:, 2], errs[:, 0], errs[:, 1]))[0]]
    if worst[1] != NO_ERROR:
        _raise_illegal(seatings[int(worst[0])], worst[1:])


def _engine_args(run: _Setup) -> tuple:
    return (run.fns, run.params, run.model, len(run.seats), run.rules["beat"], run.rules["max_turns"])


@dataclass(frozen=True)
class _Seatings:
    """Several seatings of one table (a lineup's rotations) as the parallel drivers take them."""

    seed: int
    rules: dict
    seatings: list[list[Seat]]
    args: tuple  # fns, order, params, model, players, beat, max_turns


def _seatings(seatings: list[list[Seat]], seed: int, rules: dict | None, models: list[dict | None]) -> _Seatings:
    check_players(len(seatings[0]))
    rules = check_rules(rules or {})
    fns, order, params = rotation_arrays(seatings)
    model = np.stack([model_matrix([dict(s.model) for s in seats], over) for seats, over in zip(seatings, models)])
    return _Seatings(check_seed(seed), rules, seatings,
                     (fns, order, params, model, len(seatings[0]), rules["beat"], rules["max_turns"]))


def play(seats: list[Seat], rounds: int, seed: int, rules: dict | None = None, model: dict | None = None,
         first: int = 0, chunks: int = 1, progress: Callable[[int], None] | None = None) -> RoundResults:
    """Single rounds (round 0 of matches first..first+rounds-1) on all threads; identical for any
    `chunks`."""
    out = play_rotations([seats], rounds, seed, rules, [model], first, chunks, progress)
    return RoundResults(*(getattr(out, f.name)[0] for f in fields(RoundResults)))


def play_rotations(seatings: list[list[Seat]], rounds: int, seed: int, rules: dict | None = None,
                   models: list[dict | None] | None = None, first: int = 0, chunks: int = 1,
                   progress: Callable[[int], None] | None = None, tally: tuple | None = None) -> RoundResults:
    """`play` with each seating (the same deals replayed, the strategies moved round the table,
    each with its model overrides; the results' first axis), each round in every seating before
    the next. With a `tally` (simkit.stats.tally; its deal slots 0..rounds-1), each round is added to
    it as it is played."""
    run = _seatings(seatings, seed, rules, models or [None] * len(seatings))
    check_count(rounds, "rounds")
    out = _round_results((len(seatings), rounds))
    tally = Tally.off() if tally is None else tally
    for lo, hi in spans(rounds, chunks, progress):
        part = out if (lo, hi) == (0, rounds) else _round_results((len(seatings), hi - lo))
        errs = engine(seatings[0], play_rounds, *run.args, np.uint64(run.seed), first + lo, part.loser, part.reason,
                      part.turns, part.first_signal, blocks_for(hi - lo), slots(tally, lo, hi))
        _check_errors(seatings, errs)
        if part is not out:
            for f in fields(RoundResults):
                getattr(out, f.name)[:, lo:hi] = getattr(part, f.name)
    return out


def matches(seats: list[Seat], count: int, seed: int, rules: dict | None = None, model: dict | None = None,
            first: int = 0, max_rounds: int = DEFAULT_MAX_ROUNDS, chunks: int = 1,
            progress: Callable[[int], None] | None = None) -> MatchResults:
    """Z7: `count` matches, each dealt round after round until somebody has four letters;
    identical for any `chunks`."""
    check_count(count, "matches")
    parts = [_matches([seats], hi - lo, seed, rules, [model], first + lo, max_rounds, record=False,
                      tally=Tally.off(wide=True))[0]
             for lo, hi in spans(count, chunks, progress)]
    return MatchResults(*(np.concatenate([getattr(p, f.name)[0] for p in parts]) for f in fields(MatchResults)))


def match_rotations(seatings: list[list[Seat]], count: int, seed: int, rules: dict | None = None,
                    models: list[dict | None] | None = None, first: int = 0, max_rounds: int = DEFAULT_MAX_ROUNDS,
                    tally: tuple | None = None) -> MatchResults:
    """`matches` with each seating (the results' first axis), as `play_rotations`. With a
    `tally` (simkit.stats.tally, wide; its deal slots 0..count-1), each match is added to it, round by
    round, as it is played."""
    return _matches(seatings, count, seed, rules, models or [None] * len(seatings), first, max_rounds, record=False,
                    tally=Tally.off(wide=True) if tally is None else tally)[0]


def match_rounds(seats: list[Seat], count: int, seed: int, rules: dict | None = None, model: dict | None = None,
                 first: int = 0, max_rounds: int = DEFAULT_MAX_ROUNDS) -> tuple[MatchResults, RoundResults, np.ndarray]:
    """Matches as `matches`, and every round of them: rows offsets[m]..offsets[m+1]-1 of the
    RoundResults are the rounds of match first + m, in order. The matches are played twice
    (first to count their rounds), the price of knowing every round."""
    out, per_round, offsets = match_round_rotations([seats], count, seed, rules, [model], first, max_rounds)
    return (MatchResults(*(getattr(out, f.name)[0] for f in fields(MatchResults))), per_round,
            np.append(offsets[0], len(per_round.loser)))


def match_round_rotations(seatings: list[list[Seat]], count: int, seed: int, rules: dict | None = None,
                          models: list[dict | None] | None = None, first: int = 0,
                          max_rounds: int = DEFAULT_MAX_ROUNDS, tally: tuple | None = None
                          ) -> tuple[MatchResults, RoundResults, np.ndarray]:
    """`match_rounds` with each seating: the matches' results with the seating as their first
    axis; every round of them in one RoundResults, seating after seating: rows offsets[r, m]..
    are the rounds of match first + m in seating r."""
    return _matches(seatings, count, seed, rules, models or [None] * len(seatings), first, max_rounds, record=True,
                    tally=Tally.off(wide=True) if tally is None else tally)


def _matches(seatings, count, seed, rules, models, first, max_rounds, record, tally):
    run = _seatings(seatings, seed, rules, models)
    check_count(count, "matches")
    check_count(max_rounds, "max_rounds")
    n, rotations = len(seatings[0]), len(seatings)
    blocks = blocks_for(count)

    def play(offsets, per_round, tally):
        shape = (rotations, count)
        out = MatchResults(np.zeros(shape, np.int8), np.zeros(shape, np.int64), np.zeros(shape + (n,), np.int8),
                           np.zeros(shape + (len(REASONS),), np.int64))
        errs = engine(seatings[0], play_matches, *run.args, max_rounds, np.uint64(run.seed), first, out.donkey,
                      out.rounds, out.letters, out.reasons, offsets, per_round.loser, per_round.reason,
                      per_round.turns, per_round.first_signal, blocks, tally)
        _check_errors(seatings, errs)
        return out

    out = play(np.zeros((rotations, 0), np.int64), _round_results(0), Tally.off(wide=True) if record else tally)
    if not record:
        return out, None, None
    offsets = np.concatenate([[0], np.cumsum(out.rounds.ravel())]).astype(np.int64)
    per_round = _round_results(int(offsets[-1]))
    play(offsets[:-1].reshape(rotations, count).copy(), per_round, tally)
    return out, per_round, offsets[:-1].reshape(rotations, count)


def _round_results(shape) -> RoundResults:
    return RoundResults(np.zeros(shape, np.int8), np.zeros(shape, np.int8), np.zeros(shape, np.int32),
                        np.zeros(shape, np.int32))


LOG_CELLS = 2_000_000  # pass-log entries per call of the logged driver (16 MB)


def _logged(run: _Setup, keys: list[int], match: int, round0: int, letters: list[int], in_match: bool,
            dealt: np.ndarray | None = None) -> Iterator[dict]:
    """Rounds from `keys` through the compiled engine's logged driver, as trace records; in a
    match, round round0 + i with the letters so far (updated), stopping at the donkey."""
    count = len(keys)
    turns = max(run.rules["max_turns"], 1)
    deal_given = dealt is not None
    if not deal_given:
        dealt = np.zeros((count, MAX_PLAYERS, N_VALUES), np.int64)
    logs = np.zeros((count, turns, MAX_PLAYERS), np.int64)
    states = np.zeros((count, MAX_PLAYERS, STATE_WIDTH), np.int64)
    copies = np.zeros((count, MAX_PLAYERS), np.float64)
    outcomes = np.zeros((count, OUTCOME_SIZE), np.int64)
    err = np.zeros(1 + ERR_WIDTH, np.int64)
    held = np.zeros(MAX_PLAYERS, np.int64)
    held[: len(letters)] = letters
    played = engine(run.seats, play_logged, *_engine_args(run), np.array(keys, np.uint64), deal_given, in_match,
                    round0, held, dealt, logs, states, copies, outcomes, err)
    if played < 0:
        i = int(err[0])
        where = (match, round0 + i) if in_match else (match + i, round0)
        _raise_illegal(run.seats, np.concatenate([where, err[1:]]))
    labels = [s.label for s in run.seats]
    for i in range(played):
        after = list(letters)
        if outcomes[i, LOSER] >= 0:
            after[outcomes[i, LOSER]] += 1
        if in_match:
            letters = after
        where = (match, round0 + i) if in_match else (match + i, round0)
        yield round_record(run.seed, *where, run.rules, run.model_entry, labels, dealt[i], logs[i], states[i],
                           copies[i], outcomes[i], after)


def _chunk(run: _Setup) -> int:
    """Rounds per call of the logged driver: each call costs ~1 ms to type the lineup."""
    return max(1, min(256, LOG_CELLS // (max(run.rules["max_turns"], 1) * MAX_PLAYERS)))


def traces(seats: list[Seat], rounds: int, seed: int, rules: dict | None = None, model: dict | None = None,
           first: int = 0) -> Iterator[dict]:
    """Trace records of the single rounds `play` plays (round 0 of matches first..)."""
    run = _setup(seats, seed, rules, model)
    zero = [0] * len(seats)
    step = _chunk(run)
    for lo in range(first, first + rounds, step):
        hi = min(lo + step, first + rounds)
        yield from _logged(run, [py_hand_state(py_match_seed(run.seed, m), 0) for m in range(lo, hi)], lo, 0, zero,
                           in_match=False)


def match_traces(seats: list[Seat], count: int, seed: int, rules: dict | None = None, model: dict | None = None,
                 first: int = 0, max_rounds: int = DEFAULT_MAX_ROUNDS) -> Iterator[dict]:
    """Trace records of every round of matches first..first+count-1, as `matches` plays them."""
    run = _setup(seats, seed, rules, model)
    step = _chunk(run)
    for m in range(first, first + count):
        ms = py_match_seed(run.seed, m)
        letters = [0] * len(seats)
        j = 0
        while j < max_rounds and max(letters) < DONKEY_AT:
            keys = [py_hand_state(ms, r) for r in range(j, min(j + step, max_rounds))]
            for record in _logged(run, keys, m, j, letters, in_match=True):
                letters = record["letters"]
                j += 1
                yield record


def check_deal(deal: list[list[int]], players: int) -> np.ndarray:
    """Z1, Z2: a deal as lists of values -> 13 counts per seat; every value 0..n-1 four times."""
    if len(deal) != players or any(len(h) != HAND_SIZE for h in deal):
        raise SimkitError(f"a deal for {players} players is {players} hands of {HAND_SIZE} values")
    hands = np.zeros((MAX_PLAYERS, N_VALUES), np.int64)
    for s, cards in enumerate(deal):
        for v in cards:
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or not 0 <= v < players:
                raise SimkitError(f"a deal for {players} players holds values 0..{players - 1}, got {v!r}")
            hands[s, v] += 1
    if any(hands[:, v].sum() != CARDS_PER_VALUE for v in range(players)):
        raise SimkitError(f"a deal holds every value exactly {CARDS_PER_VALUE} times")
    return hands


def play_deal(seats: list[Seat], deal: list[list[int]], rules: dict | None = None, model: dict | None = None,
              key: int = 0, letters: list[int] | None = None, round_no: int = 0) -> dict:
    """Play one given deal through the compiled engine; its trace record. The round's generator
    and the seats' streams start from `key`; `letters` are the letters before the round."""
    run = _setup(seats, 0, rules, model)
    hands = check_deal(deal, len(seats))
    letters = list(letters or [0] * len(seats))
    return next(_logged(run, [key], 0, round_no, letters, in_match=True, dealt=hands[None]))
