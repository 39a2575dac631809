"""Reports: the files exist, the HTML is self-contained, and the paired statistics are right."""

import pytest

from simkit.analyses.reports import make_report
from simkit.core.errors import SimkitError
from simkit.experiments import runner
from simkit.experiments.report.answer import answer
from simkit.experiments.report.tables import paired_differences, strategy_means
from simkit.experiments.spec import parse_spec_dict


@pytest.fixture(scope="module")
def run_folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("run")
    spec = parse_spec_dict({"name": "r", "players": 4, "hands": 3000, "seed": 2,
                            "lineup": ["dodge", "greedy", "lowest", "lowest"]})
    runner.run_spec(spec, str(folder / "o"))
    return folder / "o"


def test_report_files_and_embedded_figures(run_folder):
    page = make_report(str(run_folder)).read_text()
    assert page.count("data:image/png;base64,") == 4
    assert page.index("difference.png") < page.index("<h2>")  # the answer comes first: the forest plot
    assert page.count("<figcaption>") == page.count("<img") == 4  # every figure says what it draws
    assert "95% intervals over n = 3,000 deals" in page
    for name in ("report.md", "difference.png", "comparison.png", "distribution.png", "hand-length.png"):
        assert (run_folder / name).stat().st_size > 0
    md = (run_folder / "report.md").read_text()
    assert "Paired difference to lowest" in md and "| greedy | -" in md and "Seat position effect" in md
    assert "| baseline |" not in md  # the same in every row: the title says it


def test_a_strategy_identical_to_the_baseline_differs_by_exactly_zero(tmp_path):
    """With `dodge` (the baseline's decisions) against three `lowest`, every rotation plays the
    same game, so each (deal, seat) pair differs by exactly 0."""
    spec = parse_spec_dict({"name": "z", "players": 4, "hands": 2000, "seed": 4,
                            "lineup": ["dodge", "lowest", "lowest", "lowest"]})
    done = runner.run_spec(spec, str(tmp_path / "z"))
    diffs = paired_differences(done.stats, "lowest").set_index("strategy")
    assert diffs.loc["dodge", "difference"] == 0 and diffs.loc["dodge", "ci95"] == 0
    assert not diffs.loc["dodge", "decisive"] and diffs.loc["dodge", "n"] == 2000  # deals


def test_a_stronger_strategy_is_decisive(run_folder):
    diffs = paired_differences(runner.read_stats(str(run_folder)), "lowest")
    greedy = diffs.set_index("strategy").loc["greedy"]
    assert greedy["decisive"] and greedy["difference"] < 0 and greedy["n"] == 3000


def test_report_of_an_empty_folder(tmp_path):
    with pytest.raises(SimkitError, match="holds no stats.parquet"):
        make_report(str(tmp_path))


def test_the_answer_names_the_best_and_its_margins_from_the_tables(run_folder):
    """greedy beats the others here by far: the sentence gives its mean and its paired margins
    over the runner-up and the baseline as the tables have them."""
    stats = runner.read_stats(str(run_folder))
    sentence = answer(stats, "lowest")
    means = strategy_means(stats).set_index("strategy").sort_values("mean")
    best, runner_up = means.index[0], means.index[1]
    assert sentence.startswith(f"{best} does best: it scores {means.loc[best, 'mean']:.2f} ± ")
    for rival in {runner_up, "lowest"}:
        row = paired_differences(stats, rival).set_index("strategy").loc[best]
        assert f"{abs(row['difference']):.2f} ± {row['ci95']:.2f} fewer than" in sentence
    assert sentence.endswith("(95% intervals, paired on the same deals).")
    make_report(str(run_folder))
    assert f"**{sentence}**" in (run_folder / "report.md").read_text()


def test_a_caption_says_when_the_intervals_are_too_narrow_to_see():
    import pandas as pd

    from simkit.experiments.report.captions import captions
    from simkit.games.whos_the_ass.game import PENALTY

    diffs = pd.DataFrame({"cell": [0, 0], "strategy": ["a", "b"], "difference": [-14.5, 4.9], "ci95": [0.06, 0.07]})
    wide = diffs.assign(ci95=[2.0, 1.5])
    assert "narrower than the markers" in captions(PENALTY, 10, diffs, "lowest")["difference.png"]
    assert "narrower than the markers" not in captions(PENALTY, 10, wide, "lowest")["difference.png"]


def test_a_report_says_that_cheat_sees_every_hand(tmp_path):
    spec = parse_spec_dict({"name": "c", "players": 4, "hands": 6, "seed": 1,
                            "lineup": ["cheat(samples=2)", "lowest", "lowest", "lowest"]})
    runner.run_spec(spec, str(tmp_path / "c"))
    make_report(str(tmp_path / "c"))
    md = (tmp_path / "c" / "report.md").read_text()
    assert "cheat(samples=2) † sees every player's hand: a ceiling on good play, not a way to play." in md
    answer = next(line for line in md.splitlines() if line.startswith("**"))
    assert "cheat(samples=2) †" in answer  # marked in the answer, in every table and in every figure
    rows = [line for line in md.splitlines() if line.startswith("| ") and "cheat(samples=2)" in line]
    assert rows and all("cheat(samples=2) †" in line for line in rows)
    from simkit.experiments.report.summary import figures_for, marked, summary

    stats = runner.read_stats(str(tmp_path / "c"))
    shown = {title: marked("whos-the-ass", frame) for title, frame in summary(stats, "lowest").items()}
    figs = figures_for(stats, shown, "lowest", "whos-the-ass")
    texts = [t.get_text() for fig in figs.values() for ax in fig.axes
             for t in ax.get_yticklabels() + (ax.get_legend().get_texts() if ax.get_legend() else [])]
    named = [t for t in texts if "cheat(samples=2)" in t]
    assert named and all("cheat(samples=2) †" in t for t in named)
