"""The reference engine: Eigenwijs in plain, readable Python — the executable rulebook.

Slow on purpose and independent of the compiled engine: its own deal, and its own reading of the
table (the majority colour, a tie, the word, the counts with chicks, Precies) written from
docs/rules/eigenwijs.md over plain lists, so that the two engines can be compared move by move.
It calls the same decision functions, with views it builds from its own state, and makes the same
draws in the same order (H8), so both write the same trace record (docs/traces.md, "Eigenwijs").

Where the rules leave room, both engines follow the readings listed in docs/rules/eigenwijs.md
(section "Readings"): the rulebook keeps them in one place, with the rule ids the tests cite.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from simkit.core.errors import IllegalMove
from simkit.core.rng import PyRng, py_hand_state, py_seat_state
from simkit.games.eigenwijs import view as V
from simkit.games.eigenwijs.model import PARAMETERS, model_matrix, model_record
from simkit.games.eigenwijs.rules import (
    BROKEN,
    CHICK,
    COUNT,
    EMPTY,
    GAME,
    IK,
    JIJ,
    JULLIE,
    MAX_COUNT,
    MAX_PILES,
    NIEMAND,
    NO_CALL,
    PRECIES,
    SLAP,
    WIJ,
    card_name,
    check_rules,
    check_table,
    deck,
    illegal_text,
    piles,
    response_is_legal,
    response_name,
    rotating_at,
)
from simkit.games.eigenwijs.strategy import lineup_arrays

# decider(view, params, rng) -> the response the seat means (H1), as a compiled strategy takes them
Decider = Callable[[np.ndarray, np.ndarray, np.ndarray], int]


# --- the cards (E2) ------------------------------------------------------------------------------

def colour_of(card: int) -> int | None:
    """The hen colour of a card (0 = red, 1 = yellow, …), None for a broken egg or a chick."""
    if card in (BROKEN, CHICK):
        return None
    return card // 8 - 1


def eggs_of(card: int) -> int:
    """The eggs a card shows: none on a broken egg or a chick (E6)."""
    if card in (BROKEN, CHICK):
        return 0
    return card % 8


# --- the deal (E2, E3, H8) -------------------------------------------------------------------------

def shuffle(cards: list[int], rng: PyRng) -> list[int]:
    """H8: Fisher–Yates from the top: swap card i with card i + below(cards - i)."""
    cards = list(cards)
    for i in range(len(cards) - 1):
        j = i + rng.below(len(cards) - i)
        cards[i], cards[j] = cards[j], cards[i]
    return cards


def deal(key: int, players: int, rules: dict) -> tuple[list[list[int]], PyRng]:
    """E2, E3: shuffle the deck (laid out as rules.deck lays it) and deal card k to seat k mod n,
    ⌊cards / n⌋ each, the rest back into the box; each stack's first card is its top. Returns the
    stacks (card codes, top first) and the game's generator, which goes on to draw the starting
    seat and the model's draws."""
    rules = check_rules(rules)
    check_table(rules, players)
    rng = PyRng(key)
    cards = shuffle(deck(rules), rng)
    per = len(cards) // players
    stacks: list[list[int]] = [[] for _ in range(players)]
    for k in range(per * players):
        stacks[k % players].append(cards[k])
    return stacks, rng


# --- the right response (E6–E8, E12, E14) -----------------------------------------------------------

def open_cards(tops: list[int]) -> list[int]:
    """E5: the open cards are the top cards of the non-empty piles."""
    return [card for card in tops if card != EMPTY]


def egg_totals(tops: list[int]) -> dict[int, int]:
    """E6: the eggs of the open cards added up per colour (colours without eggs left out)."""
    totals: dict[int, int] = {}
    for card in open_cards(tops):
        if eggs_of(card) > 0:
            totals[colour_of(card)] = totals.get(colour_of(card), 0) + eggs_of(card)
    return totals


def majority(tops: list[int]) -> tuple[int | None, int, bool]:
    """E6, E8: (the majority colour, its eggs, tied). Tied when two or more colours share the
    highest total; no colour (None, 0, False) when no open card shows an egg."""
    totals = egg_totals(tops)
    if not totals:
        return None, 0, False
    best = max(totals.values())
    leaders = [colour for colour, eggs in totals.items() if eggs == best]
    if len(leaders) > 1:
        return None, best, True
    return leaders[0], best, False


