"""Grading a recorded hand's moves with the search (simkit.strategies.whos_the_ass.search): every
decision of a seat that had a choice, replayed to the position it was made in, each distinct legal
action played out on the same samples; a move's cost is its mean own penalty less the best
action's, paired on the samples, with its 95% interval over them. The positions come from the
trace record through the engine's own `start` and `step`, so the rules are the game's one copy."""

import itertools
import json
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numba as nb
import numpy as np
import pandas as pd

from simkit.core.errors import SimkitError
from simkit.core.rng import py_hand_state
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.action import LEAD_ASS, PASS, describe, set_jokers, short
from simkit.games.whos_the_ass.check import check_format, recorded_action
from simkit.games.whos_the_ass.engine import ERR_WIDTH, LOG_WIDTH, start, step
from simkit.games.whos_the_ass.hand import HAND_WIDTH
from simkit.games.whos_the_ass.legal import nth_legal
from simkit.games.whos_the_ass.rules import GAME, MAX_PLAYERS, ass_joker_code
from simkit.games.whos_the_ass.strategy import SEES_ALL
from simkit.stats.intervals import mean_ci
from simkit.strategies import registry
from simkit.strategies.whos_the_ass.inference import MODELS
from simkit.strategies.whos_the_ass.search import MOST_SAMPLES, OPPONENTS, outcomes

POINTS = ("lead", "ass lead", "follow", "ass trick", "joker")  # where a move is made, for the aggregate


@dataclass(frozen=True)
class Position:
    """A decision as it was recorded: the state just before it (every hand, the view) and the
    action the seat took."""

    trick: int
    play: int  # its place in the trick's plays
    seat: int
    hands: np.ndarray  # [MAX_PLAYERS, HAND_WIDTH]
    view: np.ndarray   # [V.SIZE]
    action: int


def positions(record: dict) -> Iterator[Position]:
    """Every move of a trace record (docs/traces.md), in order, with the state it was made in."""
    n = record["players"]
    hands = np.zeros((MAX_PLAYERS, HAND_WIDTH), np.int64)
    for s, cards in enumerate(record["deal"]):
        np.add.at(hands[s], np.asarray(cards, np.int64), 1)
    view = np.zeros(V.SIZE, np.int64)
    log, err = np.zeros((0, LOG_WIDTH), np.int64), np.zeros(ERR_WIDTH, np.int64)
    if not record["tricks"]:
        return
    start(hands, view, n, ass_joker_code(record["rules"]["ass_joker"]), record["tricks"][0]["leader"],
          np.zeros(MAX_PLAYERS, np.int64), 0)
    for t, trick in enumerate(record["tricks"]):
        for k, play in enumerate(trick["plays"]):
            action = recorded_action(play)
            if view[V.SEAT] != play["seat"]:
                raise SimkitError(f"hand {record['hand']}, trick {t}: seat {play['seat']} plays out of turn")
            yield Position(t, k, int(view[V.SEAT]), hands.copy(), view.copy(), action)
            if step(hands, view, action, log, err) < 0:
                raise SimkitError(f"hand {record['hand']}, trick {t}: seat {play['seat']} made an illegal move "
                                  f"({describe(action)})")


def inferred(params: np.ndarray, chosen: np.ndarray, players: int) -> str:
    """The model the search took each other seat for at a move, as text: "1 lowest, 2 hoard, ...",
    each a candidate's name (inference.MODELS), or "forced" where `opponents=` forced it."""
    return ", ".join(f"{s} {'forced' if params[OPPONENTS] != 0 else MODELS[chosen[s]]}"
                     for s in range(players) if chosen[s] >= 0)


def model_shares(models: Iterable[str]) -> dict[str, float]:
    """How often the search took a seat for each model over moves' `models` texts (`inferred`), the
    commonest first: the share of (move, other seat) pairs."""
    counts: dict[str, int] = {}
    for text in models:
        for part in filter(None, text.split(", ")):
            name = part.split(" ", 1)[1]
            counts[name] = counts.get(name, 0) + 1
    total = sum(counts.values())
    return {name: k / total for name, k in sorted(counts.items(), key=lambda item: -item[1])}


def shares_text(shares: dict[str, float]) -> str:
    """'lowest 84%, hoard 10%, greedy 6%'."""
    return ", ".join(f"{name} {share:.0%}" for name, share in shares.items())


def check_samples(samples, name: str) -> int:
    """Samples a decision for grading: a whole number 4..MOST_SAMPLES (half pick the best action,
    half weigh the cost), or one error naming `name`."""
    if isinstance(samples, bool) or not isinstance(samples, int) or not 4 <= samples <= MOST_SAMPLES:
        raise SimkitError(f"{name} must be a whole number 4..{MOST_SAMPLES}, got {samples!r}")
    return samples


