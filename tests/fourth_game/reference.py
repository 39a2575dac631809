"""Pig played in plain Python (P1-P4), one game at a time, from the same draws as the compiled
engine (simkit.core.rng's plain-Python twins) and each strategy's plain-Python decide: what the
tests check the engine and a run's statistics against."""

import numpy as np

from simkit.core.rng import PyRng, py_hand_state, py_seat_state
from simkit.strategies.decisions import MAX_PARAMS

from . import view as V
from .rules import FACES, HOLD, MAX_PLAYERS, check_rules


def play_game(seats: list, seed: int, number: int, rules: dict | None = None) -> dict:
    """Game `number` of a run with `seed`: its start seat, winner (-1: capped), turns, and per seat
    the points banked, busts and rolls."""
    rules = check_rules(rules or {})
    goal, n = rules["goal"], len(seats)
    key = py_hand_state(seed, number)
    dice = PyRng(key)
    start = dice.below(n)
    streams = [np.array([py_seat_state(key, s)], np.uint64) for s in range(n)]
    params = np.zeros((n, MAX_PARAMS))
    for s, seat in enumerate(seats):
        params[s, :len(seat.params)] = seat.params
    score, busts, rolls = [0] * n, [0] * n, [0] * n
    view = np.zeros(V.SIZE, np.int64)
    view[V.PLAYERS], view[V.GOAL] = n, goal
    seat, winner, turns = start, -1, 0
    while winner < 0 and turns < rules["max_turns"]:
        total, count = 0, 0
        while True:
            face = 1 + dice.below(FACES)
            count += 1
            if face == 1:
                busts[seat] += 1
                total = 0
                break
            total += face
            if score[seat] + total >= goal:
                break
            view[V.SEAT], view[V.TOTAL], view[V.ROLLS], view[V.TURN] = seat, total, count, turns
            view[V.SCORES:V.SCORES + MAX_PLAYERS] = score + [0] * (MAX_PLAYERS - n)
            if seats[seat].decide.py_func(view, params[seat], streams[seat]) == HOLD:
                break
        rolls[seat] += count
        score[seat] += total
        turns += 1
        winner = seat if score[seat] >= goal else -1
        seat = (seat + 1) % n
    return {"start": start, "winner": winner, "turns": turns, "score": score, "busts": busts, "rolls": rolls}