def table_response(tops: list[int], pile: int) -> int:
    """E6–E8, E12: the response the open table asks for, before E14. `tops[p]` is the open card
    of pile p (EMPTY for an empty pile); `pile` is the pile the player's card just went onto."""
    colour, eggs, tied = majority(tops)
    if tied:
        return SLAP  # E8, also while a chick is open (E12)
    if CHICK in open_cards(tops):
        return COUNT + eggs  # E12: the majority colour's eggs; "Nul" when no egg is open
    if colour is None:
        return NIEMAND  # E7: no open card shows an egg
    holders = [p for p, card in enumerate(tops) if card != EMPTY and colour_of(card) == colour]
    own = pile in holders
    if len(holders) == 1:
        return IK if own else JIJ
    return WIJ if own else JULLIE  # the Wij reading: the player's card and at least one other


def precies_rule(word: int, previous: int, precies: bool) -> int:
    """E14: a word (a count too) equal to what the player before called in this round becomes
    "Precies". Since the table's word is never "Precies" itself, a second "Precies" in a row
    never arises: after a "Precies" the original word is the right one."""
    if precies and word != SLAP and word == previous:
        return PRECIES
    return word


def right_response(tops: list[int], pile: int, previous: int = NO_CALL, precies: bool = False) -> int:
    """E6–E8, E12, E14: the right response on the open table."""
    return precies_rule(table_response(tops, pile), previous, precies)


# --- the human side (H2–H6) ----------------------------------------------------------------------

def seat_models(seats, overrides: dict | None) -> list[dict[str, float]]:
    """H7: each seat's model values (defaults, its strategy's profile, the caller's overrides)."""
    matrix = model_matrix([dict(s.model) for s in seats], overrides)
    return [{name: float(matrix[s, column]) for name, (column, *_) in PARAMETERS.items()} for s in range(len(seats))]


def words_in_use(players: int, rules: dict) -> list[int]:
    """H2: the words a slip can turn into: the five of E7 (no Jullie with 2 players and own
    piles) and, with E14, "Precies"."""
    words = [NIEMAND, IK, JIJ, WIJ]
    if not (players == 2 and not rotating_at(rules, players)):
        words.append(JULLIE)
    if rules["precies"]:
        words.append(PRECIES)
    return words


def slip_chance(m: dict[str, float], open_count: int, chick: bool, right: int) -> float:
    """H2: slip × (1 + crowd × (open − 1)) × g × c × q, capped at 1."""
    p = m["slip"] * (1 + m["crowd"] * (open_count - 1))
    p = p * (m["group"] if right in (WIJ, JULLIE) else 1)
    p = p * (m["chick_slip"] if chick else 1)
    p = p * (m["precies_slip"] if right == PRECIES else 1)
    return min(p, 1.0)


def slipped(meant: int, words: list[int], rng: PyRng) -> int:
    """H2: what a slip makes of the meant response: a count one more or one less (0 becomes 1,
    the largest count one less, neither a draw), a slap any word in use, a word another one."""
    if meant >= COUNT:
        k = meant - COUNT
        if k == 0:
            return COUNT + 1
        if k == MAX_COUNT:
            return COUNT + k - 1
        return COUNT + k - 1 if rng.below(2) == 0 else COUNT + k + 1
    if meant == SLAP:
        return words[rng.below(len(words))]
    others = [w for w in words if w != meant]
    return others[rng.below(len(others))]


def call_time(m: dict[str, float], open_count: int, chick: bool, rng: PyRng) -> float:
    """H3: log-normal around call_median × (1 + call_crowd × (open − 1)) × chick_time."""
    median = m["call_median"] * (1 + m["call_crowd"] * (open_count - 1)) * (m["chick_time"] if chick else 1)
    return median * math.exp(m["call_sigma"] * rng.normal())


def slap_time(m: dict[str, float], rng: PyRng) -> float:
    """H4: log-normal around slap_median."""
    return m["slap_median"] * math.exp(m["slap_sigma"] * rng.normal())


# --- the game ---------------------------------------------------------------------------------------

