"""Many hands at once through the compiled engine: arrays for statistics, records for traces."""

from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np

from simkit.core.blocks import blocks_for, spans
from simkit.core.errors import IllegalMove, SimkitError, check_count
from simkit.core.rng import check_seed
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.action import describe
from simkit.games.whos_the_ass.alone import alone as playing_alone
from simkit.games.whos_the_ass.driver import NO_ERROR, play_dealt, play_hands, play_matches, trace_hands
from simkit.games.whos_the_ass.engine import ILLEGAL, LOG_WIDTH, MAX_TRICKS
from simkit.games.whos_the_ass.hand import HAND_WIDTH
from simkit.games.whos_the_ass.rules import MAX_PLAYERS, ass_joker_code, check_players, check_rules
from simkit.games.whos_the_ass.strategy import Seat, lineup_arrays, rotation_arrays
from simkit.games.whos_the_ass.trace import hand_record
from simkit.stats.deal_fold import DealFold, fold_blocks
from simkit.stats.tally import Tally, slots
from simkit.strategies.decisions import engine

_WHY = {
    V.LEAD: "a lead is a set of one value held in hand, or the ass when it may be led (W7, W8, W15)",
    V.FOLLOW: "a follower passes or raises with the trick's number of cards, higher (W9)",
    V.ASS_TRICK: "an ass trick takes exactly one number card or allowed joker (W12, W13)",
}

# A match played to a threshold has no set length: for deciding whether a run is long enough to
# compile a one-strategy table into the loop (simkit.games.whos_the_ass.alone), a match counts as at
# least this many hands. A policy guess only; results do not depend on it.
HANDS_PER_MATCH_GUESS = 10


@dataclass
class HandResults:
    """Per-hand outcomes, row r = hand first + r."""

    penalties: np.ndarray  # int16 [hands, players], W17
    tricks: np.ndarray     # int16 [hands]
    ass_end: np.ndarray    # int8 [hands], the seat holding the ass at the end


def _check(rotations: list[list[Seat]], errs: np.ndarray) -> None:
    """Raise for the first failure of an engine call, in (hand, rotation) order."""
    worst = errs[np.lexsort((errs[:, 0], errs[:, 1]))[0]]
    if worst[1] != NO_ERROR:
        _raise_illegal(rotations[int(worst[0])], worst[1:])


def _raise_illegal(seats: list[Seat], row: np.ndarray) -> None:
    hand, status, seat, trick, action, phase = (int(x) for x in row)
    if status != ILLEGAL:
        raise SimkitError(f"hand {hand} did not end within {MAX_TRICKS} tricks (engine fault)")
    origin = f" ({seats[seat].origin})" if seats[seat].origin else ""
    raise IllegalMove(
        f"strategy {seats[seat].label!r}{origin} at seat {seat} made an illegal move in hand {hand}, "
        f"trick {trick}: {describe(action)} ({_WHY[phase]})"
    )


def _validated(seats: list[Seat], seed: int, rules: dict) -> tuple[int, dict]:
    check_players(len(seats))
    return check_seed(seed), check_rules(rules)


def play(seats: list[Seat], hands: int, seed: int, rules: dict | None = None, first: int = 0,
         chunks: int = 1, progress: Callable[[int], None] | None = None, alone: bool | None = None) -> HandResults:
    """Play hands first..first+hands-1 on all threads; identical for any `chunks`."""
    out = play_rotations([seats], hands, seed, rules, first, chunks, progress, alone=alone)
    return HandResults(out.penalties[0], out.tricks[0], out.ass_end[0])


def play_rotations(rotations: list[list[Seat]], hands: int, seed: int, rules: dict | None = None, first: int = 0,
                   chunks: int = 1, progress: Callable[[int], None] | None = None,
                   tally: tuple | None = None, alone: bool | None = None, fold: tuple | None = None) -> HandResults:
    """Play hands first..first+hands-1 with each seating of `rotations` (the same deals replayed,
    the strategies moved round the table; the results' first axis), on all threads, each deal in
    every seating before the next; identical for any `chunks`. With a `tally` (simkit.stats.tally; its
    deal slots 0..hands-1), each hand is added to it as it is played. A table of one strategy
    plays it written into the loop on long runs, or as `alone` says (simkit.games.whos_the_ass.alone):
    the same results. With a `fold` (simkit.stats.deal_fold.DealFold's arrays: a spec's `by`),
    each deal is added to it as it is played."""
    seed, rules = _validated(rotations[0], seed, rules or {})
    check_count(hands, "hands")
    n, count = len(rotations[0]), len(rotations)
    fns, order, params = rotation_arrays(rotations)
    whole, by_whole = playing_alone(rotations, hands * count, alone)
    code = ass_joker_code(rules["ass_joker"])
    out = HandResults(np.zeros((count, hands, n), np.int16), np.zeros((count, hands), np.int16),
                      np.zeros((count, hands), np.int8))
    tally = Tally.off() if tally is None else tally
    fold = DealFold.off() if fold is None else fold
    for lo, hi in spans(hands, chunks, progress):
        part = out if (lo, hi) == (0, hands) else HandResults(*(np.zeros((count, hi - lo) + a.shape[2:], a.dtype)
                                                                  for a in (out.penalties, out.tricks, out.ass_end)))
        errs = engine(rotations[0], play_hands, fns, order, params, whole, by_whole, n, code, np.uint64(seed),
                      first + lo,
                      part.penalties, part.tricks, part.ass_end, fold, fold_blocks(fold, blocks_for(hi - lo)),
                      slots(tally, lo, hi))
        _check(rotations, errs)
        if part is not out:
            out.penalties[:, lo:hi], out.tricks[:, lo:hi], out.ass_end[:, lo:hi] = part.penalties, part.tricks, \
                part.ass_end
    return out


