"""Every `simkit …` example of the README, and of the docs pages that hold its worked examples (PAGES),
runs as written, in the order written, in a fresh folder per page that holds the repository's
experiments/ and strategies/: the placeholders, in capitals, are filled in (SPEC, DIR, N, …; SPEC is
a spec of the command's kind: a field's for `field`, a tuning's for `tune`, a grading's for
`grade`), optional parts in [brackets] are written out (the first of [a | b]) but for `[--resume]`
(a reader's first run has nothing to resume), and `ADDR` is the address of a Dask cluster this
test starts; `simkit play` is fed a move a line. A `simkit run` example (but one that resumes)
starts in a fresh --out folder, as a reader trying it would choose; an example that resumes a
folder no earlier example of its page wrote is run first without `--resume`, as the reader would
have started it. An inline `simkit COMMAND` without arguments names the command, and one with a
single option alone (`simkit show --grade`) names the option: neither is an example.

Each page is followed on its own (a test per page and group of examples that share files). An
example group that a page earlier in FOLLOWED (the docs pages, then the README) already runs with
the same words, in the same order, is skipped, naming that page: the README's short table repeats
docs/commands.md's examples. What is not followed as written, and why, is listed below and shows
in the test ids or as skips with their reason:

- SHRUNK: examples the docs pages had before they took the README's (not the README's own), whose
  full size is minutes of CI (a million-hand strength table, the search over 2,000 hands): their
  `-H`/`--hands` is cut to the size given, and the test id says so ("[-H 20]").
- SKIPPED: a page's synopsis whose placeholders have no single value (`--against FIELD`,
  `--budget HANDS`), commands that need a file the repository does not hold (a strategy file the
  reader writes, a hand-written C engine), and a page's repeat of an example that runs elsewhere.
- SLOW (`pytest -m slow`, as written): the full-size field example (41.5 M hands, two minutes; by
  default its spec's analysis and first profiles are checked against the committed example,
  test_example_report) and the search's strength table (seven minutes)."""

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.long  # left out of the development subset (pyproject.toml)

ROOT = Path(__file__).parents[1]
README = ROOT / "README.md"
# the pages followed, each a reader's own session: the README and the pages its examples moved to
PAGES = ("README.md", "docs/commands.md", "docs/experiments.md", "docs/statistics.md", "docs/tuning.md",
         "docs/field.md", "docs/games.md", "docs/strategies.md", "docs/strategy-api.md", "docs/python.md",
         "docs/development.md", "docs/performance.md")
FOLLOWED = PAGES[1:] + PAGES[:1]  # the order in which a repeated group is run once: the docs pages first
SIMKIT = Path(sys.executable).with_name("simkit")
PLACEHOLDERS = {"SPEC.toml": "experiments/quick.toml", "SPEC": "experiments/quick.toml", "DIR": "runs/example",
                "NAME": "quick", "N": "2000", "S": "lowest", "K": "2", "G": "ezelen"}
SPECS = {"field": "experiments/field-ezelen.toml", "tune": "experiments/tune-ezelen-passing.toml",
         "grade": "experiments/grading/grade-4p.toml"}
