"""One installed name: simkit. A user's folder with packages of their own named `experiments`,
`reports` and `strategies` (the commonest folder names in research repositories) changes nothing:
the Python example of docs/python.md and a run on local Dask workers work there as anywhere."""

import re
import subprocess
import sys
from pathlib import Path

import simkit

PYTHON_PAGE = Path(__file__).parents[1] / "docs" / "python.md"
ROOT = Path(simkit.__file__).resolve().parents[1]


def _users_folder(tmp_path: Path) -> Path:
    for name in ("experiments", "reports", "strategies"):
        package = tmp_path / name
        package.mkdir()
        (package / "__init__.py").write_text(f"raise ImportError('the user\\'s own {name} package was imported')\n")
    return tmp_path


def test_only_simkit_is_installed():
    found = subprocess.run([sys.executable, "-c", "import importlib.util as u; "
                            "print([m for m in ('experiments', 'reports', 'strategies') if u.find_spec(m)])"],
                           cwd="/", capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "[]"


def test_the_python_example_runs_beside_packages_of_the_same_names(tmp_path):
    folder = _users_folder(tmp_path)
    section = PYTHON_PAGE.read_text().split("# From Python", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    (folder / "example.py").write_text(code)
    done = subprocess.run([sys.executable, "example.py"], cwd=folder, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (folder / "comparison.png").stat().st_size > 0


def test_a_run_on_dask_workers_works_beside_packages_of_the_same_names(tmp_path):
    folder = _users_folder(tmp_path)
    spec = folder / "small.toml"
    spec.write_text('name = "small"\nplayers = 3\nhands = 600\nseed = 2\nlineup = ["greedy", "lowest", "lowest"]\n')
    simkit_cmd = Path(sys.executable).with_name("simkit")
    done = subprocess.run([str(simkit_cmd), "run", "small.toml", "--out", "run", "--workers", "2"], cwd=folder,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert (folder / "run" / "stats.parquet").is_file() and (folder / "run" / "report.md").is_file()
