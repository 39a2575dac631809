"""The reference engine: Ezelen in plain, readable Python — the executable rulebook.

Slow on purpose and independent of the compiled engine (its own deal, its own rules over lists
of values), so that the two can be compared move by move. It calls the same decision functions,
with views it builds from its own state, and makes the same draws in the same order (listed in
simkit/games/ezelen/engine.py), so both write the same trace record.

Where the rules leave room, both engines follow the readings listed in docs/rules/ezelen.md
(section "Readings"): the rulebook keeps them in one place, with the rule ids the tests cite.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from simkit.core.errors import IllegalMove
from simkit.core.rng import PyRng, py_hand_state, py_match_seed, py_seat_state
from simkit.games.ezelen import view as V
from simkit.games.ezelen.model import PARAMETERS, model_matrix, model_record
from simkit.games.ezelen.rules import CARDS_PER_VALUE, DONKEY_AT, GAME, N_VALUES, check_players
from simkit.games.ezelen.strategy import MEMORY_SIZE, lineup_arrays

# decider(seat, own hand as 13 counts, view) -> the value to pass
Decider = Callable[[int, np.ndarray, np.ndarray], int]


def deal(key: int, players: int) -> tuple[list[list[int]], PyRng]:
    """Z1, Z2: shuffle the 4n cards (Fisher–Yates from the round's key) and deal them one by one.
    Returns the hands and the round's generator, which goes on to make the model's draws."""
    check_players(players)
    rng = PyRng(key)
    stack = [v for v in range(players) for _ in range(CARDS_PER_VALUE)]
    for i in range(len(stack) - 1):
        j = i + rng.below(len(stack) - i)
        stack[i], stack[j] = stack[j], stack[i]
    hands = [[] for _ in range(players)]
    for k, value in enumerate(stack):
        hands[k % players].append(value)
    return [sorted(h) for h in hands], rng


@dataclass
class Player:
    """One player's state in a round."""

    hand: list[int]
    model: dict[str, float]
    received: list[int] = field(default_factory=lambda: [0] * N_VALUES)
    passed: list[int] = field(default_factory=lambda: [0] * N_VALUES)
    last_received: int = -1
    signal_turn: int | None = None
    notice_turn: int | None = None
    copy_time: float = math.inf  # when the player copies (or copied) the signal
    faults: list[int] = field(default_factory=list)

    def holds_set(self) -> bool:
        return len(set(self.hand)) == 1

    def knows(self) -> bool:
        """Signalled or noticed: M6 (3) waits for everybody to know."""
        return self.signal_turn is not None or self.notice_turn is not None


@dataclass
class Round:
    """The state of one round in progress."""

    players: list[Player]
    rules: dict
    rng: PyRng
    round_no: int = 0
    letters: list[int] = field(default_factory=list)
    turns: list[list[int]] = field(default_factory=list)
    first_signal: int | None = None

    def view(self, seat: int) -> np.ndarray:
        """What `seat` knows, slot for slot as the compiled engine keeps it."""
        p = self.players[seat]
        v = np.zeros(V.SIZE, dtype=np.int64)
        v[V.PLAYERS], v[V.SEAT], v[V.TURN] = len(self.players), seat, len(self.turns)
        v[V.LAST_RECEIVED], v[V.ROUND] = p.last_received, self.round_no
        v[V.RECEIVED:V.RECEIVED + N_VALUES] = p.received
        v[V.PASSED:V.PASSED + N_VALUES] = p.passed
        v[V.LETTERS:V.LETTERS + len(self.letters)] = self.letters
        return v

    def signals(self, t: int, now: float) -> None:
        """M6 (1), Z4, M3."""
        for p in self.players:
            if p.copy_time > now and p.holds_set():
                p.signal_turn = t
                p.copy_time = min(now, p.copy_time)
                if self.first_signal is None:
                    self.first_signal = t

    def noticing(self, t: int, now: float) -> None:
        """M6 (2), M2, M3."""
        copied = sum(p.copy_time <= now for p in self.players)
        for p in self.players:
            if not p.knows():
                m = p.model
                chance = min(m["attention"] * (m["base_notice"] + m["cascade"] * copied), 1.0)
                if self.rng.uniform() < chance:
                    p.notice_turn = t
                    p.copy_time = now + m["reaction_median"] * math.exp(m["reaction_sigma"] * self.rng.normal())

    def last_to_copy(self) -> int | None:
        """Z5: the latest copy loses, a late signal too; a tie only if two or more signallers share it."""
        latest = max(p.copy_time for p in self.players)
        last = [s for s, p in enumerate(self.players) if p.copy_time == latest]
        if len(last) > 1 and all(self.players[s].signal_turn is not None for s in last):
            return None
        return last[self.rng.below(len(last))] if len(last) > 1 else last[0]

    def tempo(self, t: int) -> int | None:
        """M6 (5), M4, Z6: the player out of tempo a second time loses."""
        second = []
        for s, p in enumerate(self.players):
            if not p.knows() and self.rng.uniform() < p.model["tempo_fault"]:
                p.faults.append(t)
                if len(p.faults) == 2:
                    second.append(s)
        if not second:
            return None
        return second[self.rng.below(len(second))] if len(second) > 1 else second[0]

    def passes(self, t: int, deciders: list[Decider], labels: list[str], where: str) -> None:
        """M6 (6), Z3, Z4: everybody passes at once; a signaller passes on what arrives."""
        n = len(self.players)
        chosen: list[int | None] = [None] * n
        for s, p in enumerate(self.players):
            if p.signal_turn is None:
                hand = np.bincount(np.array(p.hand, dtype=np.int64), minlength=N_VALUES).astype(np.int64)
                value = int(deciders[s](s, hand, self.view(s)))
                if value not in p.hand:
                    why = "which it does not hold" if 0 <= value < n else f"values are 0..{n - 1}"
                    raise IllegalMove(
                        f"strategy {labels[s]!r} at seat {s} made an illegal move in {where}, turn {t}: passed value "
                        f"{value}, {why} (Z3: a player passes one of its own cards)")
                chosen[s] = value

        def passed_by(s: int) -> int:
            return chosen[s] if chosen[s] is not None else passed_by((s - 1) % n)

        passing = [passed_by(s) for s in range(n)]
        for s, p in enumerate(self.players):
            arriving = passing[(s - 1) % n]
            p.hand = sorted(p.hand + [arriving])
            p.hand.remove(passing[s])
            p.passed[passing[s]] += 1
            p.received[arriving] += 1
            p.last_received = arriving
        self.turns.append(passing)

    def play(self, deciders: list[Decider], labels: list[str], where: str) -> tuple[int | None, str]:
        """M6: beat after beat until the round ends; (loser or None, loss reason)."""
        beat, max_turns = self.rules["beat"], self.rules["max_turns"]
        t = 0
        while True:
            now = t * beat
            self.signals(t, now)
            if self.first_signal is not None and t > self.first_signal:
                self.noticing(t, now)
            if all(p.knows() for p in self.players):
                loser = self.last_to_copy()
                return loser, "last" if loser is not None else "tie"
            if t == max_turns:
                return None, "stalled"
            loser = self.tempo(t)
            if loser is not None:
                return loser, "tempo"
            self.passes(t, deciders, labels, where)
            t += 1

    def record(self, loser: int | None, reason: str) -> dict:
        """The trace's keys for what happened in the round."""
        n = len(self.players)
        end = math.inf if reason in ("last", "tie") else len(self.turns) * self.rules["beat"]
        copies = sorted((p.copy_time, s) for s, p in enumerate(self.players) if p.copy_time <= end)
        letters = list(self.letters)
        if loser is not None:
            letters[loser] += 1
        return {
            "turns": self.turns,
            "signals": [{"seat": s, "turn": t} for t, s in sorted(
                (p.signal_turn, s) for s, p in enumerate(self.players) if p.signal_turn is not None)],
            "notices": [{"seat": s, "turn": t} for t, s in sorted(
                (p.notice_turn, s) for s, p in enumerate(self.players) if p.notice_turn is not None)],
            "copies": [{"seat": s, "time": time} for time, s in copies],
            "tempo_faults": [{"seat": s, "turn": t} for t, s in sorted(
                (t, s) for s in range(n) for t in self.players[s].faults)],
            "loser": loser, "loss_reason": reason, "letters": letters,
        }


def seat_models(seats, overrides: dict | None) -> list[dict[str, float]]:
    """M8: each seat's model values (defaults, its strategy's profile, the caller's overrides)."""
    matrix = model_matrix([dict(s.model) for s in seats], overrides)
    return [{name: float(matrix[s, column]) for name, (column, *_) in PARAMETERS.items()} for s in range(len(seats))]


def compiled_deciders(seats, key: int) -> list[Decider]:
    """Wrap compiled strategies as deciders, each seat with its own random stream from `key` and
    its own memory, zeroed for the round."""
    states = [np.array([py_seat_state(key, s)], dtype=np.uint64) for s in range(len(seats))]
    memories = [np.zeros(MEMORY_SIZE, dtype=np.int64) for _ in seats]
    params = lineup_arrays(seats)[1]
    return [(lambda seat, hand, view, s=s: s.decide(hand, view, params[seat], memories[seat], states[seat]))
            for s in seats]


def play_round(hands: list[list[int]], seats, rules: dict, model: dict | None, rng: PyRng, key: int,
               letters: list[int] | None = None, round_no: int = 0, where: str = "match 0, round 0",
               deciders: list[Decider] | None = None) -> dict:
    """Play a dealt round; returns the trace's keys from `turns` on. `rng` is the round's
    generator after the deal; the seats' streams come from `key`; `deciders` (default: the
    seats' compiled strategies) may be replaced by plain Python functions in tests."""
    n = len(hands)
    models = seat_models(seats, model)
    state = Round([Player(sorted(h), models[s]) for s, h in enumerate(hands)], rules, rng, round_no,
                  list(letters or [0] * n))
    labels = [s.label for s in seats]
    loser, reason = state.play(deciders or compiled_deciders(seats, key), labels, where)
    return state.record(loser, reason)


def header(seed: int, match: int, round_no: int, seats, rules: dict, model: dict | None) -> dict:
    n = len(seats)
    return {"game": GAME, "format": 1, "seed": seed, "match": match, "round": round_no, "players": n,
            "strategies": [s.label for s in seats], "rules": dict(rules),
            "model": model_record(model_matrix([dict(s.model) for s in seats], model), n)}


def trace_round(seed: int, match: int, round_no: int, seats, rules: dict, model: dict | None = None,
                letters: list[int] | None = None) -> dict:
    """Deal round `round_no` of match `match` of a run and play it; the full trace record."""
    key = py_hand_state(py_match_seed(seed, match), round_no)
    hands, rng = deal(key, len(seats))
    played = play_round(hands, seats, rules, model, rng, key, letters, round_no, f"match {match}, round {round_no}")
    return {**header(seed, match, round_no, seats, rules, model), "deal": hands, **played}


def play_match(seed: int, match: int, seats, rules: dict, model: dict | None = None,
               max_rounds: int = 100_000) -> list[dict]:
    """Z7: rounds dealt again and again until somebody spells E-Z-E-L; every round's record."""
    letters = [0] * len(seats)
    records = []
    for round_no in range(max_rounds):
        records.append(trace_round(seed, match, round_no, seats, rules, model, letters))
        letters = records[-1]["letters"]
        if max(letters) == DONKEY_AT:
            break
    return records