def check_search(search: str, name: str) -> tuple[float, ...]:
    """The parameter vector of `search`, which must be a search (pimc or cheat, any rollout and
    opponents), or one error naming `name`."""
    info, vector, label = registry.resolve(GAME, search)
    if info.decide is not registry.get(GAME, "pimc").decide:
        raise SimkitError(f"{name} needs a search (pimc or cheat), got {label}")
    return vector


def decisive(cost, ci95):
    """Whether a move (or moves: arrays) is decisively worse than the best: its interval above 0."""
    return cost - ci95 > 0


def check_seat(seat, players: int, name: str) -> int:
    """The graded seat: 0..players-1, or one error naming `name`."""
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < players:
        raise SimkitError(f"{name} must be 0..{players - 1} for {players} players, got {seat!r}")
    return int(seat)


def records(path: str, count: int | None = None) -> Iterator[dict]:
    """The first `count` (default: all) records of a trace file, each a Who's the Ass? hand in the
    trace format, or one error naming the record (a line that is not JSON, or not a hand's)."""
    with open(path, encoding="utf-8") as f:
        lines = (line for line in f if line.strip())
        for number, line in enumerate(itertools.islice(lines, count), 1):
            try:
                record = json.loads(line)
                if not isinstance(record, dict):
                    raise ValueError("a record is a JSON object")
                if record.get("game") != GAME:
                    raise ValueError(f"grading reads Who's the Ass? hands, not {record.get('game')!r}")
                check_format(record)
            except ValueError as e:
                raise SimkitError(f"{path}, record {number}: {e}") from None
            yield record


def point(view: np.ndarray, action: int) -> str:
    """The decision point a move is made at (POINTS): a joker played counts as a joker use."""
    if action != PASS and action != LEAD_ASS and set_jokers(action) > 0:
        return "joker"
    phase = view[V.PHASE]
    if phase == V.LEAD:
        return "ass lead" if action == LEAD_ASS else "lead"
    return "follow" if phase == V.FOLLOW else "ass trick"


