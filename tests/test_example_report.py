"""The committed example reports are what the code produces (their tables, to the last digit):
`make example` wrote them; a changed engine, rule reading or report shows up here."""

from pathlib import Path

import pytest

from simkit import experiments

pytestmark = pytest.mark.long  # left out of the development subset (pyproject.toml)

EXAMPLES = {  # spec -> the size `make example` runs it at, and figures it must hold
    "joker-timing": (20000, ("difference.png", "sweep.png", "comparison.png", "distribution.png", "hand-length.png")),
    "ezelen-passing": (200, ("difference.png", "comparison.png", "donkey.png", "loss-causes.png",
                             "first-signal.png")),
    "card-values": (20000, ("difference.png", "comparison.png", "distribution.png", "deal-values.png")),
}


def _body(report: str) -> list[str]:
    return [line for line in report.splitlines() if " played in all at " not in line]  # the intro: its speed varies


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


@pytest.mark.parametrize("name, spec", [("tune-jokers-ass", "experiments/tune-jokers-ass.toml"),
                                        ("tune-eigenwijs-speed", "experiments/tune-eigenwijs-speed.toml"),
                                        ("tune-against-greedy-4p", None)])
def test_the_example_tuning_is_reproduced_by_the_code(tmp_path, name, spec):
    """The report from the committed race (to the last digit), and the race's first round again:
    a sample of the candidates replayed on its deals gives the committed estimates. The
    `--against` example's spec is the one the command writes."""
    import shutil

    import pandas as pd

    from simkit.analyses.tune.auto import against, toml_text
    from simkit.analyses.tune.play import Table, deal_values
    from simkit.analyses.tune.race import Sums, estimate
    from simkit.analyses.tune.report import make_tuning_report
    from simkit.analyses.tune.run import candidates_of
    from simkit.analyses.tune.spec import load_tuning
    from simkit.analyses.tune.summary import read

    example = Path("reports/examples") / name
    written = Path(spec).read_text() if spec else toml_text(against("whos-the-ass", 4, "greedy", 2026))
    assert (example / "spec.toml").read_text() == written
    for file in ("tune.json", "race.parquet", "candidates.parquet"):
        shutil.copy(example / file, tmp_path / file)
    make_tuning_report(str(tmp_path))
    assert (tmp_path / "report.md").read_text() == (example / "report.md").read_text()
    t = load_tuning(str(example / "spec.toml"))
    for figure in ("report.html", "race.png", "proposals.png" if t.sampler == "tpe" else "response.png"):
        assert (example / figure).stat().st_size > 0
    meta = read(example)
    cands = [t.space.candidate(c["setting"]) for c in meta["candidates"]]
    assert [c.label for c in cands] == [c["label"] for c in meta["candidates"]]
    if t.sampler == "grid":
        assert [c.label for c in candidates_of(t)] == [c.label for c in cands]
    first = pd.read_parquet(example / "race.parquet").query("round == 0").set_index("candidate")
    sample = sorted({*first.index[::max(1, len(first) // 12)], *([meta["winner_candidate"]] if
                                                                  meta["winner_candidate"] in first.index else [])})
    sums = Sums.of(deal_values(Table(t.table, t.field, t.profile), [cands[c] for c in sample], 0,
                               meta["rounds"][0]["deals"]))
    for j, c in enumerate(sample):
        e = estimate(sums, j)
        assert (e.mean, e.half) == (first.at[c, "mean"], first.at[c, "half"])


def _close(a, b) -> None:
    """Two analyses alike but for the last bits of floating point (another machine's arithmetic)."""
    if isinstance(a, dict):
        assert a.keys() == b.keys()
        for key in a:
            _close(a[key], b[key])
    elif isinstance(a, list):
        assert len(a) == len(b)
        for x, y in zip(a, b):
            _close(x, y)
    elif isinstance(a, float):
        assert abs(a - b) <= 1e-6 * max(1.0, abs(a)), (a, b)
    else:
        assert a == b


def test_the_example_field_is_reproduced_by_the_code(tmp_path):
    """The analysis from the committed payoff table (to floating point), the report from the
    committed analysis (to the last digit), and the table's first run of profiles played again."""
    import json
    import shutil

    import numpy as np
    import pandas as pd

    from simkit.analyses.field.analysis import analyse
    from simkit.analyses.field.play import play_task, tasks
    from simkit.analyses.field.report import make_field_report
    from simkit.analyses.field.spec import load_field

    example = Path("reports/examples/field-4p")
    assert (example / "spec.toml").read_text() == Path("experiments/field-4p.toml").read_text()
    for name in ("field.json", "payoffs.parquet", "bootstrap.npz"):
        shutil.copy(example / name, tmp_path / name)
    _close(analyse(tmp_path), json.loads((example / "analysis.json").read_text()))
    shutil.copy(example / "analysis.json", tmp_path / "analysis.json")
    make_field_report(str(tmp_path))
    assert (tmp_path / "report.md").read_text() == (example / "report.md").read_text()
    for figure in ("report.html", "dynamics-4p.png", "versus-4p.png"):
        assert (example / figure).stat().st_size > 0
    f = load_field(str(example / "spec.toml"))
    first = tasks(f, 4, f.hands)[0]
    part = play_task((first[0], first[1], 0, f.hands), f, 4, f.bootstrap)
    rows = pd.read_parquet(example / "payoffs.parquet").iloc[:len(part.sums)]
    assert (part.sums == rows["sum"].to_numpy()).all() and (part.squares == rows["square"].to_numpy()).all()
    with np.load(example / "bootstrap.npz") as z:
        assert (part.boot == z["boot4"][:len(part.sums)]).all()
