"""The committed example report is what the code produces (its tables, to the last digit)."""

from pathlib import Path

import experiments

EXAMPLE = Path("reports/examples/joker-timing")


def _body(report: str) -> list[str]:
    lines = report.splitlines()
    return lines[:2] + lines[3:]  # the intro line holds the run's speed, which varies


def test_the_example_report_is_reproduced_by_the_code(tmp_path):
    experiments.run(EXAMPLE / "spec.toml", tmp_path / "run", hands=20000)
    assert _body((tmp_path / "run" / "report.md").read_text()) == _body((EXAMPLE / "report.md").read_text())
    assert (EXAMPLE / "spec.toml").read_text() == Path("experiments/joker-timing.toml").read_text()
    for name in ("report.html", "sweep.png", "comparison.png", "distribution.png", "hand-length.png"):
        assert (EXAMPLE / name).stat().st_size > 0
