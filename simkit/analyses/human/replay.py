"""A saved hand of `simkit play` dealt again and replayed up to one of the person's decisions,
then played on from there (`simkit play --replay FILE --hand K --from M`): the what-if. The
strategies are asked again at each of their moves, so their random streams stand where they
stood; a move they would not make says the file was not played by them."""

from simkit.analyses.human.session import PERSON, Sitting, finish, move, play_out
from simkit.core.errors import SimkitError
from simkit.games import Game
from simkit.games.traces import find_record, read_traces
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.action import short
from simkit.games.whos_the_ass.check import check_format, recorded_action
from simkit.games.whos_the_ass.moves import play_text
from simkit.games.whos_the_ass.rules import GAME, N_CODES
from simkit.games.whos_the_ass.table import Table
from simkit.games.whos_the_ass.trace import cards_list
from simkit.strategies.decisions import Seat
from simkit.strategies.spec import split

PLACEHOLDER = "lowest"  # what the engine's arrays hold at the person's seat: never asked


def opponents(game: Game, text: str, players: int, person: int) -> list[Seat]:
    """The seats: the strategies named (one for all the others, or one per other seat in seat
    order), and a placeholder at the person's."""
    specs = split(text)
    if len(specs) == 1:
        specs = specs * (players - 1)
    if len(specs) != players - 1:
        raise SimkitError(f"--opponents names {len(specs)} strategies for the {players - 1} other seats: name one "
                          "for all or one per seat")
    if not 0 <= person < players:
        raise SimkitError(f"--seat must be 0..{players - 1} at {players} players, got {person}")
    return game.seats_for(specs[:person] + split(PLACEHOLDER) + specs[person:], players)


def prepare(game: Game, path: str, hand: int | None, upto: int, save: str | None, search: str,
            samples: int) -> tuple[Sitting, dict, list[int]]:
    """The sitting of a saved hand: its table (the person's seat is the one labelled so), seed,
    and the match's totals before it (the file's earlier hands of the same seed, W18)."""
    record = find_record(path, hand=hand)
    if record.get("game") != GAME:
        raise SimkitError(f"--replay plays Who's the Ass? hands, not {record.get('game')!r} records")
    try:
        check_format(record)
    except ValueError as e:
        raise SimkitError(f"hand {record.get('hand')} of {path}: {e}") from None
    labels = record["strategies"]
    if labels.count(PERSON) != 1:
        raise SimkitError(f"hand {record['hand']} of {path} has no seat played by a person (strategies: "
                          f"{', '.join(labels)}); --replay replays hands of `simkit play --save`")
    if upto < 1:
        raise SimkitError(f"--from counts your decisions from 1, got {upto}")
    person = labels.index(PERSON)
    others = ",".join(label for label in labels if label != PERSON)
    seats = opponents(game, others, record["players"], person)
    sitting = Sitting(seats, person, int(record["seed"]), dict(record["rules"]), 1, 0, save, search, samples)
    totals = [0] * record["players"]
    for earlier in read_traces(path):
        if earlier.get("seed") == record["seed"] and earlier.get("hand", record["hand"]) < record["hand"]:
            totals = [t + p for t, p in zip(totals, earlier["penalties"])]
    return sitting, record, totals


def play_on(sitting: Sitting, record: dict, totals: list[int], upto: int, read, write) -> None:
    """Replay `record` up to the person's `upto`-th decision with a choice, then let them play on."""
    k = int(record["hand"])
    table = Table(sitting.seats, sitting.person, sitting.seed, k, sitting.rules, totals, k)
    if [cards_list(table.dealt[s, :N_CODES]) for s in range(table.players)] != record["deal"]:
        raise SimkitError(f"hand {k} was not dealt by seed {record['seed']}: its deal differs (a changed file?)")
    write(f"\nhand {record['hand']} (seed {record['seed']}) replayed up to your decision {upto}; you are seat "
          f"{sitting.person}")
    choices = 0
    plays = [play for trick in record["tricks"] for play in trick["plays"]]
    for play in plays:
        s, action = table.seat, recorded_action(play)
        if s != play["seat"]:
            raise SimkitError(f"seat {play['seat']} plays out of turn in hand {record['hand']}")
        ass_trick = int(table.view[V.PHASE]) == V.ASS_TRICK
        if s == sitting.person:
            choices += len(table.legal()) > 1
            if choices == upto:
                table.choices = upto - 1
                write(f"  (your decision {upto}: you played {play_text(action, ass_trick)} then; play it again)")
                play_out(table, sitting, read, write)
                finish(table, sitting, write)
                return
        else:
            decided = table.decide()
            if decided != action:
                raise SimkitError(f"seat {s} ({sitting.seats[s].label}) would play {short(decided)} where hand "
                                  f"{record['hand']} has {short(action)}: the hand was not played by these strategies")
        move(table, sitting, action, write)
    raise SimkitError(f"you made {choices} decisions with a choice in hand {record['hand']}, not {upto}")
