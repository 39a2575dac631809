"""Differential tests: the compiled engine and the reference engine give identical traces, move
by move, on the same deals, for every built-in strategy, every player count and rule option."""

import pytest

from simkit.games.whos_the_ass import batch, reference
from simkit.games.whos_the_ass.rules import ASS_JOKER_OPTIONS, GAME, check_rules
from simkit.games.whos_the_ass.strategy import seats_for
from simkit.strategies import registry

pytestmark = pytest.mark.long  # left out of the development subset (pyproject.toml)

PLAYERS = range(3, 13)
HANDS_PER_CELL = 67  # x 10 player counts x 3 options = 2,010 deals per lineup
BUILTIN = [i.name for i in registry.available(GAME)]  # before any test registers its own
# a search at its defaults costs milliseconds a decision: fewer samples here (cheat: the engines hand it every hand)
LIGHT = {"pimc": "pimc(samples=2)", "cheat": "cheat(samples=2)"}
SEARCH_HANDS = 22  # and a third of the deals with a search at every seat: the reference plays its rollouts in Python


def _compare(specs, seed, hands=HANDS_PER_CELL):
    deals = 0
    for n in PLAYERS:
        for option in ASS_JOKER_OPTIONS:
            rules = check_rules({"ass_joker": option})
            seats = seats_for(specs if len(specs) == 1 else (specs * n)[:n], n)
            first = 1000 * n
            for k, fast in enumerate(batch.traces(seats, hands, seed, rules, first=first)):
                ref = reference.trace_hand(seed, first + k, seats, rules)
                assert fast == ref, f"{specs} n={n} {option} hand {first + k}"
                deals += 1
    return deals


@pytest.mark.parametrize("name", BUILTIN)
def test_every_builtin_strategy_plays_identically_in_both_engines(name):
    hands = SEARCH_HANDS if name in LIGHT else HANDS_PER_CELL
    assert _compare([LIGHT.get(name, name)], seed=2026, hands=hands) >= 30 * hands


def test_mixed_lineups_play_identically_in_both_engines():
    names = [LIGHT.get(name, name) for name in BUILTIN]
    assert _compare(names[::-1] + names, seed=7) >= 2000
