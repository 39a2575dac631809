"""A hand of Who's the Ass? played one decision at a time from Python (`simkit play`): a person
at one seat, strategies at the others. Dealt and seeded as the engine deals and seeds a traced
hand (hand_state(seed, hand), each seat's own stream), every action checked by the engine's
`step`, so a finished hand is the trace record `simkit trace` would write for the same moves."""

import numpy as np

from simkit.core.errors import SimkitError
from simkit.core.rng import hand_state
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.action import short
from simkit.games.whos_the_ass.deal import STACK_DTYPE, STACK_SIZE, deal
from simkit.games.whos_the_ass.engine import ERR_WIDTH, LOG_WIDTH, MAX_TRICKS, seed_seats, start, step
from simkit.games.whos_the_ass.hand import HAND_WIDTH
from simkit.games.whos_the_ass.legal import nth_legal
from simkit.games.whos_the_ass.rules import MAX_PLAYERS, N_CODES, ass_joker_code
from simkit.games.whos_the_ass.trace import hand_record
from simkit.strategies.decisions import SEES_ALL, Seat, lineup_arrays


class Table:
    """Hand `index` of a run with `seed` at `len(seats)` seats; seats[s] decides for s, except the
    person's seat (`person`), whose moves come from outside (`play`). `scores` are the match's
    totals before this hand and `hand_no` its number in the match (W18): what the view shows."""

    def __init__(self, seats: list[Seat], person: int, seed: int, index: int, rules: dict,
                 scores: list[int] | None = None, hand_no: int = 0):
        self.seats, self.person, self.seed, self.index, self.rules = seats, person, seed, index, dict(rules)
        n = len(seats)
        self.hands = np.zeros((MAX_PLAYERS, HAND_WIDTH), np.int64)
        self.view = np.zeros(V.SIZE, np.int64)
        key = np.uint64(hand_state(np.uint64(seed), index))  # typed: a Python int past 2**63 fits no int64
        leader = deal(self.hands, np.zeros(STACK_SIZE, STACK_DTYPE), n, np.array([key], np.uint64))
        self.dealt = self.hands.copy()
        self.rngs = np.zeros((MAX_PLAYERS, 1), np.uint64)
        seed_seats(self.rngs, key, n)
        totals = np.zeros(MAX_PLAYERS, np.int64)
        totals[:n] = scores or [0] * n
        start(self.hands, self.view, n, ass_joker_code(self.rules["ass_joker"]), leader, totals, hand_no)
        self.log = np.zeros((MAX_TRICKS, LOG_WIDTH), np.int64)
        self.err = np.zeros(ERR_WIDTH, np.int64)
        self.tricks = 0
        self.choices = 0  # the person's decisions with a choice so far (`simkit play` counts them)
        self.params = lineup_arrays(seats, MAX_PLAYERS)[1]  # each seat's row, as the engine gives it

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def seat(self) -> int:
        """The seat to act."""
        return int(self.view[V.SEAT])

    @property
    def done(self) -> bool:
        return self.tricks > 0

    def hand(self, seat: int) -> np.ndarray:
        """Seat's cards by code (N_CODES counts)."""
        return self.hands[seat, :N_CODES].copy()

    def legal(self) -> list[int]:
        """The acting seat's legal actions, in the order `nth_legal` gives them (W8-W15)."""
        hand = self.hands[self.seat]
        return [int(nth_legal(hand, self.view, k)) for k in range(int(nth_legal(hand, self.view, -1)))]

    def names(self) -> list[str]:
        """The legal actions as `simkit show` writes them (action.short)."""
        return [short(a) for a in self.legal()]

    def decide(self) -> int:
        """What the acting seat's strategy plays (from its read-only view; a seat that sees all
        gets every hand, as in the engine)."""
        s = self.seat
        hand = (self.hands.reshape(-1) if self.params[s, SEES_ALL] != 0 else self.hands[s]).copy()
        view, params = self.view.copy(), self.params[s].copy()
        for a in (hand, view, params):
            a.setflags(write=False)
        try:
            return int(self.seats[s].decide(hand, view, params, self.rngs[s]))
        except Exception as e:  # a user's strategy that fails: one line naming it, as the engine's runs say
            raise SimkitError(f"seat {s}'s strategy {self.seats[s].label} failed: {type(e).__name__}: {e}") from None

    def play(self, action: int) -> None:
        """The acting seat plays `action` (checked: ValueError if illegal, the hand as it was)."""
        t = step(self.hands, self.view, np.int64(action), self.log, self.err)
        if t < 0:
            raise ValueError(f"illegal move {short(action)}")
        self.tricks = t

    def record(self, labels: list[str]) -> dict:
        """The finished hand as a trace record (docs/traces.md), seats labelled `labels`."""
        return hand_record(self.seed, self.index, self.rules, labels, self.dealt, self.hands, self.log, self.tricks)
