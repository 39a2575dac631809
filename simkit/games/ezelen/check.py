"""Check Ezelen trace records against the trace format and the rules by replaying every recorded
pass through the reference engine, which deals, signals, notices, times the copies and decides
the round itself (so the rules are still written in one place); the replay's record must equal
the trace's, key for key."""

import json

from simkit.core.rng import py_hand_state, py_match_seed
from simkit.games.ezelen import reference
from simkit.games.ezelen import view as V
from simkit.games.ezelen.model import PARAMETERS
from simkit.games.ezelen.rules import DEFAULT_RULES, DONKEY_AT, GAME, check_players, check_rules
from simkit.games.ezelen.trace import FORMAT
from simkit.games.traces import check_head, whole
from simkit.strategies.decisions import Seat

REQUIRED = ("game", "format", "seed", "match", "round", "players", "strategies", "rules", "model", "deal", "turns",
            "signals", "copies", "tempo_faults", "loser", "loss_reason", "letters")


def _list_of(value, n: int, kind) -> bool:
    return isinstance(value, list) and len(value) == n and all(kind(v) for v in value)


def _check_format(rec: dict) -> None:
    """What the replay relies on: the keys, the game, the sizes and types of the moves."""
    n = check_head(rec, REQUIRED, GAME, FORMAT, check_players, ("match", "round"),
                   {"rules": DEFAULT_RULES, "model": PARAMETERS})
    if not _list_of(rec["deal"], n, lambda h: isinstance(h, list) and h == sorted(h)):
        raise ValueError("'deal' needs one hand per player, sorted ascending")
    if not isinstance(rec["turns"], list) or not all(_list_of(t, n, whole) for t in rec["turns"]):
        raise ValueError("'turns' must be a list of turns, each one value per player")
    if not _list_of(rec["letters"], n, whole):
        raise ValueError("'letters' needs one count per player")
    if rec["loser"] is not None and not (whole(rec["loser"]) and 0 <= rec["loser"] < n):
        raise ValueError(f"'loser' must be a seat 0..{n - 1} or null, got {rec['loser']!r}")


def _scripted(turns: list[list[int]]):
    """A decider that passes what the trace says (the reference engine asks only players who
    choose, Z4, and checks each pass, Z3)."""
    def decide(seat, hand, view):
        t = int(view[V.TURN])
        if t >= len(turns):
            raise ValueError(f"the trace ends after {len(turns)} turns, before the round does (M6)")
        return turns[t][seat]
    return decide


def replay(rec: dict, letters: list[int]) -> dict:
    """The reference engine's record of the round `rec` describes, dealt from its seed, match and
    round, with its recorded passes and `letters` before the round."""
    n = rec["players"]
    rules = check_rules(rec["rules"])
    seats = [Seat(label, None) for label in rec["strategies"]]
    seed, match, round_no = rec["seed"], rec["match"], rec["round"]
    key = py_hand_state(py_match_seed(seed, match), round_no)
    hands, rng = reference.deal(key, n)
    if hands != rec["deal"]:
        raise ValueError("the deal is not the one rules Z1, Z2 give for this seed, match and round")
    played = reference.play_round(hands, seats, rules, rec["model"], rng, key, letters, round_no,
                                  f"match {match}, round {round_no}", deciders=[_scripted(rec["turns"])] * n)
    return {**reference.header(seed, match, round_no, seats, rules, rec["model"]), "deal": hands, **played}


def _difference(key: str, mine, theirs) -> str:
    if key == "turns":
        if len(mine) != len(theirs):
            return (f"the trace has {len(theirs)} turns where the rules end the round after {len(mine)} (M6)"
                    if len(theirs) > len(mine) else f"the trace has {len(theirs)} turns, the rules play {len(mine)}")
        t = next(t for t, (a, b) in enumerate(zip(mine, theirs)) if a != b)
        return f"turn {t} differs from the rules' replay: {mine[t]} (Z4: a signaller passes on what arrives)"
    return f"{key}: the rules' replay gives {json.dumps(mine)}"


class Checker:
    """Checks the rounds of a file in order, carrying each match's letters from one round to the
    next (Z7): round 0 starts from none, round r+1 from round r's when the file holds it."""

    def __init__(self):
        self._letters: dict[tuple, tuple[int, list[int]]] = {}  # (seed, match, lineup) -> (round, letters)

    def check(self, rec: dict) -> None:
        """Raise ValueError naming the first place where `rec` breaks the format or the rules."""
        _check_format(rec)
        n, round_no, loser = rec["players"], rec["round"], rec["loser"]
        key = (rec["seed"], rec["match"], tuple(rec["strategies"]))
        earlier = self._letters.get(key)
        self._letters[key] = (round_no, rec["letters"])
        if round_no == 0:
            before = [0] * n
        elif earlier is not None and earlier[0] == round_no - 1:
            before = list(earlier[1])
            if max(before) >= DONKEY_AT:
                raise ValueError(f"match {rec['match']} goes on after its donkey (Z7)")
        else:
            before = [a - (s == loser) for s, a in enumerate(rec["letters"])]
        if not all(0 <= b < DONKEY_AT for b in before):
            raise ValueError(f"letters {rec['letters']} cannot follow a round of the match (Z7: 0..{DONKEY_AT} each, "
                             "one more for the loser)")
        mine = replay(rec, before)
        for k, value in mine.items():
            if k in rec and rec[k] != value:
                raise ValueError(_difference(k, value, rec[k]))
