"""Eigenwijs readings of the text (docs/rules/eigenwijs.md, Readings): who plays on which piles
by default (E13), where the extra Wij case arises (E7), and the words in use with 2 players on
own piles (E7, H2), for the rules, the engine, the reference and the `guesser` strategy."""

import json

import numpy as np
import pytest

from simkit.games.eigenwijs import reference as R
from simkit.games.eigenwijs.cards import right_word
from simkit.games.eigenwijs.rules import (
    EMPTY,
    JULLIE,
    WIJ,
    card_of,
    check_rules,
    piles,
    rotating_at,
)
from simkit.games.eigenwijs.strategy import seats_for


@pytest.mark.parametrize("players, rotating, expected", [
    (2, "auto", 2), (3, "auto", 3), (4, "auto", 4), (5, "auto", 3), (6, "auto", 3),  # E13 reading: "met meer spelers"
    (3, True, 4), (6, True, 3), (4, True, 3), (5, False, 5), (6, False, 6), (2, True, 3),
])
def test_e13_the_piles_follow_the_player_count_by_default(players, rotating, expected):
    rules = check_rules({"rotating": rotating})
    assert piles(rules, players) == expected
    assert rotating_at(rules, players) == (expected != players or (players == 3 and expected == 4))


def test_e13_the_default_is_auto_and_takes_no_other_words():
    assert check_rules({})["rotating"] == "auto"
    assert check_rules({"rotating": "true"})["rotating"] is True
    with pytest.raises(ValueError, match="rotating must be true, false or auto, got 'yes'"):
        check_rules({"rotating": "yes"})


@pytest.mark.parametrize("players", [5, 6])
def test_e13_five_and_six_players_play_on_rotating_piles_in_the_engine_and_the_reference(players, run, tmp_path):
    """A default game at 5 or 6 players: every card goes onto the pile after the last (3 piles),
    in the compiled engine's trace and in the reference engine's record, which agree."""
    out = tmp_path / "t.jsonl"
    code, _, err = run("trace", "--game", "eigenwijs", "-n", players, "-H", "2", "-s", "3", "-o", out)
    assert code == 0, err
    for line in out.read_text().splitlines():
        record = json.loads(line)
        assert record["rules"]["rotating"] == "auto"
        used = [t["pile"] for t in record["turns"]]
        assert set(used) <= {0, 1, 2} and all(b == (a + 1) % 3 for a, b in zip(used, used[1:]))
        seats = seats_for(record["strategies"], players)
        again = R.trace_game(record["seed"], record["number"], seats, record["rules"])
        assert [t["pile"] for t in again["turns"]] == used


@pytest.mark.parametrize("piles_open", [4, 5, 6])
def test_e7_wij_with_three_or_more_others_where_four_piles_are_open(piles_open):
    """The player's card and three or more others hold the majority colour: read as Wij. Four open
    piles arise with 4-6 players on own piles and with 3 players on rotating piles (E13: 4 piles)."""
    tops = np.full(8, EMPTY, np.int64)
    tops[:piles_open] = card_of("r1")
    tops[piles_open - 1] = card_of("b1")  # one pile of another colour: red still leads
    assert right_word(tops, piles_open, 0) == WIJ
    assert piles(check_rules({"rotating": True}), 3) == 4 and piles(check_rules({}), 4) == 4


def test_e7_h2_guesser_never_means_jullie_with_two_players_on_own_piles(run, tmp_path):
    """With 2 players on own piles Jullie is not in use (E7, H2): guesser means any word but
    Jullie there, and Jullie too where three piles are open (rotating piles)."""
    meant = {}
    for rotating in ("false", "true"):
        out = tmp_path / f"{rotating}.jsonl"
        code, _, err = run("trace", "--game", "eigenwijs", "-n", "2", "-H", "12", "--strategies", "guesser",
                           "--rotating", rotating, "--rule", "max_turns=300", "-o", out)  # games of no skill: capped
        assert code == 0, err
        meant[rotating] = {t["meant"] for line in out.read_text().splitlines() for t in json.loads(line)["turns"]
                           if "meant" in t}  # a turn that ends the game calls nothing (E10)
    words = {"Niemand", "Ik", "Jij", "Wij", "slap"}
    assert words <= meant["false"] and "Jullie" not in meant["false"]
    assert words | {"Jullie"} <= meant["true"]
    assert (WIJ, JULLIE) == (3, 4)
