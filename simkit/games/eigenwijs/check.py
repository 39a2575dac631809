"""Check Eigenwijs trace records against the trace format and the rules by replaying the game
through the reference engine, which deals, judges every call, draws the slips and times and
decides who takes the cards itself (so the rules are still written in one place); the recorded
`meant` responses are the only input it takes from the trace, and its record must equal the
trace's, key for key."""

import json

from simkit.games.eigenwijs import reference
from simkit.games.eigenwijs.model import PARAMETERS
from simkit.games.eigenwijs.rules import DEFAULT_RULES, GAME, check_players, check_rules, check_table, response_of
from simkit.games.traces import check_head
from simkit.strategies.decisions import Seat

REQUIRED = ("game", "format", "seed", "number", "players", "strategies", "rules", "model", "deal", "start", "turns",
            "winner", "end", "stacks")
FORMAT = 1


def _check_format(rec: dict) -> None:
    """What the replay relies on: the keys, the game, the sizes and types."""
    check_head(rec, REQUIRED, GAME, FORMAT, check_players, ("number",), {"rules": DEFAULT_RULES, "model": PARAMETERS})
    if not isinstance(rec["turns"], list) or not all(isinstance(t, dict) for t in rec["turns"]):
        raise ValueError("'turns' must be a list of turns, each a JSON object")
    for t, turn in enumerate(rec["turns"]):
        if "meant" in turn:
            try:
                response_of(turn["meant"])
            except (ValueError, TypeError, AttributeError):
                raise ValueError(f"turn {t}: 'meant' is not a response: {turn['meant']!r}") from None


def _scripted(turns: list[dict]):
    """A decider that means what the trace says, turn by turn (H1)."""
    def decide(view, params, rng):
        from simkit.games.eigenwijs import view as V

        t = int(view[V.TURN])
        if t >= len(turns) or "meant" not in turns[t]:
            raise ValueError(f"the rules' replay asks for a response at turn {t}, which the trace does not give")
        return response_of(turns[t]["meant"])
    return decide


def replay(rec: dict) -> dict:
    """The reference engine's record of the game `rec` describes, dealt from its seed and number,
    with its recorded `meant` responses."""
    n = rec["players"]
    rules = check_rules(rec["rules"])
    check_table(rules, n)
    seats = [Seat(label, None) for label in rec["strategies"]]
    return reference.trace_game(rec["seed"], rec["number"], seats, rules, rec["model"],
                                deciders=[_scripted(rec["turns"])] * n)


def _difference(key: str, mine, theirs) -> str:
    if key == "turns":
        if len(mine) != len(theirs):
            return f"the trace has {len(theirs)} turns, the rules' replay plays {len(mine)}"
        t = next(t for t, (a, b) in enumerate(zip(mine, theirs)) if a != b)
        return f"turn {t} differs from the rules' replay: {json.dumps(mine[t])}"
    return f"{key}: the rules' replay gives {json.dumps(mine)}"


def check_record(rec: dict) -> None:
    """Raise ValueError naming the first place where `rec` breaks the format or the rules."""
    _check_format(rec)
    mine = replay(rec)
    for k, value in mine.items():
        if rec[k] != value:
            raise ValueError(_difference(k, value, rec[k]))
