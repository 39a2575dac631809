"""A person at the table (`simkit play`): hands of Who's the Ass? against strategies, the person's
moves read a line at a time, the strategies' moves shown as they are made, and after each hand
the penalties, the match's totals (W18) and the person's moves graded by the search
(simkit.analyses.grading.grade); every finished hand saved as a trace record (docs/traces.md)."""

from collections.abc import Callable
from dataclasses import dataclass, field

from simkit.analyses.grading.grade import decisive, grade
from simkit.core.errors import SimkitError
from simkit.games.traces import write_traces
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.action import describe
from simkit.games.whos_the_ass.moves import hand_text, move_names, parse_move, play_text, trick_text
from simkit.games.whos_the_ass.table import Table
from simkit.strategies.decisions import Seat

PERSON = "person"  # the person's seat's label in a saved record: no strategy of that name exists


class EndOfInput(Exception):
    """The moves ran out (a pipe's end, Ctrl-D) before the hands did."""


@dataclass
class Sitting:
    """A match at one table: the strategies at the seats other than the person's (seats[person]
    is never asked), the seed, how many hands (or until a total reaches `threshold`, W18), and
    where finished hands are saved."""

    seats: list[Seat]
    person: int
    seed: int
    rules: dict
    hands: int = 1
    threshold: int = 0
    save: str | None = None
    search: str = "pimc"
    samples: int = 64
    records: list[dict] = field(default_factory=list)

    @property
    def labels(self) -> list[str]:
        return [PERSON if s == self.person else seat.label for s, seat in enumerate(self.seats)]


Read = Callable[[str], "str | None"]  # a prompt -> the line typed, or None at the end of input
Write = Callable[[str], None]


def sit(sitting: Sitting, read: Read, write: Write) -> list[dict]:
    """Play the match's hands; returns the finished hands' records (saved as each ends)."""
    n = len(sitting.seats)
    totals = [0] * n
    write("at the table: " + ", ".join(f"seat {s} {label if s != sitting.person else 'you'}"
                                       for s, label in enumerate(sitting.labels))
          + "; A is the ass, J a joker; type a move's number or the move (5 5 J, A, pass)")
    for k in range(sitting.hands):
        of = "" if sitting.threshold else f" of {sitting.hands}"
        write(f"\nhand {k + 1}{of} (seed {sitting.seed}, hand {k}); you are seat {sitting.person}"
              + (f"; totals so far {_totals(totals, sitting.person)}" if k else ""))
        table = Table(sitting.seats, sitting.person, sitting.seed, k, sitting.rules, totals, k)
        play_out(table, sitting, read, write)
        record = finish(table, sitting, write)
        totals = [t + p for t, p in zip(totals, record["penalties"])]
        if sitting.threshold and max(totals) >= sitting.threshold:
            write(f"a total has reached {sitting.threshold} (W18): the match is over")
            break
    write(f"\nmatch totals: {_totals(totals, sitting.person)} (penalty points; fewer is better)")
    return sitting.records


def play_out(table: Table, sitting: Sitting, read: Read, write: Write) -> None:
    """Play the hand in `table` to its end: the person's moves read, the others' decided."""
    while not table.done:
        action = _ask(table, sitting, read, write) if table.seat == sitting.person else table.decide()
        move(table, sitting, action, write)


def move(table: Table, sitting: Sitting, action: int, write: Write) -> None:
    """The acting seat plays `action`, shown as it is made, and the trick's end if it ends it."""
    s, trick = table.seat, int(table.view[V.TRICK])
    ass_trick = int(table.view[V.PHASE]) == V.ASS_TRICK
    who = f"you (seat {s})" if s == sitting.person else f"seat {s} ({sitting.seats[s].label})"
    try:
        table.play(action)
    except ValueError:
        raise SimkitError(f"{who} made an illegal move: {describe(action)} (trick {trick})") from None
    write(f"  {who}: {play_text(action, ass_trick)}")
    if table.done or int(table.view[V.TRICK]) > trick:
        result = int(table.log[trick, 2 + table.players])
        write(f"  -> seat {result} " + ("takes the trick and the ass" if ass_trick else "wins and leads"))


