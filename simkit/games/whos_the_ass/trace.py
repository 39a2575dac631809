"""Traces (docs/traces.md): the compiled engine's logs as JSON-ready hand records, and a
person's reading of a hand."""

import numpy as np

from simkit.games.whos_the_ass.action import PASS, cards_of
from simkit.games.whos_the_ass.engine import KIND_ASS
from simkit.games.whos_the_ass.rules import GAME, N_CODES, PENALTY

FORMAT = 1


def cards_list(counts: np.ndarray) -> list[int]:
    """15 counts -> the sorted list of card codes."""
    return [int(c) for c in np.repeat(np.arange(len(counts)), counts)]


def play_record(seat: int, action: int) -> dict:
    if action == PASS:
        return {"seat": seat, "pass": True}
    cards, value = cards_of(int(action))
    return {"seat": seat, "cards": cards, "value": value}


def hand_record(seed: int, index: int, rules: dict, labels: list[str], deal: np.ndarray,
                final: np.ndarray, log: np.ndarray, n_tricks: int) -> dict:
    """One hand's trace record from the compiled engine's deal, final hands (their counts, the
    first N_CODES slots of each row) and trick log."""
    n = len(labels)
    deal, final = deal[:, :N_CODES], final[:, :N_CODES]
    tricks = []
    for t in range(n_tricks):
        kind, leader = int(log[t, 0]), int(log[t, 1])
        plays = [play_record((leader + i) % n, int(log[t, 2 + i])) for i in range(n)]
        result = "taker" if kind == KIND_ASS else "winner"
        tricks.append({"kind": "ass" if kind == KIND_ASS else "normal", "leader": leader,
                       "plays": plays, result: int(log[t, 2 + n])})
    return {
        "game": GAME, "format": FORMAT, "seed": seed, "hand": index, "players": n,
        "rules": dict(rules), "strategies": list(labels),
        "deal": [cards_list(deal[s]) for s in range(n)],
        "tricks": tricks,
        "final_hands": [cards_list(final[s]) for s in range(n)],
        "penalties": [int(final[s] @ PENALTY) for s in range(n)],
    }


def card_name(code: int) -> str:
    return {0: "A", 14: "J"}.get(code, str(code))


def show_hand(record: dict, notes: dict[tuple[int, int], str] | None = None) -> str:
    """A hand trick by trick for a person: A is the ass, J a joker; `notes[(trick, play)]` beside
    a play (its grade, simkit.analyses.grading.grade). A record that is not a whole one
    (simkit.games.whos_the_ass.check's format check) is a ValueError saying why."""
    from simkit.games.whos_the_ass.check import check_format

    check_format(record)
    names = record["strategies"]
    n = record["players"]
    lines = [f"hand {record['hand']} (seed {record['seed']}), {n} players, "
             f"rules {', '.join(f'{k}={v}' for k, v in record['rules'].items())}"]
    width = max(len(f"seat {s} {names[s]}") for s in range(n))
    for s in range(n):
        lines.append(f"  {f'seat {s} {names[s]}':<{width}}  dealt {' '.join(map(card_name, record['deal'][s]))}")
    for t, trick in enumerate(record["tricks"]):
        kind = "ass trick" if trick["kind"] == "ass" else "trick"
        lines.append(f"{kind} {t}, led by seat {trick['leader']}:")  # from 0, as `check` and the trace count
        for k, p in enumerate(trick["plays"]):
            if p.get("pass"):
                played = f"    seat {p['seat']}: pass"
            else:
                cards = " ".join(map(card_name, p["cards"]))
                shown = f" (as {p['value']})" if p["cards"] == [14] and trick["kind"] == "ass" else ""
                played = f"    seat {p['seat']}: {cards}{shown}"
            note = (notes or {}).get((t, k))
            lines.append(f"{played:<30}  {note}" if note else played)
        if trick["kind"] == "ass":
            lines.append(f"  -> seat {trick['taker']} takes the trick and the ass")
        else:
            lines.append(f"  -> seat {trick['winner']} wins and leads")
    lines.append("end of hand:")
    for s in range(n):
        left = " ".join(map(card_name, record["final_hands"][s])) or "(out)"
        lines.append(f"  seat {s}: {left:<40} penalty {record['penalties'][s]}")
    return "\n".join(lines)
