"""A person's reading of one traced Ezelen round (docs/traces.md): the deal, every turn's
passes with the signals, notices and tempo faults of its beat, the copies with their times, and
how the round ended."""

from simkit.games.ezelen.rules import DONKEY_AT, LETTERS
from simkit.games.summary import format_value


def letters_word(count: int) -> str:
    """Z7: 0..4 letters as the player spells them ('-' for none)."""
    return LETTERS[:count] or "-"


def hands_at_end(deal: list[list[int]], turns: list[list[int]]) -> list[list[int]] | None:
    """Every seat's hand after the recorded passes (Z3: each takes the card from its right, gives
    the passed one to its left); None if the passes do not fit the hands."""
    n = len(deal)
    hands = [list(h) for h in deal]
    for passed in turns:
        for s in range(n):
            hands[s].append(passed[(s - 1) % n])
            if passed[s] not in hands[s]:
                return None
            hands[s].remove(passed[s])
    return [sorted(h) for h in hands]


def _events(record: dict) -> dict[int, list[str]]:
    """What happened at each beat before its passes, in the order of rule M6."""
    found = [(e["turn"], 1, e["seat"], f"seat {e['seat']} signals") for e in record["signals"]]
    found += [(e["turn"], 2, e["seat"], f"seat {e['seat']} notices") for e in record.get("notices", [])]
    faults: dict[int, int] = {}
    for e in record["tempo_faults"]:
        faults[e["seat"]] = faults.get(e["seat"], 0) + 1
        what = "out of tempo (warned)" if faults[e["seat"]] == 1 else "out of tempo a second time"
        found.append((e["turn"], 5, e["seat"], f"seat {e['seat']} {what}"))
    events: dict[int, list[str]] = {}
    for turn, _, _, text in sorted(found):
        events.setdefault(turn, []).append(text)
    return events


def _outcome(record: dict) -> str:
    loser, reason, turns = record["loser"], record["loss_reason"], len(record["turns"])
    if reason == "last":
        time = max(c["time"] for c in record["copies"] if c["seat"] == loser)
        how = " by signalling late" if any(e["seat"] == loser for e in record["signals"]) else ""
        text = f"seat {loser} copied last{how}, at {time:.3f} s, and loses the round (Z5)"
    elif reason == "tempo":
        text = f"seat {loser} was out of tempo a second time and loses the round (Z6)"
    elif reason == "tie":
        text = ("a tie: players who signalled in the same turn share the latest copy time; no letter, deal again "
                "(Z5)")
    else:
        text = f"stalled after {turns} turns (max_turns): no letter, deal again (M5)"
    if loser is not None and record["letters"][loser] >= DONKEY_AT:
        text += f"; seat {loser} has E-Z-E-L and is the donkey: the match ends (Z7)"
    return text


def show_round(record: dict) -> str:
    """One round for a person: values are 0..n-1, passes listed seat 0 first, each to the left. A
    record that is not a whole one (simkit.games.ezelen.check's format check) is a ValueError saying why."""
    from simkit.games.ezelen.check import _check_format

    _check_format(record)
    n, names, beat = record["players"], record["strategies"], record["rules"]["beat"]
    turns, after, loser = record["turns"], record["letters"], record["loser"]
    before = [a - (s == loser) for s, a in enumerate(after)]
    signalled = {e["seat"]: e["turn"] for e in record["signals"]}
    lines = [f"Ezelen match {record['match']}, round {record['round']} (seed {record['seed']}), {n} players, "
             f"rules {', '.join(f'{k}={v}' for k, v in record['rules'].items())}",
             "model " + ", ".join(f"{k}={format_value(v)}" for k, v in record["model"].items())]
    labels = [f"seat {s} {names[s]}" for s in range(n)]
    width = max(map(len, labels))
    for s in range(n):
        lines.append(f"  {labels[s]:<{width}}  dealt {' '.join(map(str, record['deal'][s]))}   "
                     f"letters {letters_word(before[s])}")
    lines.append("turns (passes: the value each seat gives its left neighbour, seat 0 first; * passes on the "
                 "card just received, Z4):")
    events = _events(record)
    for t in range(len(turns) + 1):
        said = list(events.get(t, []))
        if t < len(turns):
            said.append("passes " + " ".join(f"{v}{'*' if signalled.get(s, t + 1) <= t else ''}"
                                             for s, v in enumerate(turns[t])))
        else:
            said.append("the round ends")
        lines.append(f"  turn {t} at {t * beat:g} s: {'; '.join(said)}")
    copies = ", ".join(f"seat {c['seat']} at {c['time']:.3f} s{' (signal)' if c['seat'] in signalled else ''}"
                       for c in record["copies"])
    lines.append(f"copies: {copies or 'none'}")
    lines.append(f"end: {_outcome(record)}")
    hands = hands_at_end(record["deal"], turns)
    for s in range(n):
        hand = f"hand {' '.join(map(str, hands[s]))}   " if hands else ""
        lines.append(f"  {labels[s]:<{width}}  {hand}letters {letters_word(after[s])}"
                     f"{'   <- loser' if s == loser else ''}")
    return "\n".join(lines)
