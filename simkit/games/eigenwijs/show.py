"""A person's reading of one traced Eigenwijs game (docs/traces.md): the table, then every turn:
who flipped what onto which pile, what was right, what was said and how fast, and who took the
cards and why."""

from simkit.games.eigenwijs.rules import VARIANTS, deck_note
from simkit.games.summary import format_value

_WHY = {"tie": "the last to slap at a tie", "wrong": "a wrong word", "hesitation": "hesitated too long",
        "false_slap": "a false slap"}


def _turn(t: int, turn: dict) -> list[str]:
    head = f"{t:>5}  seat {turn['seat']} flips {turn['card']:<2} onto pile {turn['pile']}"
    if "right" not in turn:
        return [f"{head}: its last card"]
    said = turn["said"] if turn["said"] == turn["meant"] else f"{turn['said']} (meant {turn['meant']})"
    line = f"{head}: right {turn['right']}, said {said} after {turn['call']:.2f} s"
    lines = [line]
    if "false_slaps" in turn:
        lines.append("         false slaps: " + ", ".join(f"seat {e['seat']} at {e['time']:.2f} s"
                                                         for e in turn["false_slaps"]))
    if "slaps" in turn:
        lines.append("         slaps: " + ", ".join(f"seat {s} {x:.2f} s" for s, x in enumerate(turn["slaps"])))
    if "taker" in turn:
        cards = f"{turn['taken']} card{'s' if turn['taken'] != 1 else ''}"
        lines.append(f"         -> seat {turn['taker']} takes {cards}: {_WHY[turn['why']]} ({turn['at']:.2f} s)")
    return lines


def show_game(record: dict) -> str:
    rules = record["rules"]
    on = [v for v in VARIANTS if rules.get(v)]
    lines = [f"Eigenwijs, game {record['number']} of seed {record['seed']}, {record['players']} players: "
             f"{', '.join(record['strategies'])}",
             f"variants: {', '.join(on) if on else 'none'}; {deck_note(rules)}",
             "model: " + ", ".join(f"{k}={format_value(v)}" for k, v in record["model"].items()),
             f"dealt: {len(record['deal'][0])} cards each; seat {record['start']} starts", ""]
    for t, turn in enumerate(record["turns"]):
        lines += _turn(t, turn)
    end = (f"seat {record['winner']} played its last card and wins (E10)" if record["end"] == "won"
           else f"capped after {len(record['turns']):,} turns: nobody wins")
    lines += ["", f"{end}; stacks at the end: {record['stacks']}"]
    return "\n".join(lines)
