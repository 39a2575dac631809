"""Every `simkit …` example in the README runs as written, in the order written, in a fresh folder
that holds the repository's experiments/ and strategies/: the placeholders, in capitals, are
filled in (SPEC, DIR, N, …), optional parts in [brackets] are written out (the first of [a | b]),
and `ADDR` is the address of a Dask cluster this test starts; `simkit play` is fed a move a line.
A `simkit run` example (but one that resumes) starts in a fresh --out folder, as a reader trying
it would choose. An inline `simkit COMMAND` without arguments names the command and is not an
example."""

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


def groups(commands: list[str]) -> list[list[str]]:
    """The examples in runs that share files, each in the README's order: an example that names a
    file or folder an earlier one wrote (`-o`, `--out`, `--save`) runs after it, in its group; the groups
    are independent, so the suite's workers can run them side by side."""
    out: list[list[str]] = []
    wrote: dict[str, int] = {}
    for command in commands:
        words = filled(command, "ADDR")[1:]
        home = next((wrote[w] for w in words if w in wrote), None)
        if home is None:
            out.append([])
            home = len(out) - 1
        out[home].append(command)
        for flag in ("-o", "--out", "--save"):
            if flag in words and words.index(flag) + 1 < len(words):
                wrote[words[words.index(flag) + 1]] = home
    return out


GROUPS = groups(examples(README.read_text()))
# the full-size field example (41.5 M hands, two minutes): `pytest -m slow`; by default its spec's
# analysis and its first profiles are checked against the committed example (test_example_report)
SLOW = ("field experiments/field-4p.toml",)
MOVES = "1\n" * 3000  # what a person types to `simkit play`: always the first move listed (other commands read none)


def test_the_readme_names_its_examples():
    found = examples(README.read_text())
    assert len(found) >= 15 and any("--game ezelen" in c for c in found)
    assert all(not re.search(r"\b[a-z],[a-z],[a-z]\b", c) for c in found)  # no a,b,c,d for strategies
    assert sum(map(len, GROUPS)) == len(found) and len(GROUPS) > 5
    assert any("report DIR" in c for group in GROUPS for c in group if "--out DIR" in group[0])


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    import logging

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=logging.ERROR, env={"NUMBA_NUM_THREADS": "1"}) as c:
        yield c.scheduler_address


def _marked(group: list[str]):
    slow = any(c.split("simkit ", 1)[1].startswith(SLOW) for c in group)
    return pytest.param(group, marks=[pytest.mark.slow] if slow else [])


@pytest.mark.parametrize("group", [_marked(g) for g in GROUPS], ids=lambda g: " ".join(g[0].split()[1:3]))
def test_every_readme_example_runs_as_written(group, tmp_path, request):
    for name in ("experiments", "strategies"):
        (tmp_path / name).symlink_to(ROOT / name)
    addr = request.getfixturevalue("cluster") if any("ADDR" in c for c in group) else "ADDR"
    ran = set()
    for command in group:
        words = filled(command, addr)
        if tuple(words) in ran:
            continue
        ran.add(tuple(words))
        if words[1] == "run" and "--resume" not in words and "--out" in words:  # each example its own run
            shutil.rmtree(tmp_path / words[words.index("--out") + 1], ignore_errors=True)
        done = subprocess.run(words, cwd=tmp_path, capture_output=True, text=True, timeout=600, input=MOVES)
        assert done.returncode == 0, f"{command}\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}"
    if any("-o hands.jsonl" in c for c in group):
        assert (tmp_path / "hands.jsonl").is_file()
    if any("--out DIR" in c for c in group):
        assert (tmp_path / "runs" / "example" / "report.html").is_file()
