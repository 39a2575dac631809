"""The strategy example that moved from the README (docs/strategy-api.md, "Writing your own") is the
example file, and the Python example (docs/python.md) works as printed."""

import re
from pathlib import Path

DOCS = Path(__file__).parents[1] / "docs"
EXAMPLE = Path(__file__).parents[1] / "strategies" / "examples" / "my_strategies.py"


def test_the_strategy_api_shows_the_example_file_as_it_is():
    section = (DOCS / "strategy-api.md").read_text().split("## Writing your own", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    body = EXAMPLE.read_text()
    assert code.strip() in body  # the page shows the file's code, docstring aside


def test_the_python_api_example_runs_as_printed(tmp_path, monkeypatch):
    section = (DOCS / "python.md").read_text().split("# From Python", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "docs/python.md", "exec"), {})
    assert (tmp_path / "comparison.png").stat().st_size > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["comparison.png"]  # the run's folder is gone