@dataclass
class Game:
    """The state of one game in progress."""

    stacks: list[list[int]]  # each seat's face-down stack, top card first
    rules: dict
    models: list[dict[str, float]]
    rng: PyRng
    number: int = 0
    piles: list[list[int]] = field(default_factory=list)  # each pile bottom card first
    last_pile: int = -1  # E13: the pile the previous card went onto
    previous: int = NO_CALL  # E14: what was said in the previous turn of this round
    round_turn: int = 0  # E11
    turns: list[dict] = field(default_factory=list)

    def __post_init__(self):
        self.piles = [[] for _ in range(piles(self.rules, len(self.stacks)))]

    @property
    def players(self) -> int:
        return len(self.stacks)

    def tops(self) -> list[int]:
        return [p[-1] if p else EMPTY for p in self.piles]

    def order(self, seat: int) -> list[int]:
        """H6: the flipping player first, then the others clockwise from them."""
        return [(seat + i) % self.players for i in range(self.players)]

    def flip(self, seat: int) -> tuple[int, int]:
        """E5, E13: the top card of the seat's stack onto its own pile, or onto the next pile."""
        card = self.stacks[seat].pop(0)
        pile = seat if not rotating_at(self.rules, self.players) else (self.last_pile + 1) % len(self.piles)
        self.last_pile = pile
        self.piles[pile].append(card)
        return card, pile

    def view(self, seat: int, pile: int, t: int) -> np.ndarray:
        """What the flipping player sees in turn `t` of the game, slot for slot as
        simkit.games.eigenwijs.view lays it out (slots it does not name are 0)."""
        v = np.zeros(V.SIZE, dtype=np.int64)
        v[V.PLAYERS], v[V.SEAT], v[V.PILES], v[V.PILE] = self.players, seat, len(self.piles), pile
        v[V.PREVIOUS] = self.previous
        v[V.CHICKS], v[V.PRECIES] = int(self.rules["chicks"]), int(self.rules["precies"])
        v[V.COLOURS], v[V.TURN], v[V.ROUND_TURN] = self.rules["colours"], t, self.round_turn
        for s, stack in enumerate(self.stacks):
            v[V.STACKS + s] = len(stack)
        v[V.TOPS:V.TOPS + MAX_PILES] = EMPTY
        for p, top in enumerate(self.tops()):
            v[V.TOPS + p] = top
        v.setflags(write=False)
        return v

    def resolve(self, seat: int, right: int, said: int, call: float, slaps: list[float],
                false: list[bool], turn: dict) -> tuple[int, str, float] | None:
        """H6 (E8, E9): who takes the cards, why and when; None when the turn passes on. Writes
        the turn's `slaps` or `false_slaps`."""
        if right == SLAP:  # E8: everybody slaps; the flipper after its call if it called a word
            moment = list(slaps)
            if said != SLAP:
                moment[seat] = call + slaps[seat]
            turn["slaps"] = moment
            taker = seat
            for s in self.order(seat):
                if moment[s] > moment[taker]:
                    taker = s
            return taker, "tie", moment[taker]
        faults: list[tuple[int, str, float]] = []
        for s in self.order(seat):
            if s == seat:
                if said == SLAP:
                    faults.append((s, "false_slap", slaps[s]))
                elif call > self.rules["hesitation"]:
                    faults.append((s, "hesitation", self.rules["hesitation"]))
                elif said != right:
                    faults.append((s, "wrong", call))
            elif false[s]:
                faults.append((s, "false_slap", slaps[s]))
        slappers = [s for s in range(self.players) if (s == seat and said == SLAP) or (s != seat and false[s])]
        if slappers:
            turn["false_slaps"] = [{"seat": s, "time": slaps[s]} for s in slappers]
        first = None
        for fault in faults:
            if first is None or fault[2] < first[2]:
                first = fault
        return first

    def take(self, taker: int) -> int:
        """E8, E9 reading: every pile, pile 0 first, each from its bottom card to its top, under the
        taker's stack; the piles are empty again (E11). Returns how many cards were taken."""
        taken = 0
        for pile in self.piles:
            self.stacks[taker].extend(pile)
            taken += len(pile)
            pile.clear()
        return taken

    def turn(self, seat: int, decide: Decider, params: np.ndarray, state: np.ndarray, label: str,
             origin: str) -> tuple[int | None, bool]:
        """One turn of `seat`; returns (the seat that flips next, whether the game is won)."""
        rules, n, t = self.rules, self.players, len(self.turns)
        card, pile = self.flip(seat)
        turn: dict = {"seat": seat, "card": card_name(card), "pile": pile}
        self.turns.append(turn)
        if not self.stacks[seat]:
            return None, True  # E10: the last card is played; the player wins at once
        meant = decide(self.view(seat, pile, t), params, state)
        if isinstance(meant, (bool, np.bool_)) or not isinstance(meant, (int, np.integer)) or not response_is_legal(
                int(meant), rules["chicks"], rules["precies"]):
            raise IllegalMove(illegal_text(label, origin, seat, self.number, t, meant))
        meant = int(meant)
        tops = self.tops()
        right = right_response(tops, pile, self.previous, rules["precies"])
        open_count = len(open_cards(tops))
        chick = CHICK in tops
        m = self.models[seat]
        said = meant
        if self.rng.uniform() < slip_chance(m, open_count, chick, right):
            said = slipped(meant, words_in_use(n, rules), self.rng)
        call = call_time(m, open_count, chick, self.rng)
        slaps = [slap_time(self.models[s], self.rng) for s in range(n)]
        false = [False] * n
        for s in range(n):
            if s != seat:
                false[s] = self.rng.uniform() < self.models[s]["false_slap"]
        turn.update({"right": response_name(right), "meant": response_name(meant), "said": response_name(said),
                     "call": call})
        taking = self.resolve(seat, right, said, call, slaps, false, turn)
        if taking is None:
            self.previous = said
            self.round_turn += 1
            return (seat + 1) % n, False
        taker, why, at = taking
        turn.update({"taker": taker, "why": why, "at": at, "taken": self.take(taker)})
        self.previous = NO_CALL
        self.round_turn = 0
        return taker, False  # E11: the taker flips first in the next round

    def play(self, start: int, deciders: list[Decider], params: list[np.ndarray], states: list[np.ndarray],
             labels: list[str], origins: list[str]) -> tuple[int | None, str]:
        """E4–E14: turn after turn until a player has played their last card (E10) or the game
        reaches max_turns; (winner or None, "won" or "capped")."""
        seat = start
        while True:
            if len(self.turns) == self.rules["max_turns"]:
                return None, "capped"
            following, won = self.turn(seat, deciders[seat], params[seat], states[seat], labels[seat],
                                       origins[seat])
            if won:
                return seat, "won"
            seat = following


