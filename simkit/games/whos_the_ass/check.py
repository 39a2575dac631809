"""Check trace records against the trace format and the rules, by replaying every recorded move
through the reference engine (so the rules are still written in one place)."""

import json

from simkit.core.rng import check_seed
from simkit.games.whos_the_ass import reference
from simkit.games.whos_the_ass.action import PASS, make_set
from simkit.games.whos_the_ass.rules import DEFAULT_RULES, GAME, JOKER, check_players, check_rules

REQUIRED = ["game", "format", "seed", "hand", "players", "rules", "strategies", "deal", "tricks",
            "final_hands", "penalties"]
PLAY_KEYS = ({"seat", "cards", "value"}, {"seat", "pass"})


def recorded_action(play: dict) -> int:
    """A recorded play back as an action code (an impossible code if no set can say it)."""
    if play.get("pass") is True:
        return int(PASS)
    cards, value = play["cards"], play["value"]
    numbers = [c for c in cards if c != JOKER]
    if len(set(numbers)) > 1 or not 0 <= value <= 15 or len(numbers) > 15 or len(cards) - len(numbers) > 15:
        return 1 << 12
    if numbers and numbers[0] != value:
        return 1 << 12
    return int(make_set(value, len(numbers), len(cards) - len(numbers)))


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _cards(value) -> bool:
    """A sorted list of card codes 0..14."""
    return isinstance(value, list) and all(_whole(c) and 0 <= c <= JOKER for c in value) and value == sorted(value)


def check_format(rec: dict) -> None:
    """The keys, and the kind of every value, that the replay and `show` rely on: whatever a line of
    a trace file holds, what is wrong with it is a ValueError naming it (never another error)."""
    if not isinstance(rec, dict):
        raise ValueError("a record is a JSON object")
    missing = [k for k in REQUIRED if k not in rec]
    if missing:
        raise ValueError(f"missing key {missing[0]!r}")
    if rec["game"] != GAME or rec["format"] != 1:
        raise ValueError(f"not a {GAME} format 1 record")
    n = rec["players"]
    check_players(n)
    check_seed(rec["seed"])
    if not _whole(rec["hand"]) or not 0 <= rec["hand"] < 2**63:
        raise ValueError(f"'hand' must be a whole number 0..2**63-1, got {rec['hand']!r}")
    if not isinstance(rec["rules"], dict) or set(rec["rules"]) != set(DEFAULT_RULES):
        raise ValueError(f"rules must hold exactly {sorted(DEFAULT_RULES)}")
    for key in ("strategies", "deal", "final_hands", "penalties"):
        if not isinstance(rec[key], list) or len(rec[key]) != n:
            raise ValueError(f"{key!r} needs one entry per player")
    if not all(isinstance(s, str) for s in rec["strategies"]):
        raise ValueError("'strategies' needs one name per player")
    if not all(_whole(p) for p in rec["penalties"]):
        raise ValueError("'penalties' needs one whole number per player")
    for key in ("deal", "final_hands"):
        if not all(_cards(h) for h in rec[key]):
            raise ValueError(f"{key!r} hands must be lists of card codes 0..{JOKER}, sorted ascending")
    if not isinstance(rec["tricks"], list):
        raise ValueError("'tricks' must be a list of tricks")
    for t, trick in enumerate(rec["tricks"]):
        if not isinstance(trick, dict):
            raise ValueError(f"trick {t} must be a JSON object, got {trick!r}")
        result = "taker" if trick.get("kind") == "ass" else "winner"
        if set(trick) != {"kind", "leader", "plays", result}:
            raise ValueError(f"trick {t} needs exactly kind, leader, plays, {result}")
        if not all(_whole(trick[k]) and 0 <= trick[k] < n for k in ("leader", result)):
            raise ValueError(f"trick {t}: leader and {result} must be seats 0..{n - 1}")
        if not isinstance(trick["plays"], list):
            raise ValueError(f"trick {t}: plays must be a list")
        for p in trick["plays"]:
            if not isinstance(p, dict) or set(p) not in PLAY_KEYS or not (_whole(p["seat"]) and 0 <= p["seat"] < n):
                raise ValueError(f"trick {t}: malformed play {p}")
            if "cards" in p and not (_cards(p["cards"]) and _whole(p["value"])):
                raise ValueError(f"trick {t}: malformed play {p}")


def check_record(rec: dict, check_deal: bool = True) -> None:
    """Raise ValueError naming the first place where `rec` breaks the format or the rules."""
    check_format(rec)
    rules = check_rules(rec["rules"])
    n = rec["players"]
    if check_deal:
        dealt, _ = reference.deal(rec["seed"], rec["hand"], n)
        if dealt != rec["deal"]:
            raise ValueError("the deal is not the one rule W5 gives for this seed and hand")
    moves = [(p["seat"], recorded_action(p)) for trick in rec["tricks"] for p in trick["plays"]]
    pos = iter(range(len(moves)))

    def scripted(seat, hand, view):
        i = next(pos, None)
        if i is None:
            raise ValueError("the trace ends before the hand does (W16)")
        if moves[i][0] != seat:
            raise ValueError(f"move {i}: seat {moves[i][0]} recorded where seat {seat} acts")
        return moves[i][1]

    replay = reference.play_hand(rec["deal"], [scripted] * n, rules["ass_joker"], labels=rec["strategies"],
                                 hand_index=rec["hand"])
    if next(pos, None) is not None:
        raise ValueError("the trace goes on after the hand has ended (W16)")
    for t, (mine, theirs) in enumerate(zip(replay["tricks"], rec["tricks"])):
        if mine != theirs:
            raise ValueError(f"trick {t} differs from the rules' replay: {json.dumps(mine)}")
    for key in ("final_hands", "penalties"):
        if replay[key] != rec[key]:
            raise ValueError(f"{key} differ from the rules' replay: {replay[key]}")
