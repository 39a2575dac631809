"""A game as a trace record (docs/traces.md, "Eigenwijs"), from the compiled engine's logs."""

import numpy as np

from simkit.games.eigenwijs.engine import (
    F_AT,
    F_CALL,
    F_SLAPS,
    L_CARD,
    L_FALSE,
    L_MEANT,
    L_PILE,
    L_RIGHT,
    L_SAID,
    L_SEAT,
    L_TAKEN,
    L_TAKER,
    L_WHY,
    LEFT,
    WINNER,
)
from simkit.games.eigenwijs.rules import ENDINGS, GAME, ON, SLAP, WON, card_name, deck, response_name


def _turn(row: np.ndarray, frow: np.ndarray, n: int) -> dict:
    turn = {"seat": int(row[L_SEAT]), "card": card_name(int(row[L_CARD])), "pile": int(row[L_PILE])}
    why = int(row[L_WHY])
    if why == WON:
        return turn
    turn.update(right=response_name(int(row[L_RIGHT])), meant=response_name(int(row[L_MEANT])),
                said=response_name(int(row[L_SAID])), call=float(frow[F_CALL]))
    if int(row[L_RIGHT]) == SLAP:
        turn["slaps"] = [float(frow[F_SLAPS + s]) for s in range(n)]
    elif row[L_FALSE]:
        turn["false_slaps"] = [{"seat": s, "time": float(frow[F_SLAPS + s])} for s in range(n)
                               if (int(row[L_FALSE]) >> s) & 1]
    if why != ON:
        turn.update(taker=int(row[L_TAKER]), why=ENDINGS[why], at=float(frow[F_AT]), taken=int(row[L_TAKEN]))
    return turn


def game_record(seed: int, number: int, rules: dict, model: dict, labels: list[str], dealt: np.ndarray, start: int,
                log: np.ndarray, flog: np.ndarray, outcome: np.ndarray) -> dict:
    """The full record of game `number`: `dealt` (seat by seat, top card first), the turn logs."""
    n = len(labels)
    per = len(deck(rules)) // n  # E3: each seat's cards
    winner = int(outcome[WINNER])
    return {"game": GAME, "format": 1, "seed": seed, "number": number, "players": n, "strategies": list(labels),
            "rules": {**rules, "egg_cards": list(rules["egg_cards"])}, "model": model,
            "deal": [[card_name(int(c)) for c in dealt[s, :per]] for s in range(n)],
            "start": start, "turns": [_turn(log[t], flog[t], n) for t in range(len(log))],
            "winner": winner if winner >= 0 else None, "end": "won" if winner >= 0 else "capped",
            "stacks": [int(outcome[LEFT + s]) for s in range(n)]}

