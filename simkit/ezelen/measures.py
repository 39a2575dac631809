"""What a run's statistics count of a round or a match (experiments/statistics.py): a seat row per
seat and a table row, filled from the engine's outcomes, gathered as the driver plays them, into
a block's row buffers (simkit.tally).

A round: per seat rows 1, lost the round, lost it as the last to copy (Z5), through tempo (Z6);
per table rows 1, how it ended (one of last, tempo, tie, stalled), whether and when somebody
signalled, its turns. A match (Z7) ends with a row of its own: per seat matches 1, became the
donkey, letters (the round measures 0), the table's measures 0. A single round is its deal's
whole replay; a match's replay ends with its own row (the table row's `replays` 1)."""

import numba as nb

from simkit.ezelen.rules import LAST, STALLED, TEMPO, TIE

SEAT = ("rows", "lost", "lost_last", "lost_tempo")
MATCH_SEAT = SEAT + ("matches", "donkey", "letters")
TABLE = ("rows", "last", "tempo", "tie", "stalled", "signalled", "first_signal", "turns")
REPLAYS = len(TABLE)  # the table row's `replays`, after the game's table measures
END = -1  # the `reason` of an outcome that is a match's end, its donkey in `loser`
_ROUND = len(SEAT)


@nb.njit(cache=True)
def round_rows(loser, reason, first_signal, turns, letters, count, slot, rotation, seat, table, ends):
    """Outcomes 0..count-1, as played (slot[i], rotation[i]: the outcome's deal slot and
    rotation), into row buffers 0..count-1: a round (its deal's replay ends with it when `ends`),
    or a match's end (reason END: the donkey in loser, the letters in letters[rotation, slot])."""
    n = seat.shape[1]
    for i in range(count):
        why = reason[i]
        if why == END:
            for s in range(n):
                for m in range(_ROUND):
                    seat[i, s, m] = 0
                seat[i, s, _ROUND] = 1
                seat[i, s, _ROUND + 1] = 1 if loser[i] == s else 0
                seat[i, s, _ROUND + 2] = letters[rotation[i], slot[i], s]
            for m in range(REPLAYS):
                table[i, m] = 0
            table[i, REPLAYS] = 1
            continue
        last, tempo = why == LAST, why == TEMPO
        for s in range(n):
            lost = loser[i] == s
            seat[i, s, 0] = 1
            seat[i, s, 1] = lost
            seat[i, s, 2] = lost and last
            seat[i, s, 3] = lost and tempo
            for m in range(_ROUND, seat.shape[2]):
                seat[i, s, m] = 0
        signal = first_signal[i]
        table[i, 0] = 1
        table[i, 1] = last
        table[i, 2] = tempo
        table[i, 3] = why == TIE
        table[i, 4] = why == STALLED
        table[i, 5] = signal >= 0
        table[i, 6] = max(signal, 0)
        table[i, 7] = turns[i]
        table[i, REPLAYS] = ends
