"""Ezelen through the experiment runner and the report: every round of every match (Z7), the same
results however the run is split, and the report's Ezelen sections."""

import numpy as np
import pandas as pd
import pytest
from conftest import results

from simkit.analyses.reports import make_report
from simkit.experiments import runner
from simkit.experiments.report import summary
from simkit.experiments.spec import parse_spec_dict
from simkit.games.ezelen import batch
from simkit.games.ezelen.strategy import seats_for

SPEC = {"name": "ez", "game": "ezelen", "players": 4, "hands": 600, "seed": 8,
        "lineups": [["greedy", "random", "sticky", "memory"], ["greedy"]], "match": {"mode": "ezel"},
        "model": {"tempo_fault": 0.01}}


def test_z7_match_rounds_are_the_rounds_of_the_matches():
    """Every round of every match, in order: round 0 of match m is single round m, the losers
    add up to the letters, and the match ends at its donkey's fourth letter."""
    seats = seats_for(["greedy", "random", "sticky", "memory"], 4)
    matches, rounds, offsets = batch.match_rounds(seats, 150, 4, model={"tempo_fault": 0.01})
    plain = batch.matches(seats, 150, 4, model={"tempo_fault": 0.01})
    assert (matches.donkey == plain.donkey).all() and (matches.rounds == plain.rounds).all()
    single = batch.play(seats, 150, 4, model={"tempo_fault": 0.01})
    assert (rounds.loser[offsets[:-1]] == single.loser).all()
    assert (rounds.first_signal[offsets[:-1]] == single.first_signal).all()
    for m in range(150):
        lost = rounds.loser[offsets[m]:offsets[m + 1]]
        assert (np.bincount(lost[lost >= 0], minlength=4) == matches.letters[m]).all()
        assert lost[-1] == matches.donkey[m] and matches.letters[m].max() == 4
        reasons = np.bincount(rounds.reason[offsets[m]:offsets[m + 1]], minlength=4)
        assert (reasons == matches.reasons[m]).all()


@pytest.fixture(scope="module")
def ezelen_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("ez") / "run"
    runner.write_results(parse_spec_dict(SPEC), str(folder), chunk=250, keep_rows=True)
    return folder


def test_an_ezelen_run_is_the_same_results_whole_or_chunked(ezelen_run, tmp_path, monkeypatch):
    monkeypatch.setattr(runner, "CHUNK_MATCHES", 10**6)
    runner.write_results(parse_spec_dict(SPEC), str(tmp_path / "whole"), keep_rows=True)
    assert results(tmp_path / "whole") == results(ezelen_run)


def test_ezelen_results_are_tidy_with_every_model_value(ezelen_run):
    table = pd.read_parquet(ezelen_run / "results.parquet")
    assert {"match", "round", "seat", "strategy", "lost", "reason", "turns", "first_signal", "donkey", "letters",
            "attention", "base_notice", "cascade", "reaction_median", "reaction_sigma", "tempo_fault", "beat",
            "max_turns"} <= set(table.columns)
    assert (table["tempo_fault"] == 0.01).all() and (table["base_notice"] == 0.35).all()  # M8: all written
    per_round = table.groupby(["cell", "rotation", "match", "round"])
    assert (per_round["lost"].sum() == (per_round["reason"].first().isin(["last", "tempo"]))).all()
    assert table.groupby(["cell", "rotation", "match"]).ngroups == 600 * (4 + 1)  # the all-greedy table once
    final = table.groupby(["cell", "rotation", "match", "seat"])
    assert (final["lost"].sum() == final["letters"].first()).all()  # letters = rounds lost (Z7)


def test_the_ezelen_report(ezelen_run):
    page = make_report(str(ezelen_run)).read_text()
    for title in ("Share of rounds lost per strategy", "Became the donkey (E-Z-E-L)", "Rounds lost by cause",
                  "How rounds end", "Turn of the first signal", "Paired difference to random", "In short"):
        assert title in page
    pngs = sorted(p.name for p in ezelen_run.glob("*.png"))
    assert {"comparison.png", "donkey.png", "loss-causes.png", "first-signal.png"} <= set(pngs)
    assert page.count("data:image/png;base64,") == len(pngs)
    stats = summary(runner.read_stats(str(ezelen_run)), "random")
    ends = stats["How rounds end"]
    assert set(ends["ended by"]) == {"last", "tempo", "tie", "stalled"}
    shares = ends.groupby("cell")["share"].sum()
    assert np.allclose(shares, 1)  # every round ends one way
    donkeys = stats["Became the donkey (E-Z-E-L)"]
    mixed = donkeys[donkeys["cell"] == 0]
    assert mixed["donkey"].sum() == pytest.approx(1)  # every match has exactly one donkey among the four


def test_shares_of_rounds_count_rounds_not_matches(ezelen_run):
    """In a match every round counts once: the share of rounds lost is lost rounds over rounds,
    not the average of each match's share (which would favour short matches)."""
    table = pd.read_parquet(ezelen_run / "results.parquet")
    stats = summary(runner.read_stats(str(ezelen_run)), "random")
    lost = stats["Share of rounds lost per strategy"].set_index(["cell", "strategy"])["mean"]
    pooled = table.groupby(["cell", "strategy"], observed=True)["lost"].mean()
    assert lost.to_dict() == pytest.approx({(c, str(s)): v for (c, s), v in pooled.items()})
    ends = stats["How rounds end"].set_index(["cell", "ended by"])["share"]
    one = table[table["seat"] == 0]
    counted = one.groupby(["cell", "reason"], observed=False).size() / one.groupby("cell").size()
    assert ends.to_dict() == pytest.approx({(c, str(r)): v for (c, r), v in counted.items()})
