"""The reference engine: Who's the Ass? in plain, readable Python — the executable rulebook.

Slow on purpose and independent of the compiled engine (its own deal, its own legality checks
over lists of cards), so that the two can be compared move by move on the same deals. It calls
the same decision functions, building the same public view from its own state.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from simkit.core.errors import IllegalMove
from simkit.core.rng import PyRng, py_hand_state, py_match_seed, py_seat_state
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.action import PASS, cards_of, describe
from simkit.games.whos_the_ass.hand import with_held
from simkit.games.whos_the_ass.rules import (
    ASS,
    ASS_WINDOW,
    CARDS_PER_PLAYER,
    COPIES_PER_NUMBER,
    GAME,
    JOKER,
    N_JOKERS,
    ass_joker_code,
    ass_joker_values,
    check_players,
)
from simkit.games.whos_the_ass.strategy import SEES_ALL, lineup_arrays

# decider(seat, own hand row: 15 counts and HELD (every seat's, one after another, for one that `sees_all`), public
# view) -> action
Decider = Callable[[int, np.ndarray, np.ndarray], int]
PENALTY_POINTS = {ASS: 20, JOKER: 14, **{v: v for v in range(1, 14)}}  # W17


def deal(seed: int, index: int, players: int) -> tuple[list[list[int]], int]:
    """W4, W5: shuffle the 109 cards, insert the ass among the top 39, deal one by one.
    Returns the hands and the hand's key (the seats' random streams derive from it)."""
    check_players(players)
    key = py_hand_state(seed, index)
    rng = PyRng(key)
    stack = [v for v in range(1, 14) for _ in range(COPIES_PER_NUMBER)] + [JOKER] * N_JOKERS
    dealt = players * CARDS_PER_PLAYER[players]
    words = rng.words32()
    for i in range(dealt - 1):  # Fisher–Yates, only as far as the cards that will be dealt
        j = i + (next(words) * (len(stack) - i) >> 32)
        stack[i], stack[j] = stack[j], stack[i]
    stack.insert(next(words) * ASS_WINDOW >> 32, ASS)
    hands = [[] for _ in range(players)]
    for k in range(dealt):
        hands[k % players].append(stack[k])
    return [sorted(h) for h in hands], key


@dataclass
class Hand:
    """The state of one hand in progress."""

    players: int
    ass_joker: str
    hands: list[list[int]]
    scores: list[int]
    discarded: list[int] = field(default_factory=list)
    table: list[int] = field(default_factory=list)
    played: dict[int, int | None] = field(default_factory=dict)  # seat -> value, None = pass
    tricks: list[dict] = field(default_factory=list)
    history: list[int] = field(default_factory=list)  # every action taken, in order
    first_leader: int = -1

    def ass_holder(self) -> int:
        return next((s for s, h in enumerate(self.hands) if ASS in h), -1)

    def view(self, seat, phase, leader, count=0, top=-1, top_seat=-1, may_lead_ass=False):
        """The public view for `seat`, slot for slot as the compiled engine keeps it."""
        v = np.zeros(V.SIZE, dtype=np.int64)
        v[V.PLAYERS], v[V.SEAT], v[V.PHASE], v[V.LEADER] = self.players, seat, phase, leader
        v[V.COUNT], v[V.TOP], v[V.TOP_SEAT] = count, top, top_seat
        v[V.ASS_HOLDER] = self.ass_holder()
        v[V.MAY_LEAD_ASS] = int(may_lead_ass)
        v[V.ASS_JOKER] = ass_joker_code(self.ass_joker)
        v[V.TRICK] = len(self.tricks)
        v[V.FIRST_LEADER] = self.first_leader
        v[V.HISTORY_LEN] = len(self.history)
        v[V.HISTORY:V.HISTORY + len(self.history)] = self.history
        for s in range(self.players):
            v[V.HAND_SIZES + s] = len(self.hands[s])
            v[V.SCORES + s] = self.scores[s]
            p = self.played.get(s, "not yet")
            v[V.PLAYED + s] = V.NOT_ACTED if p == "not yet" else V.PASSED if p is None else p
        for c in self.discarded:
            v[V.DISCARDED + c] += 1
        for c in self.table:
            v[V.TABLE + c] += 1
        return v

    def counts(self, seat) -> np.ndarray:
        """The seat's hand as strategies receive it: 15 counts and the HELD mask."""
        return with_held(np.bincount(np.array(self.hands[seat], dtype=np.int64), minlength=15))

    def ask(self, decide: Decider, seat: int, view: np.ndarray) -> tuple[int, list[int], int]:
        """The seat's action, with the cards it plays and their value ([] and -1 for a pass). A
        decider that sees all (`sees_all`, the engine's SEES_ALL slot) gets every seat's counts."""
        hand = np.concatenate([self.counts(s) for s in range(len(self.hands))]) \
            if getattr(decide, "sees_all", False) else self.counts(seat)
        action = int(decide(seat, hand, view))
        self.history.append(action)  # an illegal one ends the hand, and the history with it
        if action == PASS:
            return action, [], -1
        value, numbers = action & 15, (action >> 4) & 15
        if not 0 <= action < 4096 or value > 14 or (value == 14 and numbers > 0):
            return action, [ASS, ASS], -1  # no such play (no number card is worth 14): rejected below
        cards, value = cards_of(action)
        return action, cards, value

    def holds(self, seat, cards) -> bool:
        hand = list(self.hands[seat])
        for c in cards:
            if c not in hand:
                return False
            hand.remove(c)
        return True

    def put_on_table(self, seat, cards, value):
        for c in cards:
            self.hands[seat].remove(c)
        self.table.extend(cards)
        self.played[seat] = value


