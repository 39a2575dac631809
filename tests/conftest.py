"""Shared test helpers: scripted strategies and a runner that plays a hand-made deal through
both engines and insists they agree."""

import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from hypothesis import strategies as st

from simkit.core.errors import IllegalMove
from simkit.games.whos_the_ass import batch, reference
from simkit.games.whos_the_ass import view as V
from simkit.games.whos_the_ass.action import PASS, make_set
from simkit.games.whos_the_ass.strategy import Seat, compile_decision, seats_for


def _scripted(hand, view, params, rng):
    # each seat acts once per trick, so a seat's action in trick t is params[t]
    return np.int64(params[view[V.TRICK]])


SCRIPTED = compile_decision(_scripted)


def script(*actions: int) -> Seat:
    """A seat that plays the given actions, one per trick (at most 16 tricks)."""
    return Seat("script", SCRIPTED, tuple(float(a) for a in actions))


def S(value: int, numbers: int = 1, jokers: int = 0) -> int:
    return int(make_set(value, numbers, jokers))


J1 = S(1, 0, 1)     # a lone joker declared 1 (ass trick)
J14 = S(14, 0, 1)   # a lone joker as 14
ASS = S(0, 1, 0)    # leading the ass
P = int(PASS)


def play_both(deal, seats, ass_joker="1or14"):
    """Play `deal` in the compiled and the reference engine; they must agree move by move."""
    fast = batch.play_deal(seats, deal, {"ass_joker": ass_joker})
    ref = reference.play_hand(deal, reference.compiled_deciders(seats, 0), ass_joker,
                              labels=[s.label for s in seats])
    assert fast["tricks"] == ref["tricks"]
    assert fast["final_hands"] == ref["final_hands"]
    assert fast["penalties"] == ref["penalties"]
    return fast


def illegal_both(deal, seats, ass_joker="1or14", seat=None, trick=0):
    """Both engines must stop with IllegalMove naming the seat, in the given trick (a script that
    runs out of moves makes an illegal move later, which must not count)."""
    with pytest.raises(IllegalMove) as fast:
        batch.play_deal(seats, deal, {"ass_joker": ass_joker})
    with pytest.raises(IllegalMove) as ref:
        reference.play_hand(deal, reference.compiled_deciders(seats, 0), ass_joker,
                            labels=[s.label for s in seats])
    if seat is not None:
        assert f"at seat {seat} " in str(fast.value) and f"at seat {seat} " in str(ref.value)
    assert f", trick {trick}:" in str(fast.value) and f", trick {trick}:" in str(ref.value)
    return str(fast.value)


@pytest.fixture(scope="session")
def lowest4():
    return seats_for(["lowest"], 4)


@pytest.fixture
def run(capsys, monkeypatch):
    """Run the `simkit` command in-process: (exit code, stdout, stderr)."""
    from simkit import cli

    def _run(*args):
        monkeypatch.setattr(sys, "argv", ["simkit", *map(str, args)])
        code = 0
        try:
            cli.main()
        except SystemExit as e:
            code = e.code or 0
        out, err = capsys.readouterr()
        return code, out, err
    return _run


@st.composite
def positions(draw):
    """A decision position (hand, view) that can occur: a leader always holds a card it may lead,
    nobody following in an ass trick holds the ass."""
    hand = np.array(draw(st.lists(st.integers(0, 4), min_size=15, max_size=15)), dtype=np.int64)
    phase = draw(st.sampled_from([V.LEAD, V.FOLLOW, V.ASS_TRICK]))
    hand[0] = 0 if phase == V.ASS_TRICK else min(hand[0], 1)
    hand[14] = min(hand[14], 5)
    if hand[1:].sum() == 0:
        hand[14] = 1
    view = np.zeros(V.SIZE, dtype=np.int64)
    view[V.PHASE] = phase
    view[V.COUNT] = draw(st.integers(1, 5)) if phase == V.FOLLOW else 0
    view[V.TOP] = draw(st.integers(1, 14)) if phase != V.LEAD else -1
    view[V.MAY_LEAD_ASS] = int(phase == V.LEAD and hand[0] == 1 and draw(st.booleans()))
    return hand, view


def results(folder) -> tuple:
    """A run's stored results as written: stats.parquet's content (every value, its schema and its
    metadata) and, when the run kept rows, results.parquet's (schema, row groups, every value).
    (Not raw bytes: pyarrow pads a dictionary page with whatever memory held, so two equal files
    can differ in padding bytes.)"""
    stats = pq.read_table(folder / "stats.parquet")
    out = (stats.schema, stats.schema.metadata, stats)
    if (folder / "results.parquet").is_file():
        file = pq.ParquetFile(folder / "results.parquet")
        out += (file.schema_arrow, file.num_row_groups, file.read())
    return out


def chunks_of(monkeypatch, deals: int) -> None:
    """Make the runner's chunks `deals` deals each, whatever the spec's replays."""
    from simkit.experiments import runner

    monkeypatch.setattr(runner, "CHUNK", deals)
    monkeypatch.setattr(runner, "CHUNK_HANDS", 0)


# a small tuning and a small field, shared by their tests and the kill/resume tests
TINY_TUNING = """
name = "tiny"
players = 4
seed = 3
field = ["greedy", "greedy", "greedy"]
tune = "compose(lead={lead}, follow=greedy, jokers={jokers})"
budget = 200000

[space]
lead = ["greedy", "lowest"]
jokers = ["spend", "hoard(release_at={release_at})"]
release_at = {low = 2, high = 4}

[race]
first = 64

[confirm]
deals = 300
"""
TINY_FIELD = """
name = "tiny"
players = 3
seed = 5
hands = 96
pool = ["lowest", "random", "greedy"]

[analysis]
starts = 8
bootstrap = 6
steps = 600
"""


def toml_with(text: str, **changes) -> dict:
    """A spec's TOML text as a dict, with keys changed (None: the key removed)."""
    import tomllib

    data = tomllib.loads(text)
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    return data


def built_in_experiments() -> list[Path]:
    """The built-in experiment specs (experiments/*.toml but the tunings, tune-*.toml, and the
    fields, field-*.toml)."""
    folder = Path(__file__).parent.parent / "experiments"
    return sorted(p for p in folder.glob("*.toml") if not p.name.startswith(("tune-", "field-")))


def built_in_fields() -> list[Path]:
    """The built-in field specs (experiments/field-*.toml)."""
    return sorted((Path(__file__).parent.parent / "experiments").glob("field-*.toml"))


def built_in_tunings() -> list[Path]:
    """The built-in tuning specs (experiments/tune-*.toml)."""
    return sorted((Path(__file__).parent.parent / "experiments").glob("tune-*.toml"))