def _ask(table: Table, sitting: Sitting, read: Read, write: Write) -> int:
    """The person's move: shown the position and the numbered legal moves, asked until a line
    names one (a forced move is played for them)."""
    actions = table.legal()
    ass_trick = int(table.view[V.PHASE]) == V.ASS_TRICK
    names = move_names(actions, ass_trick)
    if len(actions) == 1:
        write(f"  (your only move: {names[0]})")
        return actions[0]
    table.choices += 1
    n, me = table.players, sitting.person
    held = ", ".join(f"seat {s}{' (you)' if s == me else ''} {int(table.view[V.HAND_SIZES + s])}" for s in range(n))
    listed = _wrapped([f"{k + 1}) {name}" for k, name in enumerate(names)], "  your moves: ", "    ")
    write(f"  your decision {table.choices}; your hand: {hand_text(table.hand(me))}\n  cards held: {held}\n"
          f"  on the table{' (an ass trick)' if ass_trick else ''}: {trick_text(table.view)}\n"
          + listed)
    while True:
        line = read("your move> ")
        if line is None:
            raise EndOfInput
        try:
            return parse_move(line, names, actions)
        except ValueError as e:
            write(f"  {e}")


def finish(table: Table, sitting: Sitting, write: Write) -> dict:
    """The hand is over: its record kept and saved, the penalties and the person's moves graded."""
    record = table.record(sitting.labels)
    sitting.records.append(record)
    if sitting.save:
        write_traces(sitting.save, sitting.records)
    write("end of hand: penalties " + ", ".join(
        f"seat {s}{' (you)' if s == sitting.person else ''} {p}" for s, p in enumerate(record["penalties"])))
    write(graded(record, sitting))
    return record


def graded(record: dict, sitting: Sitting) -> str:
    """The person's moves with a choice graded by the search: points lost per decision, and the
    three costliest with the better move and its interval (as `show --grade` notes them)."""
    moves = grade(record, sitting.person, sitting.search, sitting.samples)
    if not moves:
        return "your moves: none had a choice"
    lost = sum(m["cost"] for m in moves)
    lines = [f"your {len(moves)} moves with a choice, graded by {sitting.search} on {sitting.samples} samples "
             f"each: {lost:.2f} points lost in all, {lost / len(moves):.2f} per decision"]
    costly = sorted((k for k, m in enumerate(moves) if m["move"] != m["best"] and m["cost"] > 0),
                    key=lambda k: -moves[k]["cost"])[:3]
    for k in costly:
        m = moves[k]
        worse = " (decisively)" if decisive(m["cost"], m["ci95"]) else ""
        lines.append(f"  decision {k + 1} (trick {m['trick']}): you played {m['move']}; {m['best']} was better by "
                     f"{m['cost']:.2f} ± {m['ci95']:.2f} points{worse}")
    return "\n".join(lines)


def _wrapped(entries: list[str], first: str, then: str, width: int = 100) -> str:
    """Entries two spaces apart in lines of at most `width`, never breaking one (a move stays whole)."""
    lines, line = [], first
    for entry in entries:
        if line.strip() and len(line) + 2 + len(entry) > width and line not in (first, then):
            lines.append(line)
            line = then
        line += ("" if line in (first, then) else "  ") + entry
    return "\n".join(lines + [line])


def _totals(totals: list[int], person: int) -> str:
    return ", ".join(f"seat {s}{' (you)' if s == person else ''} {t}" for s, t in enumerate(totals))


def check_sitting(sitting: Sitting) -> None:
    """Sizes and seats, before any hand is dealt."""
    n = len(sitting.seats)
    if not 0 <= sitting.person < n:
        raise SimkitError(f"--seat must be 0..{n - 1} at {n} players, got {sitting.person}")
    if not 1 <= sitting.hands <= 1000:
        raise SimkitError(f"--hands must be 1..1,000 (hands a person plays in one sitting), got {sitting.hands:,}")