def play_game(stacks: list[list[int]], start: int, seats, rules: dict, model: dict | None, rng: PyRng, key: int,
              number: int = 0, deciders: list[Decider] | None = None) -> dict:
    """Play a dealt game from seat `start`; returns the trace's keys from `turns` on. `stacks`
    (card codes, top first) are not changed; `rng` is the game's generator after the starting
    seat; the seats' streams come from `key`; `deciders` (default: the seats' compiled
    strategies) may be replaced by plain Python functions `(view, params, rng) -> response`."""
    rules = check_rules(rules)
    n = len(stacks)
    check_table(rules, n)
    game = Game([list(s) for s in stacks], rules, seat_models(seats, model), rng, number)
    params = lineup_arrays(seats)[1]
    params.setflags(write=False)
    states = [np.array([py_seat_state(key, s)], dtype=np.uint64) for s in range(n)]
    winner, end = game.play(start, deciders or [s.decide for s in seats], [params[s] for s in range(n)], states,
                            [s.label for s in seats], [s.origin for s in seats])
    return {"turns": game.turns, "winner": winner, "end": end, "stacks": [len(s) for s in game.stacks]}


def header(seed: int, number: int, seats, rules: dict, model: dict | None) -> dict:
    n = len(seats)
    return {"game": GAME, "format": 1, "seed": seed, "number": number, "players": n,
            "strategies": [s.label for s in seats], "rules": dict(rules),
            "model": model_record(model_matrix([dict(s.model) for s in seats], model), n)}


def trace_game(seed: int, number: int, seats, rules: dict, model: dict | None = None,
               deciders: list[Decider] | None = None) -> dict:
    """Deal game `number` of a run with `seed` (H8) and play it; the full trace record."""
    rules = check_rules(rules)
    n = len(seats)
    check_table(rules, n)
    key = py_hand_state(seed, number)
    stacks, rng = deal(key, n, rules)
    start = rng.below(n)  # E4, H8
    played = play_game(stacks, start, seats, rules, model, rng, key, number, deciders)
    return {**header(seed, number, seats, rules, model), "deal": [[card_name(c) for c in s] for s in stacks],
            "start": start, **played}
