"""Rule options as a sweep dimension (docs/reports.md, "Rule variants, paired"): every variant a
table of its own, played on the same deal numbers, its paired differences to the reference rules
checked against the per-hand rows and against each variant run on its own."""

import tomllib

import numpy as np
import pytest

from simkit import experiments
from simkit.core.errors import SimkitError
from simkit.experiments import statistics as st
from simkit.experiments.report import answer, summary
from simkit.experiments.report.answer import answered, kind
from simkit.experiments.report.summary import VARIANTS
from simkit.experiments.report.variants import rule_variants
from simkit.experiments.spec import parse_spec_dict, spec_toml
from simkit.stats.intervals import Z95

EIGENWIJS = {"name": "v", "game": "eigenwijs", "players": 4, "hands": 120, "seed": 5,
             "lineup": ["right", "careful", "quick", "beginner"], "baseline": "right"}


def _spec(sweep: dict, **more):
    return parse_spec_dict({**EIGENWIJS, **more, "sweep": sweep})


def test_a_swept_rule_option_makes_a_table_per_value_under_those_rules():
    spec = _spec({"rules.precies": [False, True], "rules.rotating": [False, True]})
    assert spec.sweep["rules.precies"] == [False, True]  # checked as [rules] checks it
    with pytest.raises(SimkitError, match="rule option precies must be true or false in a spec, got 'false'"):
        _spec({"rules.precies": ["false", True]})  # a spec's values have their TOML types: no text for a switch
    cells = spec.cells()
    assert [dict(c.rules) for c in cells] == [{"precies": p, "rotating": r} for p in (False, True)
                                              for r in (False, True)]
    assert [spec.reference(c) for c in cells][0] is None and all(spec.reference(c) == cells[0] for c in cells[1:])
    assert spec.rules_of(cells[3])["precies"] is True and spec.rules["precies"] is False
    assert parse_spec_dict(tomllib.loads(spec_toml(spec))) == spec


@pytest.mark.parametrize("sweep, more, words", [
    ({"rules.chiks": [False, True]}, {}, "unknown rule option 'chiks' for eigenwijs; did you mean 'chicks'?"),
    ({"rules.chicks": [True]}, {}, "must be a list of at least two values of rule option 'chicks'"),
    ({"rules.chicks": [True, True]}, {}, "lists a value twice"),
    ({"rules.chicks": [False, True]}, {"rules": {"chicks": True}}, "is also set in [rules]; give it in one place"),
    ({"rules.colours": [4, 99]}, {}, "rule option colours must be a whole number from 2 to 6, got 99"),
    ({"rules.chicks": [False, True], "rules.beginners": [False, True]}, {},
     "the variant chicks = True, beginners = True: the beginners' version of Eigenwijs has no chicks"),
])
def test_a_bad_rule_sweep_is_one_error_naming_the_key(sweep, more, words):
    with pytest.raises(SimkitError) as e:
        _spec(sweep, **more)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_each_variant_plays_as_a_run_under_its_rules_and_the_deals_are_shared():
    """A variant's table is what a spec with those rules in [rules] plays: the same deals."""
    spec = _spec({"rules.precies": [False, True]})
    swept = st.reduce_chunk(spec, 0, 60)
    lay = swept.layout
    for ci, precies in enumerate((False, True)):
        alone = st.reduce_chunk(parse_spec_dict({**EIGENWIJS, "rules": {"precies": precies}}), 0, 60)
        assert (swept.table.total[ci] == alone.table.total[0]).all()
        assert (swept.table.gram[ci] == alone.table.gram[0]).all()
        mine = [g for g, key in enumerate(lay.groups) if key[:2] == ("strategy", ci)]
        theirs = [g for g, key in enumerate(alone.layout.groups) if key[:2] == ("strategy", 0)]
        assert (swept.seat.total[mine] == alone.seat.total[theirs]).all()
    assert lay.table_pairs == ((1, 0),)
    assert st.reduce_chunk(spec, 0, 25) + st.reduce_chunk(spec, 25, 60) == swept  # chunks merge exactly


def _deal_differences(rows, cell: int, ref: int, pick, value: str):
    """Each deal's linearised difference of a ratio mean between two cells, from the rows."""
    per = []
    for c in (cell, ref):
        part = rows[(rows["cell"] == c) & pick(rows)]
        sums = part.groupby("game")[value].agg(["sum", "count"])
        per.append((sums["sum"].to_numpy(float), sums["count"].to_numpy(float)))
    (sa, ca), (sb, cb) = per
    ra, rb = sa.sum() / ca.sum(), sb.sum() / cb.sum()
    e = (sa - ra * ca) / ca.sum() - (sb - rb * cb) / cb.sum()
    return ra - rb, Z95 * np.sqrt(len(e) / (len(e) - 1) * (e ** 2).sum())


