"""A table of one strategy played with the strategy written into the loop
(simkit.games.whos_the_ass.alone) plays exactly the hands it plays through the lineup: every rule is
the engine's `step` either way, so the results must be identical, for built-ins and users'
strategies, single hands and matches (W16-W18); and everything else goes through the lineup."""

import inspect

import pytest

from simkit.core.errors import IllegalMove
from simkit.games.whos_the_ass import batch
from simkit.games.whos_the_ass.alone import alone, nobody, play_alone
from simkit.games.whos_the_ass.strategy import seats_for
from simkit.strategies import plugins
from simkit.strategies.whos_the_ass import baseline

pytestmark = pytest.mark.long  # left out of the development subset (pyproject.toml)

HEADER = """
import numpy as np
from simkit.strategies.registry import Param
from simkit.games.whos_the_ass.legal import nth_legal
"""

# a user's file holding `lowest` line for line, under another name, and two more strategies
COPY = inspect.getsource(baseline).replace('"lowest"', '"alone_copy"').replace("def lowest(", "def alone_copy(")
USER = COPY + HEADER + """

@strategy("alone_cheater", "with cheat=1, passes on its third trick's lead: illegal (W7)",
          params=(Param("cheat", 0, 0, 1, integer=True),))
def alone_cheater(hand, view, params, rng):
    if params[0] == 1 and view[V.TRICK] == 2 and view[V.PHASE] == V.LEAD:
        return PASS
    return nth_legal(hand, view, 0)


@strategy("alone_allocates", "the first legal action, found with a fresh array (needs numba's runtime)")
def alone_allocates(hand, view, params, rng):
    scratch = np.zeros(2, np.int64)
    scratch[0] = nth_legal(hand, view, 0)
    return scratch[0]
"""


@pytest.fixture(scope="module")
def user_file(tmp_path_factory):
    """One file for the module: a strategy name is registered once per process."""
    path = tmp_path_factory.mktemp("alone") / "mine.py"
    path.write_text(USER)
    plugins.load_strategy_file(str(path))
    return path


def _same(a, b):
    return all((x == y).all() for x, y in zip((a.penalties, a.tricks, a.ass_end), (b.penalties, b.tricks, b.ass_end)))


@pytest.mark.parametrize("spec, players", [("lowest", 3), ("lowest", 12), ("random", 4), ("alone_copy", 4)])
def test_the_loop_with_the_strategy_written_in_plays_the_lineups_hands(user_file, spec, players):
    seats = seats_for([spec], players)
    whole, used = alone([seats], 1, force=True)
    assert used == 1 and whole is play_alone(seats[0].decide)
    assert _same(batch.play(seats, 3000, 11, alone=True), batch.play(seats, 3000, 11, alone=False))


def test_matches_too(user_file):
    seats = seats_for(["random"], 4)
    one, other = (batch.matches(seats, 200, 5, threshold=60, alone=a) for a in (True, False))
    assert (one.totals == other.totals).all() and (one.hands == other.hands).all()


def test_an_illegal_move_is_the_same_error_either_way(user_file):
    seats = seats_for(["alone_cheater(cheat=1)"], 4)
    errors = []
    for a in (True, False):
        with pytest.raises(IllegalMove) as e:
            batch.play(seats, 50, 3, alone=a)
        errors.append(str(e.value))
    assert errors[0] == errors[1] and "trick 2: pass" in errors[0]


def test_what_is_not_one_strategy_alone_goes_through_the_lineup(user_file):
    assert alone([seats_for(["lowest", "random", "lowest"], 3)], 1, force=True) == (nobody, 0)
    assert alone([seats_for(["cheat"], 3)], 1, force=True) == (nobody, 0)  # it sees all hands
    assert alone([seats_for(["lowest"], 3)], 10, force=None) == (nobody, 0)  # a short run
    assert alone([seats_for(["lowest"], 3)], 10**9, force=False) == (nobody, 0)
    # a strategy that needs numba's runtime cannot go into the loop (not even tried: a compile that
    # fails costs as much as one that works); it plays through the lineup
    seats = seats_for(["alone_allocates"], 3)
    assert play_alone(seats[0].decide) is None and alone([seats], 1, force=True) == (nobody, 0)
    assert _same(batch.play(seats, 500, 2, alone=True), batch.play(seats, 500, 2, alone=False))