# (page, a pattern the example matches) -> the size option and the size it plays at here
SHRUNK = {
    ("docs/tuning.md", r"simulate --game eigenwijs -n 4 -H 200000"): ("-H", "20000"),
    ("docs/field.md", r"strength -n 4 -H 200000 -s 2026 --field greedy"): ("-H", "2000"),
    ("docs/strategies.md", r"strength --players 4 --hands 1000000"): ("--hands", "20000"),
    ("docs/strategies.md", r"strength -n 4 -H 2000 --seed 2026 --field lowest --strategies \"pimc"): ("-H", "20"),
    ("docs/strategies.md", r"strength --game ezelen --players 4 --hands 1000000"): ("--hands", "20000"),
}
SKIPPED = {
    ("docs/tuning.md", r"tune SPEC\.toml --out DIR \[--budget HANDS\]"):
        "the page's synopsis (HANDS has no one value); its options run in docs/commands.md's tune examples",
    ("docs/tuning.md", r"tune --against FIELD"):
        "the page's synopsis (FIELD, N, S have no one value); `tune --against greedy -n 4` runs on this page",
    ("docs/tuning.md", r"tune DIR/spec\.toml --out OTHER"):
        "plays a finished tuning's spec.toml again; the spec files themselves run on this page",
    ("docs/tuning.md", r"tune --against greedy -n 4 --seed 2026$"):
        "the committed example's own command (`make example`); the same tuning runs on this page with --out",
    ("docs/strategies.md", r"grade SPEC --out DIR"):
        "a grading spec runs as written in docs/commands.md (grade experiments/grading/grade-4p.toml)",
    ("docs/strategy-api.md", r"--strategy-file mine\.py"):
        "plays mine.py, the file a reader writes from the page's code; tests/test_strategy_api_doc.py plays each",
    ("docs/performance.md", r"bench --vs-c PATH/"):
        "needs a hand-written C engine's file, which the repository does not hold",
}
# as written, with `pytest -m slow` only
SLOW = ("field experiments/field-4p.toml", "search-strength -H 4000")
MOVES = "1\n" * 3000  # what a person types to `simkit play`: always the first move listed (other commands read none)


def examples(text: str) -> list[str]:
    """A page's `simkit …` commands, in order: inline code and lines of sh blocks (a continued
    line joined, comments and what precedes the last `&&` dropped)."""
    found = []
    for block in re.split(r"(```sh\n.*?```)", text, flags=re.S):
        if block.startswith("```sh"):
            for line in block[6:-3].replace("\\\n", " ").splitlines():
                command = line.split("#", 1)[0].split("&&")[-1].strip()
                if re.match(r"(\.venv/bin/)?simkit ", command):
                    found.append(" ".join(command.split()))
        else:
            spans = [" ".join(c.split()) for c in re.findall(r"`((?:\.venv/bin/)?simkit [a-z][^`]*)`", block)]
            found += [c for c in spans if re.search(r" (?!--[a-z-]+$)", c.split("simkit ", 1)[1])]
    return found


def filled(command: str, addr: str) -> list[str]:
    """The command with its placeholders filled and each optional part [a] written out (of
    alternatives [a | b], the first; `[--resume]` left out)."""
    command = command.replace("\\|", "|").replace("[--resume]", "")
    command = re.sub(r"\[([^\]|]*?)\s*(\|[^\]]*)?\]", r"\1", command)
    kind = re.search(r"simkit ([a-z-]+)", command)[1]
    values = {**PLACEHOLDERS, "ADDR": addr}
    if kind in SPECS:
        values.update({"SPEC": SPECS[kind], "SPEC.toml": SPECS[kind]})
    command = re.sub(r"\b(SPEC\.toml|[A-Z]+)\b", lambda m: values.get(m[1], m[1]), command)
    words = shlex.split(command)
    words[0] = str(SIMKIT)
    return words


def shrunk(page: str, command: str) -> tuple[str, str] | None:
    return next((size for (where, pattern), size in SHRUNK.items() if where == page and re.search(pattern, command)),
                None)


def skipped(page: str, command: str) -> str | None:
    return next((why for (where, pattern), why in SKIPPED.items() if where == page and re.search(pattern, command)),
                None)


def played(page: str, command: str, addr: str) -> list[str]:
    """What this test runs for a page's example: the command filled, at its SHRUNK size if listed."""
    words = filled(command, addr)
    size = shrunk(page, command)
    if size:
        words[words.index(size[0]) + 1] = size[1]
    return words


