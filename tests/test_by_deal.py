"""Results grouped by what each seat was dealt (`simulate --by`, `--csv`): the features dealt again
are those of the hands played (checked against traces), the grouped means equal those computed
from the traces of the same hands, the same table for any chunks and threads, and bad input is one
line."""

import json
from collections import defaultdict

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.core.errors import SimkitError
from simkit.games import dealt as features_of
from simkit.games.whos_the_ass.features import dealt
from simkit.games.whos_the_ass.game import FEATURES

JOKER, ASS = 14, 0


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2 ** 63), st.integers(3, 12), st.integers(0, 10 ** 9))
def test_the_features_count_the_cards_dealt(seed, n, first):
    f = dealt(seed, first, 3, n)
    assert (f[:, :, FEATURES["ass"][0]].sum(axis=1) == 1).all()  # one ass (W5)
    assert (f[:, :, FEATURES["jokers"][0]] <= 5).all() and (f[:, :, FEATURES["low"][0]] <= 12).all()
    sizes = f[:, :, FEATURES["size"][0]]
    assert (sizes.max(axis=1) - sizes.min(axis=1) <= 1).all()  # W4: the cards go round the table
    assert (f[:, :, FEATURES["jokers"][0]] + f[:, :, FEATURES["low"][0]] <= sizes).all()


def _traced(run, tmp_path, strategies: str, hands: int, seed: int) -> list[dict]:
    path = tmp_path / "t.jsonl"
    code, _, err = run("trace", "-n", "4", "-H", hands, "--seed", seed, "--strategies", strategies, "-o", path)
    assert code == 0, err
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_the_grouped_means_are_those_of_the_traces_of_the_same_hands(run, tmp_path):
    """simulate --by jokers,ass --csv against the same hands traced: each seat's deal counted
    from its trace, its penalty read from the trace, grouped and averaged by hand."""
    records = _traced(run, tmp_path, "greedy,highest,lowest,spend", 400, 11)
    for record in records:  # the features dealt again are those of the traced deal
        f = dealt(11, record["hand"], 1, 4)[0]
        assert [[c.count(JOKER), c.count(ASS), len(c)] for c in record["deal"]] == f[:, :3].tolist()
    groups = defaultdict(list)
    for record in records:
        for s, cards in enumerate(record["deal"]):
            groups[(s, cards.count(JOKER), cards.count(ASS))].append(record["penalties"][s])
    code, _, err = run("simulate", "-n", "4", "-H", "400", "--seed", "11", "--strategies",
                       "greedy,highest,lowest,spend", "--by", "jokers,ass", "--csv", tmp_path / "by.csv")
    assert code == 0, err
    found = pd.read_csv(tmp_path / "by.csv")
    assert len(found) == len(groups)
    for row in found.itertuples():
        values = groups[(row.seat, row.jokers, row.ass)]
        assert row.n == len(values) and row.mean == pytest.approx(np.mean(values), abs=1e-12)
        if len(values) > 1:
            assert row.ci95 == pytest.approx(1.959963984540054 * np.std(values, ddof=1) / np.sqrt(len(values)))
    assert list(found.columns) == ["seat", "strategy", "jokers", "ass", "n", "mean", "ci95"]


def test_the_table_is_the_same_for_any_chunks_and_threads(run, tmp_path):
    tables = []
    for chunks, threads in ((1, 1), (7, 2)):
        out = tmp_path / f"{chunks}.csv"
        code, text, err = run("simulate", "-n", "5", "-H", "3000", "--seed", "4", "--strategies", "highest",
                              "--by", "low", "--chunks", chunks, "--threads", threads, "--csv", out)
        assert code == 0, err
        assert "by what each seat was dealt (low)" in text
        tables.append(out.read_bytes())
    assert tables[0] == tables[1]


def test_grouping_in_chunks_of_the_deal_is_the_same_as_at_once(monkeypatch):
    by = features_of.parse_by("whos-the-ass", "jokers,ass")
    values = np.arange(4000 * 4, dtype=np.int64).reshape(4000, 4) % 53
    whole = features_of.grouped_sums(by, values, 9)
    monkeypatch.setattr(features_of, "CHUNK", 777)
    parts = features_of.grouped_sums(by, values, 9)
    assert all(np.array_equal(getattr(whole, k), getattr(parts, k)) for k in ("count", "total", "squares"))


