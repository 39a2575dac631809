"""A fourth game touches no shared file: Pig (tests/fourth_game, a dice game that lives only in the
tests, with its compiled engine, its strategies and its measures) is registered from here by
`simkit.games.register` and played through `simulate`, `run` and `report` like a built-in game,
its numbers checked against its own plain-Python play of the same games."""

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import simkit
from simkit import experiments, games
from simkit.analyses.reports import make_report
from simkit.cli import cli
from simkit.experiments.chunks import rotated
from simkit.experiments.report import rows as from_rows
from simkit.experiments.report import summary
from simkit.experiments.report.tables import pairwise, strategy_means
from simkit.games.summary import share

NAME = "pig"
WHERE = "fourth_game.game:GAME"  # tests/ is on sys.path under pytest (its conftest.py's folder)
LINEUP = ["hold_at", "chase", "coin"]
SPEC = {"name": "pig-lineup", "game": NAME, "players": 3, "hands": 300, "seed": 9, "lineup": LINEUP,
        "baseline": "hold_at"}


@pytest.fixture(scope="module")
def pig():
    """Pig, registered for this module's tests in this process (a pytest-xdist worker runs the
    chunks of an experiment in itself, so this registration is all it needs), and gone again after:
    other tests list the registered games (tests/test_games.py)."""
    games.register(NAME, WHERE)
    yield games.get(NAME)
    games.unregister(NAME)


def _played(game, specs: list[str], seed: int, count: int, rules: dict | None = None) -> list[dict]:
    from fourth_game import reference

    seats = game.seats_for(specs, len(specs))
    return [reference.play_game(seats, seed, g, rules) for g in range(count)]


def test_the_engine_plays_the_rules_as_the_plain_python_play_does(pig):
    from fourth_game import batch
    from fourth_game.engine import BUSTS, ROLLS, SCORE, START, TURNS, WINNER

    specs = ["coin", "hold_at(limit=12)", "chase", "hold_at"]
    out = batch.play(pig.seats_for(specs, 4), 300, 5, {"goal": 40})
    for g, ref in enumerate(_played(pig, specs, 5, 300, {"goal": 40})):
        row = out[g]
        assert (row[START], row[WINNER], row[TURNS]) == (ref["start"], ref["winner"], ref["turns"]), g
        for at, key in ((SCORE, "score"), (BUSTS, "busts"), (ROLLS, "rolls")):
            assert row[at:at + 4].tolist() == ref[key], (g, key)
    assert set(out[:, WINNER]) == {0, 1, 2, 3}


