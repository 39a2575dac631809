"""The README's strategy example is the example file, and it works as printed."""

import re
from pathlib import Path

README = Path(__file__).parents[1] / "README.md"
EXAMPLE = Path(__file__).parents[1] / "strategies" / "examples" / "my_strategies.py"


def test_the_readme_shows_the_example_file_as_it_is():
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    body = EXAMPLE.read_text()
    assert code.strip() in body  # the README shows the file's code, docstring aside


def test_the_readme_python_api_example_runs_as_printed(tmp_path, monkeypatch):
    section = README.read_text().split("## From Python", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "README.md", "exec"), {})
    assert (tmp_path / "comparison.png").stat().st_size > 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["comparison.png"]  # the run's folder is gone