def is_set(cards: list[int], value: int) -> bool:
    """W7, W8: one or more cards of one number value, jokers standing in; jokers alone = 14."""
    if not cards or ASS in cards:
        return False
    numbers = {c for c in cards if c != JOKER}
    if len(numbers) > 1:
        return False
    return value == (numbers.pop() if numbers else 14)


def play_hand(hands: list[list[int]], deciders: list[Decider], ass_joker: str = "1or14",
              scores: list[int] | None = None, labels: list[str] | None = None,
              hand_index: int = 0) -> dict:
    """Play a dealt hand to its end; returns the trace's `tricks`, `final_hands`, `penalties`."""
    n = len(hands)
    state = Hand(n, ass_joker, [sorted(h) for h in hands], list(scores or [0] * n))
    leader = state.ass_holder()  # W6
    state.first_leader = leader
    after_ass_trick = False
    labels = labels or [f"seat {s}" for s in range(n)]

    def illegal(seat, action, why):
        raise IllegalMove(
            f"strategy {labels[seat]!r} at seat {seat} made an illegal move in hand {hand_index}, "
            f"trick {len(state.tricks)}: {describe(action)} ({why})"
        )

    while True:
        state.table, state.played = [], {}
        may_lead_ass = ASS in state.hands[leader] and not after_ass_trick  # W6, W15
        view = state.view(leader, V.LEAD, leader, may_lead_ass=may_lead_ass)
        action, cards, value = state.ask(deciders[leader], leader, view)
        if action == PASS:
            illegal(leader, action, "the leader may not pass (W7)")
        if not state.holds(leader, cards):
            illegal(leader, action, "cards not in hand")
        order = [(leader + i) % n for i in range(n)]
        plays = [{"seat": leader, "cards": cards, "value": value}]
        if cards == [ASS]:
            # W11-W15: the ass trick
            if value != 0 or not may_lead_ass:
                illegal(leader, action, "the ass may not be led now (W15)")
            state.put_on_table(leader, cards, 0)
            top, taker = 0, leader
            for seat in order[1:]:
                view = state.view(seat, V.ASS_TRICK, leader, top=top, top_seat=taker)
                action, cards, value = state.ask(deciders[seat], seat, view)
                allowed = (len(cards) == 1 and state.holds(seat, cards) and (
                    (cards[0] == JOKER and value in ass_joker_values(ass_joker))
                    or (1 <= cards[0] <= 13 and value == cards[0])))
                if not allowed:
                    illegal(seat, action, "an ass trick takes exactly one number card or joker (W12, W13)")
                state.put_on_table(seat, cards, value)
                plays.append({"seat": seat, "cards": cards, "value": value})
                if value >= top:  # W14: the last of equal highest values takes
                    top, taker = value, seat
            state.hands[taker] = sorted(state.hands[taker] + state.table)
            state.tricks.append({"kind": "ass", "leader": leader, "plays": plays, "taker": taker})
            leader, after_ass_trick = taker, True
        else:
            # W7-W10: the normal trick
            if not is_set(cards, value):
                illegal(leader, action, "a lead is a set of one value (W7, W8)")
            state.put_on_table(leader, cards, value)
            count, top, winner = len(cards), value, leader
            for seat in order[1:]:
                view = state.view(seat, V.FOLLOW, leader, count=count, top=top, top_seat=winner)
                action, cards, value = state.ask(deciders[seat], seat, view)
                if action == PASS:  # W9: passing is always allowed
                    state.played[seat] = None
                    plays.append({"seat": seat, "pass": True})
                    continue
                if not (is_set(cards, value) and len(cards) == count and value > top
                        and state.holds(seat, cards)):
                    illegal(seat, action, f"a raise is {count} card(s) as one set above {top} (W9)")
                state.put_on_table(seat, cards, value)
                plays.append({"seat": seat, "cards": cards, "value": value})
                top, winner = value, seat
            state.discarded.extend(state.table)  # W10
            state.tricks.append({"kind": "normal", "leader": leader, "plays": plays, "winner": winner})
            leader, after_ass_trick = winner, False
        if any(not h for h in state.hands):  # W16
            break
    return {
        "tricks": state.tricks,
        "final_hands": [sorted(h) for h in state.hands],
        "penalties": [sum(PENALTY_POINTS[c] for c in h) for h in state.hands],  # W17
    }