def groups(commands: list[str]) -> list[list[str]]:
    """The examples in runs that share files, each in the page's order: an example that names a
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


def _subsequence(short: list[tuple], long: list[tuple]) -> bool:
    rest = iter(long)
    return all(any(item == other for other in rest) for item in short)


def _plan() -> list:
    """Every page's example groups as test parameters: run, skipped (SKIPPED, or a repeat of a
    group an earlier page in FOLLOWED runs) or slow."""
    found = {page: examples((ROOT / page).read_text()) for page in PAGES}
    ran: list[tuple[str, list[tuple]]] = []
    params: dict[str, list] = {page: [] for page in PAGES}
    for page in FOLLOWED:
        for command in found[page]:
            why = skipped(page, command)
            if why:
                params[page].append(pytest.param(page, [command], marks=pytest.mark.skip(reason=why),
                                                 id=_id(page, command)))
        for group in groups([c for c in found[page] if not skipped(page, c)]):
            words = [tuple(played(page, c, "ADDR")[1:]) for c in group]
            earlier = next((where for where, other in ran if _subsequence(words, other)), None)
            marks = [pytest.mark.slow] if any(c.split("simkit ", 1)[1].startswith(SLOW) for c in group) else []
            if earlier:
                marks.append(pytest.mark.skip(reason=f"run with the same words in {earlier}"))
            else:
                ran.append((page, words))
            params[page].append(pytest.param(page, group, marks=marks, id=_id(page, group[0])))
    return [p for page in PAGES for p in params[page]]


def _id(page: str, command: str) -> str:
    size = shrunk(page, command)
    return f"{page}: {' '.join(command.split()[1:3])}" + (f" [{size[0]} {size[1]}]" if size else "")


PLAN = _plan()


def test_the_readme_names_its_examples():
    found = examples(README.read_text())
    assert len(found) >= 15 and any("--game ezelen" in c for c in found)
    commands = {c.split("simkit ", 1)[1].split()[0] for c in found}
    assert commands == {"simulate", "trace", "show", "check", "grade", "play", "strength", "search-strength", "run",
                        "report", "tune", "field", "strategies", "bench"}  # every command, in the short table
    for page in PAGES:  # no a,b,c,d for strategies
        assert all(not re.search(r"\b[a-z],[a-z],[a-z]\b", c) for c in examples((ROOT / page).read_text()))
    commands = groups(examples((ROOT / "docs/commands.md").read_text()))
    assert any("report DIR" in c for group in commands for c in group if "--out DIR" in group[0])
    assert len([p for p in PLAN if not p.marks]) > 20


def test_every_shrunk_or_skipped_example_is_on_its_page():
    """A stale entry would silently follow nothing: each names an example of its page."""
    for (page, pattern) in [*SHRUNK, *SKIPPED]:
        assert any(re.search(pattern, c) for c in examples((ROOT / page).read_text())), (page, pattern)


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    import logging

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=logging.ERROR, env={"NUMBA_NUM_THREADS": "1"}) as c:
        yield c.scheduler_address


@pytest.mark.parametrize("page, group", PLAN)
def test_every_example_runs_as_written(page, group, tmp_path, request):
    for name in ("experiments", "strategies"):
        (tmp_path / name).symlink_to(ROOT / name)
    addr = request.getfixturevalue("cluster") if any("ADDR" in c for c in group) else "ADDR"
    ran = set()
    for command in group:
        words = played(page, command, addr)
        if tuple(words) in ran:
            continue
        ran.add(tuple(words))
        out = words[words.index("--out") + 1] if "--out" in words else None
        if words[1] == "run" and "--resume" not in words and out:  # each example its own run
            shutil.rmtree(tmp_path / out, ignore_errors=True)
        runs = [words]
        if "--resume" in words and out and not (tmp_path / out).exists():  # what the reader resumes: their run
            runs.insert(0, [w for w in words if w != "--resume"])
        for argv in runs:
            done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True, timeout=600, input=MOVES)
            assert done.returncode == 0, f"{page}: {command}\n{done.stdout[-1500:]}\n{done.stderr[-1500:]}"
    if any("-o hands.jsonl" in c for c in group):
        assert (tmp_path / "hands.jsonl").is_file()
    if any("--out DIR" in c for c in group):
        assert (tmp_path / "runs" / "example" / "report.html").is_file()