def test_without_by_the_csv_holds_each_seat(run, tmp_path):
    code, _, err = run("simulate", "-n", "3", "-H", "500", "--csv", tmp_path / "seats.csv")
    assert code == 0, err
    found = pd.read_csv(tmp_path / "seats.csv")
    assert list(found.columns) == ["seat", "strategy", "n", "mean", "ci95"] and found["n"].tolist() == [500] * 3


@pytest.mark.parametrize("args, message", [
    (("--by", "nosuch"), "unknown --by feature 'nosuch' (known: jokers, ass, size, low)"),
    (("--by", "jokers,jokers"), "--by names a feature twice"),
    (("--game", "ezelen", "--by", "jokers"), "unknown --by feature 'jokers' (known: pairs, most)"),
    (("--game", "eigenwijs", "--strategies", "right", "--by", "order"),
     "unknown --by feature 'order' (known: first, turn)"),
    (("--csv", "/nonexistent/x.csv"), "cannot write /nonexistent/x.csv"),
])
def test_bad_input_is_one_line(run, args, message):
    code, out, err = run("simulate", "-n", "4", "-H", "100", *args)
    assert code == 2 and message in err and err.count("\n") == 1 and not out


def test_parse_by_names_the_features():
    by = features_of.parse_by("whos-the-ass", "ass, jokers")
    assert by.names == ("ass", "jokers") and by.groups == 12 and by.values(7) == (1, 1)
    with pytest.raises(SimkitError, match="key 'by'"):
        features_of.parse_by("whos-the-ass", "aces", "key 'by'")


def test_ezelen_features_are_those_of_the_reference_deal():
    from simkit.core.rng import py_hand_state, py_match_seed
    from simkit.games.ezelen import features, reference

    for n in (2, 4, 7):
        f = features.dealt(13, 5, 20, n)
        for i in range(20):
            hands, _ = reference.deal(py_hand_state(py_match_seed(13, 5 + i), 0), n)
            for s, hand in enumerate(hands):
                counts = [hand.count(v) for v in set(hand)]
                assert f[i, s].tolist() == [sum(c // 2 for c in counts), max(counts)]


def test_ezelen_rounds_are_grouped_by_the_pairs_dealt(run, tmp_path):
    code, out, err = run("simulate", "--game", "ezelen", "-n", "4", "-H", "3000", "--seed", "2", "--by", "pairs",
                         "--csv", tmp_path / "e.csv")
    assert code == 0, err
    found = pd.read_csv(tmp_path / "e.csv")
    assert found.groupby("seat")["n"].sum().tolist() == [3000] * 4 and set(found["pairs"]) <= {0, 1, 2}
    lost = (found["mean"] * found["n"]).groupby(found["seat"]).sum().round().astype(int)
    assert 0 < lost.sum() <= 3000  # at most one loser a round (a tie or a stalled round has none)


def test_eigenwijs_games_are_grouped_by_the_seat_that_flipped_first(run, tmp_path):
    """simulate --game eigenwijs --by first,turn against the same games traced (E4): each seat's
    place from the traced start seat, whether it lost read from the trace's winner."""
    path = tmp_path / "t.jsonl"
    args = ("--game", "eigenwijs", "-n", "3", "--seed", "4", "--strategies", "right,quick,right")
    code, _, err = run("trace", *args, "-H", "300", "-o", path)
    assert code == 0, err
    groups = defaultdict(list)
    for record in map(json.loads, path.read_text().splitlines()):
        for s in range(3):
            turn = (s - record["start"]) % 3
            groups[(s, int(turn == 0), turn)].append(record["winner"] != s)
    code, _, err = run("simulate", *args, "-H", "300", "--by", "first,turn", "--csv", tmp_path / "e.csv")
    assert code == 0, err
    found = pd.read_csv(tmp_path / "e.csv")
    assert len(found) == len(groups) == 9
    for row in found.itertuples():
        values = groups[(row.seat, row.first, row.turn)]
        assert row.n == len(values) and row.mean == pytest.approx(np.mean(values), abs=1e-12)