def traces(seats: list[Seat], hands: int, seed: int, rules: dict | None = None, first: int = 0,
           chunk: int = 256) -> Iterator[dict]:
    """Trace records of hands first.., recorded by the compiled engine's own trick log."""
    seed, rules = _validated(seats, seed, rules or {})
    n = len(seats)
    fns, params = lineup_arrays(seats)
    code = ass_joker_code(rules["ass_joker"])
    labels = [s.label for s in seats]
    for lo in range(0, hands, chunk):
        m = min(chunk, hands - lo)
        deals = np.zeros((m, MAX_PLAYERS, HAND_WIDTH), np.int64)
        finals = np.zeros_like(deals)
        logs = np.zeros((m, MAX_TRICKS, LOG_WIDTH), np.int64)
        tricks = np.zeros(m, np.int64)
        err = np.full(6, NO_ERROR, np.int64)
        engine(seats, trace_hands, fns, params, n, code, np.uint64(seed), first + lo, deals, finals, logs, tricks, err)
        if err[0] != NO_ERROR:
            _raise_illegal(seats, err)
        for r in range(m):
            yield hand_record(seed, first + lo + r, rules, labels, deals[r], finals[r], logs[r], int(tricks[r]))


@dataclass
class MatchResults:
    """Per-match outcomes (W18), row r = match first + r."""

    totals: np.ndarray   # int64 [matches, players]: penalty totals
    hands: np.ndarray    # int64 [matches]: hands played

    def win_shares(self) -> np.ndarray:
        """Each seat's share of each match's win: lowest total wins, equal lowest share it."""
        best = self.totals == self.totals.min(axis=-1, keepdims=True)
        return best / best.sum(axis=-1, keepdims=True)


def matches(seats: list[Seat], count: int, seed: int, rules: dict | None = None, hands: int = 0,
            threshold: int = 0, first: int = 0, alone: bool | None = None) -> MatchResults:
    """Play `count` matches of `hands` hands each, or each until a total reaches `threshold`."""
    out = match_rotations([seats], count, seed, rules, hands, threshold, first, alone=alone)
    return MatchResults(out.totals[0], out.hands[0])


def match_rotations(rotations: list[list[Seat]], count: int, seed: int, rules: dict | None = None, hands: int = 0,
                    threshold: int = 0, first: int = 0, tally: tuple | None = None,
                    alone: bool | None = None) -> MatchResults:
    """`matches` with each seating of `rotations` (the results' first axis), as `play_rotations`
    (with a `tally`, each match added to it as deal slot 0..count-1)."""
    seed, rules = _validated(rotations[0], seed, rules or {})
    check_count(count, "matches")
    if (hands > 0) == (threshold > 0) or hands < 0 or threshold < 0:
        raise SimkitError("a match needs either a positive number of hands or a positive threshold")
    fns, order, params = rotation_arrays(rotations)
    whole, by_whole = playing_alone(rotations, count * len(rotations) * max(hands, HANDS_PER_MATCH_GUESS), alone)
    n = len(rotations[0])
    out = MatchResults(np.zeros((len(rotations), count, n), np.int64), np.zeros((len(rotations), count), np.int64))
    errs = engine(rotations[0], play_matches, fns, order, params, whole, by_whole, n,
                  ass_joker_code(rules["ass_joker"]),
                  np.uint64(seed), first, hands, threshold, out.totals, out.hands, blocks_for(count),
                  Tally.off(wide=True) if tally is None else tally)
    _check(rotations, errs)
    return out


def play_deal(seats: list[Seat], deal: list[list[int]], rules: dict | None = None, rng_state: int = 0,
              seed: int = 0, index: int = 0) -> dict:
    """Play one given deal (lists of card codes) through the compiled engine; the trace record."""
    _, rules = _validated(seats, 0, rules or {})
    n = len(seats)
    hands = np.zeros((MAX_PLAYERS, HAND_WIDTH), np.int64)
    for s, cards in enumerate(deal):
        np.add.at(hands[s], np.asarray(cards, dtype=np.int64), 1)
    if hands[:, 0].sum() != 1:
        raise SimkitError("a deal needs exactly one ass")
    dealt = hands.copy()
    fns, params = lineup_arrays(seats)
    log = np.zeros((MAX_TRICKS, LOG_WIDTH), np.int64)
    err = np.zeros(5, np.int64)
    t = engine(seats, play_dealt, fns, params, n, ass_joker_code(rules["ass_joker"]), hands, np.uint64(rng_state),
               log, err)
    if t < 0:
        _raise_illegal(seats, np.concatenate([[index], err]))
    return hand_record(seed, index, rules, [s.label for s in seats], dealt, hands, log, t)