def grade(record: dict, seat: int, search: str = "pimc", samples: int = 64, seed: int = 0) -> list[dict]:
    """Every decision with a choice of `seat` in `record`, graded by `search` (pimc or cheat, any
    rollout and opponents) on `samples` samples each, drawn from (`seed`, the hand's number): the
    move, its decision point, each action's mean own penalty, the best action (picked on the first
    half of the samples), and the move's cost against it measured on the other half (0 where it is
    the best; below 0 where the move did better there) with its 95% interval over them."""
    check_samples(samples, "samples")
    check_seat(seat, record["players"], "seat")
    params = np.array(check_search(search, "grading"), np.float64)
    params.setflags(write=False)
    rng = np.array([py_hand_state(seed, record["hand"])], np.uint64)
    out = []
    for pos in positions(record):
        if pos.seat != seat:
            continue
        hand = pos.hands[seat]
        actions = nth_legal(hand, pos.view, -1)
        if actions <= 1:
            continue
        seen = (pos.hands.reshape(-1) if params[SEES_ALL] else hand).copy()
        view = pos.view.copy()
        for a in (seen, view):
            a.setflags(write=False)
        played = np.zeros((samples, actions), np.int64)
        chosen = np.zeros(MAX_PLAYERS, np.int64)
        outcomes(seen, view, params, rng, played, chosen)
        legal = [short(nth_legal(hand, pos.view, k)) for k in range(actions)]
        if short(pos.action) not in legal:
            raise SimkitError(f"hand {record['hand']}, trick {pos.trick}: {describe(pos.action)} is not a legal move")
        made = legal.index(short(pos.action))
        # the best action is picked on half the samples and the cost measured on the other half:
        # picked and measured on the same ones, the least of several noisy means is too low
        pick, weigh = played[: samples // 2], played[samples // 2:]
        means = played.mean(axis=0)
        best = int(pick.mean(axis=0).argmin())
        cost, half = mean_ci(weigh[:, made] - weigh[:, best])
        out.append({"trick": pos.trick, "play": pos.play, "seat": seat, "point": point(pos.view, pos.action),
                    "move": legal[made], "best": legal[best], "cost": cost, "ci95": half, "actions": actions,
                    "means": dict(zip(legal, means.tolist())), "models": inferred(params, chosen, record["players"])})
    return out


def graded(found: Iterable[dict], seat: int, search: str = "pimc", samples: int = 64, seed: int = 0,
           threads: int | None = None) -> Iterator[tuple[dict, list[dict]]]:
    """Each record of `found` with its grades (`grade`), in their order, graded side by side on
    `threads` threads (default: the engine's, all cores): the search releases the interpreter, and
    each record draws from its own stream (the seed and its hand's number), so the grades are the
    same for any number of threads. At most twice as many records as threads are held at once."""
    count = threads or nb.get_num_threads()
    if count <= 1:
        for record in found:
            yield record, grade(record, seat, search, samples, seed)
        return
    with ThreadPoolExecutor(count) as pool:
        waiting: deque = deque()
        try:
            for record in found:
                waiting.append((record, pool.submit(grade, record, seat, search, samples, seed)))
                if len(waiting) >= 2 * count:
                    record_, future = waiting.popleft()
                    yield record_, future.result()
            while waiting:
                record_, future = waiting.popleft()
                yield record_, future.result()
        except BaseException:  # Ctrl-C or an error: the hands not started are not graded
            for _, future in waiting:
                future.cancel()
            raise


def lost_by_point(moves: pd.DataFrame, hands: list[int], by: str = "hand") -> pd.DataFrame:
    """Per decision point (and all of them): the moves graded, the points lost per hand (the
    costs summed over each of `hands`, told apart by the column `by`, a hand without such a move
    counting 0, a move better than the picked best counting below 0) with its 95% interval over
    the hands, and the share of its moves that were decisively worse than the best."""
    rows = []
    for name in POINTS + ("all",):
        part = moves if name == "all" else moves[moves["point"] == name]
        if not len(part):
            continue
        per_hand = part.groupby(by)["cost"].sum().reindex(hands, fill_value=0.0).to_numpy(float)
        lost, half = mean_ci(per_hand)
        rows.append({"point": name, "moves": len(part), "lost per hand": lost, "±": half,
                     "decisively worse": float(decisive(part["cost"], part["ci95"]).mean())})
    return pd.DataFrame(rows, columns=["point", "moves", "lost per hand", "±", "decisively worse"])


def note(move: dict) -> str:
    """A graded move as `simkit show` prints it beside the play: its cost against the best action,
    marked ? where it is decisively worse (its interval above 0), as a chess annotator would."""
    if move["move"] == move["best"]:
        return f"best of {move['actions']}"
    mark = " ?" if decisive(move["cost"], move["ci95"]) else ""
    return f"{move['cost']:+.2f} ± {move['ci95']:.2f} against {move['best']} (of {move['actions']}){mark}"


def graded_hand(record: dict, seat: int, search: str = "pimc", samples: int = 64, seed: int = 0) -> str:
    """A hand for a person (`simkit show`) with `seat`'s moves graded beside them, and the points
    they lost in all."""
    from simkit.games.whos_the_ass.trace import show_hand

    if record.get("game") != GAME:
        raise SimkitError(f"--grade grades Who's the Ass? hands, not {record.get('game')!r} records")
    check_seat(seat, record["players"], "--grade")
    moves = grade(record, seat, search, samples, seed)
    text = show_hand(record, {(m["trick"], m["play"]): note(m) for m in moves})
    lost = sum(m["cost"] for m in moves)
    return (f"{text}\nseat {seat} ({record['strategies'][seat]}): {len(moves)} moves with a choice graded by {search} "
            f"on {samples} samples each; beside each, the penalty points it cost against the best action (picked on "
            f"half the samples, weighed on the other half; ± its 95% interval; ? where decisively worse); "
            f"{lost:.2f} points lost in this hand")


MOVE_TABLE = ["record", "hand", "trick", "point", "move", "best", "cost", "ci95", "models"]


def grade_file(path: str, seat: int, search: str = "pimc", samples: int = 64, seed: int = 0,
               count: int | None = None, threads: int | None = None) -> tuple[str, list[int], pd.DataFrame]:
    """`simkit grade TRACE --seat S`: grade seat `seat`'s moves in the first `count` records of a
    trace file (default: all). Returns the seat's strategy, the records graded (by their number in
    the file: a file may repeat a hand's number) and every graded move, a row each."""
    numbers, shown, strategy = [], [], ""

    def checked() -> Iterator[dict]:
        for record in records(path, count):
            check_seat(seat, record["players"], "--seat")
            yield record

    for number, (record, grades) in enumerate(graded(checked(), seat, search, samples, seed, threads)):
        numbers.append(number)
        strategy = record["strategies"][seat]
        shown += [{"record": number, "hand": record["hand"], **g} for g in grades]
    if not numbers:
        raise SimkitError(f"{path} holds no records")
    return strategy, numbers, pd.DataFrame(shown, columns=MOVE_TABLE)
