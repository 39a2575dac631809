"""The committed example reports are what the code produces (their tables, to the last digit):
`make example` wrote them; a changed engine, rule reading or report shows up here."""

from pathlib import Path

import pytest

from simkit import experiments

EXAMPLES = {  # spec -> the size `make example` runs it at, and figures it must hold
    "joker-timing": (20000, ("difference.png", "sweep.png", "comparison.png", "distribution.png", "hand-length.png")),
    "ezelen-passing": (200, ("difference.png", "comparison.png", "donkey.png", "loss-causes.png",
                             "first-signal.png")),
}


def _body(report: str) -> list[str]:
    lines = report.splitlines()
    return lines[:2] + lines[3:]  # the intro line holds the run's speed, which varies


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_example_report_is_reproduced_by_the_code(tmp_path, name):
    example, (hands, figures) = Path("reports/examples") / name, EXAMPLES[name]
    experiments.run(example / "spec.toml", tmp_path / "run", hands=hands)
    assert _body((tmp_path / "run" / "report.md").read_text()) == _body((example / "report.md").read_text())
    assert (example / "spec.toml").read_text() == Path(f"experiments/{name}.toml").read_text()
    for figure in ("report.html", *figures):
        assert (example / figure).stat().st_size > 0


def test_the_example_grading_report_is_reproduced_by_the_code(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from simkit.cli import cli

    example = Path("reports/examples/grade-4p").resolve()
    assert (example / "spec.toml").read_text() == Path("experiments/grading/grade-4p.toml").read_text()
    monkeypatch.chdir(tmp_path)  # the report names the folder as given: runs/grade-4p, as `make example` writes it
    result = CliRunner().invoke(cli, ["grade", str(example / "spec.toml"), "--out", "runs/grade-4p"])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "runs/grade-4p/report.md").read_text() == (example / "report.md").read_text()
    for figure in ("report.html", "lost-by-point.png", "move-costs.png"):
        assert (example / figure).stat().st_size > 0
