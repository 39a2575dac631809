"""Traces (docs/traces.md, Ezelen): the compiled engine's output as JSON-ready round records.

Besides the required keys a record has `notices` ({"seat", "turn"}: the beat each player noticed
a signal, M2), so that a reader can follow the noticing draws too.
"""

import numpy as np

from simkit.games.ezelen.engine import FAULT1, FAULT2, LOSER, NOTICE, REASON, SIGNAL, TURNS
from simkit.games.ezelen.rules import GAME, LAST, REASONS, TIE

FORMAT = 1


def values_list(counts: np.ndarray) -> list[int]:
    """13 counts -> the sorted list of values."""
    return [int(v) for v in np.repeat(np.arange(len(counts)), counts)]


def copies_before_end(copies: list[float], reason: int, end_time: float) -> list[dict]:
    """The copies made before the round ended, by time then seat; a round decided by the last
    copier (or tied) lists every player, reactions still pending at its end included."""
    decided = reason in (LAST, TIE)
    entries = sorted((t, s) for s, t in enumerate(copies) if decided or t <= end_time)
    return [{"seat": s, "time": t} for t, s in entries]


def _by_turn(state: np.ndarray, columns: tuple[int, ...], n: int) -> list[dict]:
    entries = sorted((int(state[s, c]), s) for s in range(n) for c in columns if state[s, c] >= 0)
    return [{"seat": s, "turn": t} for t, s in entries]


def round_record(seed: int, match: int, round_no: int, rules: dict, model: dict, labels: list[str],
                 dealt: np.ndarray, log: np.ndarray, state: np.ndarray, copies: np.ndarray, outcome: np.ndarray,
                 letters: list[int]) -> dict:
    """One round's record from the compiled engine's deal, pass log, seat state and outcome;
    `letters` are every seat's letters after the round."""
    n = len(labels)
    turns = int(outcome[TURNS])
    reason = int(outcome[REASON])
    loser = int(outcome[LOSER])
    times = [float(copies[s]) for s in range(n)]
    return {
        "game": GAME, "format": FORMAT, "seed": seed, "match": match, "round": round_no, "players": n,
        "strategies": list(labels), "rules": dict(rules), "model": model,
        "deal": [values_list(dealt[s]) for s in range(n)],
        "turns": [[int(v) for v in log[t, :n]] for t in range(turns)],
        "signals": _by_turn(state, (SIGNAL,), n),
        "notices": _by_turn(state, (NOTICE,), n),
        "copies": copies_before_end(times, reason, turns * rules["beat"]),
        "tempo_faults": _by_turn(state, (FAULT1, FAULT2), n),
        "loser": loser if loser >= 0 else None, "loss_reason": REASONS[reason],
        "letters": list(letters),
    }