def test_simulate_prints_each_seat_as_played(pig):
    result = CliRunner().invoke(cli, ["simulate", "--game", NAME, "-n", "3", "--strategies", ",".join(LINEUP),
                                      "--hands", "400", "--seed", "4", "--rule", "goal=30"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Pig - 3 players, 400 games, seed 4, goal=30, max_turns=1000")
    won = np.bincount([g["winner"] for g in _played(pig, LINEUP, 4, 400, {"goal": 30})], minlength=3)
    for seat, strategy in enumerate(LINEUP):
        row = next(line for line in lines if re.match(rf"{seat}\s+{re.escape(strategy)}\s", line))
        assert share(won[seat], 400) in row
    assert any(line.startswith("mean turns per game: ") for line in lines)


@pytest.fixture(scope="module")
def lineup_run(pig, tmp_path_factory):
    folder = tmp_path_factory.mktemp("pig") / "run"
    return folder, experiments.run(SPEC, folder, rows=True)


def test_a_run_measures_what_the_plain_python_play_counts(pig, lineup_run):
    """Each strategy's mean points short of the goal, its busts and rolls per game, as the rotated
    lineup plays the same 300 games: the run's exact statistics, and its rows, against the sums of
    the plain-Python play."""
    _, done = lineup_run
    sums = {name: np.zeros(4) for name in LINEUP}  # rows, short, busts, rolls
    for r in range(3):
        seated = rotated(tuple(LINEUP), r)
        for game in _played(pig, seated, SPEC["seed"], SPEC["hands"]):
            for s, name in enumerate(seated):
                sums[name] += (1, 50 - min(game["score"][s], 50), game["busts"][s], game["rolls"][s])
    means = strategy_means(done.stats).set_index("strategy")
    per_game = summary(done)["Per strategy and game (means)"].set_index("strategy")
    by_rows = from_rows.strategy_means(done.rows, "short").set_index("strategy")
    for name, (count, short, busts, rolls) in sums.items():
        assert means.loc[name, "mean"] == pytest.approx(short / count, rel=1e-12)
        assert by_rows.loc[name, "mean"] == pytest.approx(short / count, rel=1e-12)
        assert per_game.loc[name, "busts"] == pytest.approx(busts / count, rel=1e-12)
        assert per_game.loc[name, "rolls"] == pytest.approx(rolls / count, rel=1e-12)
        assert means.loc[name, "n"] == SPEC["hands"]
    assert experiments.run(SPEC).stats == done.stats  # the same seed, the same statistics


def test_a_sweep_of_a_strategy_parameter(pig, tmp_path):
    spec = {"name": "pig-sweep", "game": NAME, "players": 2, "hands": 200, "seed": 3, "lineup": ["hold_at", "chase"],
            "baseline": "chase", "sweep": {"hold_at.limit": [5, 20, 60]}}
    done = experiments.run(spec, tmp_path / "sweep")
    curve = summary(done, "chase")["Parameter sweep"]
    assert curve["value"].tolist() == [5, 20, 60] and set(curve["strategy"]) == {"hold_at"}
    assert curve["measure"].eq("difference to chase").all() and (curve["n"] == 200).all()
    assert (tmp_path / "sweep" / "sweep.png").is_file()


def _main_renamed(stats, name: str):
    """`stats` as though Pig called its main measure `name`."""
    m = stats.layout.measures
    measures = replace(m, seat=tuple(name if x == m.main else x for x in m.seat), main=name, seat_histogram=name)
    return replace(stats, layout=replace(stats.layout, measures=measures))


def _two_a_table(stats):
    """`stats` as though its table seated two strategies (a head to head)."""
    cells = tuple({**c, "strategies": c["strategies"][:2]} for c in stats.layout.cells)
    return replace(stats, layout=replace(stats.layout, cells=cells))


@pytest.mark.parametrize("name", ["penalty", "total", "lost"])
def test_a_main_measure_named_as_a_built_in_one_brings_none_of_its_sections(lineup_run, name):
    """The report's sections of a built-in game's own measures (Who's the Ass?'s went out and match
    wins, Ezelen's causes of a lost round) come with the measures they read, not with the name of
    a game's main measure."""
    stats = lineup_run[1].stats
    assert list(summary(_main_renamed(stats, name), "hold_at")) == list(summary(stats, "hold_at"))
    assert pairwise(_two_a_table(_main_renamed(stats, name))).equals(pairwise(_two_a_table(stats)))


def test_the_report_speaks_of_pig_in_its_own_words(lineup_run):
    folder, _ = lineup_run
    page = make_report(str(folder))
    md = (folder / "report.md").read_text()
    assert md.startswith("# pig-lineup\n\nPig, 3 players at one table (single games)")
    assert "a deal's seats and rotations share its dice" in md
    answer = md.split("**")[1]
    assert " does best" in answer and "points short of the goal per game and seat" in answer
    short = md.split("## In short", 1)[1].split("##", 1)[0]
    assert " does best: it scores " in short and " points short of the goal per game and seat, " in short
    for title in ("## Mean points short of the goal per strategy", "## Per strategy and game (means)",
                  "## Per table and game", "## Paired difference to hold_at (same deal, same seat; negative = "
                  "fewer points short)", "## Seat position effect"):
        assert title in md
    assert "where 0 is common (the winner)" in md and "busted (rolled a 1)" in md and "Turns per game (a turn" in md
    for other in ("penalty", "hand", "trick", "went out", "card", "E8", "round"):  # no other game's words
        assert other not in md, other
    for figure in ("difference.png", "comparison.png", "distribution.png", "seat-means.png", "game-length.png"):
        assert f"![{figure}]({figure})" in md and (folder / figure).stat().st_size > 0
    assert page.name == "report.html" and page.read_text().count("data:image/png;base64,") == 5


def test_nothing_in_simkit_names_the_fourth_game():
    for path in Path(simkit.__file__).parent.rglob("*.py"):
        text = path.read_text()
        assert "fourth_game" not in text and not re.search(rf"[\"']{NAME}[\"']", text), path