def test_the_paired_differences_are_those_of_the_deals_in_the_rows(tmp_path):
    spec = {**EIGENWIJS, "sweep": {"rules.chicks": [False, True], "rules.precies": [False, True]}}
    done = experiments.run(spec, tmp_path / "o", rows=True, report=False)
    frame = rule_variants(done.stats)
    rows = done.rows
    assert set(frame["variant"]) == {"precies = true", "chicks = true", "chicks = true, precies = true"}
    checked = 0
    for r in frame.itertuples():
        if r.measure == "turns per game" and not r.strategy:
            d, h = _deal_differences(rows, r.cell, 0, lambda t: t["seat"] == 0, "turns")  # a game's turns: once
        elif r.strategy:
            assert r.measure == "share of games lost"
            name = r.strategy
            d, h = _deal_differences(rows, r.cell, 0, lambda t: t["strategy"] == name, "games_lost")
        else:
            continue
        assert r.difference == pytest.approx(d, abs=1e-12) and r.ci95 == pytest.approx(h, rel=1e-9)
        checked += 1
    assert checked == 3 * 5


def test_pairing_narrows_the_interval_where_the_cards_are_the_same():
    """Precies changes only the play: a variant's games are the reference's deals, so their
    lengths go together and the paired interval is narrower than the unpaired one."""
    stats = st.reduce_chunk(_spec({"rules.precies": [False, True]}), 0, 120)
    from simkit.stats.intervals import ratio_ci

    turns = stats.layout.table_measures.index("turns")
    row = rule_variants(stats).query("measure == 'turns per game'").iloc[0]
    apart = np.hypot(ratio_ci(stats.table, 0, turns, 0)[1], ratio_ci(stats.table, 1, turns, 0)[1])
    assert row.ci95 < 0.8 * apart


def test_the_report_answers_with_each_variant_against_the_reference(tmp_path):
    done = experiments.run({**EIGENWIJS, "sweep": {"rules.chicks": [False, True], "rules.rotating": [False, True]}},
                           tmp_path / "o")
    stats = done.stats
    assert kind(stats) == "variants"
    said = answered(stats, "right", game="eigenwijs")
    assert said.sentence.startswith("Against the reference rules (chicks = false, rotating = false), paired on "
                                    "the same deals (95% intervals): ")
    frame = rule_variants(stats)
    lengths = frame[frame["measure"] == "turns per game"]
    biggest = lengths.loc[lengths["difference"].abs().idxmax(), "variant"]
    assert said.lines[1].startswith(f"{biggest}: turns per game ")  # the largest change first
    assert said.lines[0] == ("The reference rules: chicks = false, rotating = false; each variant against them, "
                             "paired on the same deals.")
    assert any(line.startswith("Pairing: chicks changes the cards dealt") for line in said.lines)
    assert answer(stats, "right", game="eigenwijs") == said.sentence
    assert VARIANTS in summary(stats, "right")
    md = (tmp_path / "o" / "report.md").read_text()
    assert f"**{said.sentence}**" in md and "| table | rules | strategy |" in md and "variants.png" in md
    assert "swept: chicks, rotating (a table per variant)" in md
    assert "- rule variant: " in md and "- reference rules: " in md  # its words, at the end


@pytest.mark.parametrize("game, sweep, lineup", [
    ("whos-the-ass", {"rules.ass_joker": ["1or14", "any"]}, ["hoard", "lowest", "lowest", "lowest"]),
    ("ezelen", {"rules.beat": [0.2, 3.0]}, ["greedy", "sticky", "memory", "random"]),
])
def test_any_rule_option_of_any_game_can_be_swept(game, sweep, lineup, tmp_path):
    spec = {"name": "g", "game": game, "players": 4, "hands": 60, "lineup": lineup, "sweep": sweep}
    done = experiments.run(spec, tmp_path / "o", rows=True)
    option = next(iter(sweep))[len("rules."):]
    assert list(done.rows.groupby("cell")[option].first()) == sweep[f"rules.{option}"]
    said = answered(done.stats, str(parse_spec_dict(spec).baseline), game=game)
    assert said.sentence.startswith(f"Against the reference rules ({option} = ")
    assert "Pairing: every variant is played on the same deals" in said.lines[-1]
