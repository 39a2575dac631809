"""One description per game (simkit.games): every registered game describes itself completely,
and nothing outside its own folders names it, so a third game is one folder and one line."""

import re
from pathlib import Path

import pytest

import simkit
from simkit import games
from simkit.core.errors import SimkitError
from simkit.strategies import registry

SOURCES = Path(simkit.__file__).parent


@pytest.mark.parametrize("name", games.names())
def test_a_game_describes_itself(name):
    game = games.get(name)
    assert game.name == name and game.title and game.deal in ("hand", "round", "game")
    low, high = game.players
    for n in (low, high):
        game.check_players(n)
    for n in (low - 1, high + 1):
        with pytest.raises(SimkitError, match=game.title.split()[0]):
            game.check_players(n)
    assert game.check_rules({}) == game.rules  # the defaults are the rules in force
    with pytest.raises(SimkitError, match="unknown rule option"):
        game.check_rules({"no_such_rule": 1})
    assert game.match_modes[0] == "single" and set(game.counted_modes) <= set(game.match_modes)
    for mode in game.match_modes:
        measures = game.measures(mode)
        assert measures.main in measures.seat and measures.per in measures.seat
    for strategy in (game.default_strategy, game.default_baseline):
        assert registry.get(name, strategy).game == name
    for hook in (game.play, game.measured, game.simulate, game.traces, game.show, game.checker, game.seats_for):
        assert callable(hook)
    assert game.bench and game.bench_players and game.reference_deals > 0
    assert game.unit() == game.deal + "s"


def test_an_unknown_game_is_one_line_naming_the_known_ones():
    with pytest.raises(SimkitError, match=r"unknown game 'chess' \(known: whos-the-ass, ezelen, eigenwijs\)"):
        games.get("chess")


def _own_folders(name: str) -> tuple[Path, ...]:
    package = games.REGISTERED[name].rsplit(".", 1)[0].replace(".", "/")
    return SOURCES.parent / package, SOURCES / "strategies" / package.rsplit("/", 1)[1]


def test_no_module_outside_a_games_folders_names_it():
    """The command line, registry, runner and report take every game from its description."""
    for name in games.names():
        quoted = re.compile(rf"[\"']{re.escape(name)}[\"']")
        mine = _own_folders(name)
        for path in SOURCES.rglob("*.py"):
            if path == SOURCES / "games" / "__init__.py" or any(folder in path.parents for folder in mine):
                continue
            assert not quoted.search(path.read_text()), f"{path.relative_to(SOURCES.parent)} names {name!r}"
