"""Every `simkit …` example in the README runs as written, in the order written, in a fresh folder
that holds the repository's experiments/ and strategies/: the placeholders, in capitals, are
filled in (SPEC, DIR, N, …), optional parts in [brackets] are written out (the first of [a | b]),
and `ADDR` is the address of a Dask cluster this test starts. A `simkit run` example (but one
that resumes) starts in a fresh --out folder, as a reader trying it would choose. An inline
`simkit COMMAND` without arguments names the command and is not an example."""

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
README = ROOT / "README.md"
SIMKIT = Path(sys.executable).with_name("simkit")
PLACEHOLDERS = {"SPEC.toml": "experiments/quick.toml", "SPEC": "experiments/quick.toml", "DIR": "runs/example",
                "NAME": "quick", "N": "2000", "S": "lowest", "K": "2", "G": "ezelen"}


def examples(text: str) -> list[str]:
    """The README's `simkit …` commands, in order: inline code and lines of sh blocks (a
    continued line joined, comments and what precedes the last `&&` dropped)."""
    found = []
    for block in re.split(r"(```sh\n.*?```)", text, flags=re.S):
        if block.startswith("```sh"):
            for line in block[6:-3].replace("\\\n", " ").splitlines():
                command = line.split("#", 1)[0].split("&&")[-1].strip()
                if re.match(r"(\.venv/bin/)?simkit ", command):
                    found.append(command)
        else:
            spans = [" ".join(c.split()) for c in re.findall(r"`((?:\.venv/bin/)?simkit [a-z][^`]*)`", block)]
            found += [c for c in spans if " " in c.split("simkit ", 1)[1]]
    return found


def filled(command: str, addr: str) -> list[str]:
    """The command with its placeholders filled and each optional part [a] written out (of
    alternatives [a | b], the first)."""
    command = re.sub(r"\[([^\]|]*?)\s*(\|[^\]]*)?\]", r"\1", command.replace("\\|", "|"))
    command = re.sub(r"\b(SPEC\.toml|[A-Z]+)\b", lambda m: {**PLACEHOLDERS, "ADDR": addr}.get(m[1], m[1]), command)
    words = shlex.split(command)
    words[0] = str(SIMKIT)
    return words


def test_the_readme_names_its_examples():
    found = examples(README.read_text())
    assert len(found) >= 15 and any("--game ezelen" in c for c in found)
    assert all(not re.search(r"\b[a-z],[a-z],[a-z]\b", c) for c in found)  # no a,b,c,d for strategies


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    import logging

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=logging.ERROR, env={"NUMBA_NUM_THREADS": "1"}) as c:
        yield c.scheduler_address


def test_every_readme_example_runs_as_written(tmp_path, cluster):
    for name in ("experiments", "strategies"):
        (tmp_path / name).symlink_to(ROOT / name)
    ran = set()
    for command in examples(README.read_text()):
        words = filled(command, cluster)
        if tuple(words) in ran:
            continue
        ran.add(tuple(words))
        if words[1] == "run" and "--resume" not in words and "--out" in words:  # each example its own run
            shutil.rmtree(tmp_path / words[words.index("--out") + 1], ignore_errors=True)
        done = subprocess.run(words, cwd=tmp_path, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"{command}\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}"
    assert (tmp_path / "runs" / "example" / "report.html").is_file() and (tmp_path / "hands.jsonl").is_file()