def compiled_deciders(seats, key: int, hand_no: int = 0) -> list[Decider]:
    """Wrap compiled strategies as deciders, each seat with its own random stream from `key`."""
    states = [np.array([py_seat_state(key, s)], dtype=np.uint64) for s in range(len(seats))]

    def numbered(view):
        view[V.HAND_NO] = hand_no
        return view

    def decider(strategy, params):
        def decide(seat, hand, view):
            return strategy.decide(hand, numbered(view), params, states[seat])

        decide.sees_all = bool(params[SEES_ALL])
        return decide

    return [decider(s, p) for s, p in zip(seats, lineup_arrays(seats)[1])]


def trace_hand(seed: int, index: int, seats, rules: dict) -> dict:
    """Deal hand `index` of a run and play it with the given seats; the full trace record."""
    n = len(seats)
    hands, key = deal(seed, index, n)
    played = play_hand(hands, compiled_deciders(seats, key), rules["ass_joker"],
                       labels=[s.label for s in seats], hand_index=index)
    return {"game": GAME, "format": 1, "seed": seed, "hand": index, "players": n,
            "rules": dict(rules), "strategies": [s.label for s in seats], "deal": hands, **played}


def play_match(seed: int, match: int, seats, rules: dict, hands: int = 0, threshold: int = 0) -> dict:
    """W18: a match of `hands` hands, or until some total reaches `threshold`; seats keep their
    places and every hand is dealt afresh. Lowest total wins, equal lowest share the win."""
    n = len(seats)
    match_seed = py_match_seed(seed, match)
    totals = [0] * n
    played = 0
    while True:
        dealt, key = deal(match_seed, played, n)
        result = play_hand(dealt, compiled_deciders(seats, key, hand_no=played), rules["ass_joker"],
                           scores=totals, labels=[s.label for s in seats], hand_index=played)
        totals = [t + p for t, p in zip(totals, result["penalties"])]
        played += 1
        if (hands and played >= hands) or (threshold and max(totals) >= threshold):
            break
    best = min(totals)
    return {"totals": totals, "hands": played, "winners": [s for s in range(n) if totals[s] == best]}
