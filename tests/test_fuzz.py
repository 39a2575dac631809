"""Fuzzing the command line (hypothesis): generated command lines, spec files and trace lines,
valid and broken. Whatever comes in, simkit exits 0, or exits 2 with exactly one line
`simkit: error: …` on stderr (`check`: one such line per broken record, naming the file and the
line); never a traceback, never a changed file outside the output path.
SIMKIT_FUZZ_EXAMPLES sets how many command lines are tried (default 150), SIMKIT_FUZZ_RANDOM=1
draws new ones (by default every run tries the same); with SIMKIT_FUZZ_REPORT set to a file, the
count of each outcome is written there."""

import collections
import contextlib
import io
import json
import math
import os
import re
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simkit import cli

pytestmark = pytest.mark.long  # left out of the development subset (pyproject.toml)

EXAMPLES = int(os.environ.get("SIMKIT_FUZZ_EXAMPLES", "150"))
OUTCOMES: collections.Counter = collections.Counter()

COUNTS = st.sampled_from(["1", "3", "10", "40", "0", "-1", "-5", "x", "", "1e3", "0x10", "2.5", str(10 ** 20),
                          str(2 ** 64)])
SMALL = st.sampled_from(["1", "3", "10", "40"])
PLAYERS = st.sampled_from(["2", "3", "4", "5", "13", "14", "0", "-3", "x", ""])
SEEDS = st.sampled_from(["0", "7", "-1", "0x1f", str(2 ** 64), str(2 ** 64 - 1), "seed", ""])
GAMES = st.sampled_from(["whos-the-ass", "ezelen", "chess", "", "EZELEN"])
STRATEGIES = st.sampled_from(["lowest", "greedy", "greedy,spend,lowest,lowest", "nope", "lowest(",
                              "hoard(release_at=99)", "hoard(release_at=3)", "", ",,", "random,random", "sticky,memory",
                              "greedy(x=1)", "compose(lead=greedy)", "lowest,lowest,lowest,lowest,lowest"])
RULES = st.sampled_from(["ass_joker=1", "ass_joker=any", "ass_joker=7", "beat=2.5", "beat=-1", "max_turns=5",
                         "x=y", "beat=", "=3", "beat"])
MODELS = st.sampled_from(["attention=0.5", "attention=1,1,1,1", "attention=9", "attention=x", "nope=1",
                          "reaction_median=0.3"])


OUTS = st.sampled_from(["OUT/run", "OUT", "OUT/t.jsonl", ""])
# numbers a spec may hold: good ones, and huge, negative, not whole, not a number, infinite
NUMBERS = st.sampled_from([5, 20, 0, -3, "x", 2.5, True, 10 ** 20, 2 ** 64, float("nan"), float("inf"),
                           float("-inf")])


def _option(name: str, values) -> st.SearchStrategy:
    return st.tuples(st.just(name), values)


COMMON = [_option("--game", GAMES), _option("-n", PLAYERS), _option("-s", SEEDS), _option("--strategies", STRATEGIES),
          _option("--rule", RULES), _option("--model", MODELS), _option("--threads", st.sampled_from(["1", "0", "-2"]))]


def _command() -> st.SearchStrategy:
    """A subcommand with a few options drawn from its own and the common ones (bad ones too)."""
    sizes = _option("-H", st.one_of(SMALL, COUNTS))
    per = {
        "simulate": COMMON + [sizes, _option("--chunks", COUNTS), st.just(("--matches",))],
        "trace": COMMON + [sizes, _option("-o", st.sampled_from(["OUT/t.jsonl", "", "OUT", "LINK", "OUT/x/y.jsonl"]))],
        "show": [_option("--hand", COUNTS), _option("--match", COUNTS), _option("--round", COUNTS)],
        "check": [],
        "strategies": [_option("--game", GAMES)],
        "strength": COMMON + [_option("-H", st.one_of(SMALL, COUNTS))],
        "run": [_option("--out", st.sampled_from(["OUT/run", "OUT", "OUT/t.jsonl", ""])), _option("-H", COUNTS),
                st.just(("--resume",)), _option("--threads", st.sampled_from(["1", "0"]))],
        "report": [_option("--baseline", st.sampled_from(["lowest", "greedy", "nonsense", ""]))],
        "tune": [_option("--out", OUTS), _option("--budget", COUNTS), st.just(("--resume",))],
        "field": [_option("--out", OUTS), _option("-H", COUNTS), st.just(("--resume",))],
        "grade": [_option("--out", OUTS), _option("-H", COUNTS), st.just(("--resume",)), _option("--seat", SMALL)],
    }
    return st.sampled_from(sorted(per)).flatmap(lambda name: st.tuples(
        st.just(name), st.lists(st.one_of(*per[name]), max_size=4) if per[name] else st.just([])))


def _spec_text() -> st.SearchStrategy:
    """A spec file: mostly a TOML table of known keys (an experiment's, a tuning's, a field's, a
    grading's, an Eigenwijs experiment's) with good and bad values, sometimes junk."""
    values = {"name": st.sampled_from(["f", "", "a b"]), "players": st.sampled_from([4, 3, 2, 13, "4", -1]),
              "hands": st.sampled_from([5, 20, 0, -3, "x", 10 ** 20]), "seed": st.sampled_from([1, -1, "z"]),
              "lineup": st.sampled_from([["lowest", "greedy", "lowest", "lowest"], ["nope"], [], "lowest",
                                         ["greedy", "sticky", "memory", "random"]]),
              "baseline": st.sampled_from(["lowest", "greedy", "nope"]), "game": GAMES,
              "seating": st.sampled_from(["rotate", "fixed", "spin"]), "pool": st.sampled_from([["lowest", "greedy"]])}
    tuning = {"name": st.just("t"), "players": st.sampled_from([3, 4, float("nan")]),
              "field": st.sampled_from([["greedy"] * 3, ["greedy"] * 2, ["nope"] * 3]),
              "tune": st.sampled_from(["compose(lead={lead}, follow=greedy)", "greedy", "{x}"]),
              "space": st.sampled_from([{"lead": ["greedy", "lowest"]}, {},
                                        {"lead": {"low": 0, "high": float("inf")}}]),
              "budget": st.one_of(st.just(20000), NUMBERS), "race": st.builds(lambda v: {"first": v}, NUMBERS),
              "confirm": st.builds(lambda v: {"deals": v}, NUMBERS), "default": st.sampled_from(["greedy", "nope"])}
    field = {"name": st.just("f"), "players": st.sampled_from([3, float("nan"), [3, 4]]), "hands": NUMBERS,
             "pool": st.sampled_from([["lowest", "random"], ["nope", "lowest"], []]),
             "analysis": st.builds(lambda k, v: {k: v}, st.sampled_from(["steps", "starts", "bootstrap", "epsilon"]),
                                   NUMBERS)}
    grading = {"name": st.just("g"), "players": st.sampled_from([3, 4, float("inf")]),
               "hands": st.one_of(st.just(2), NUMBERS), "graded": st.sampled_from([["greedy"], [], ["nope"]]),
               "field": st.sampled_from(["lowest", "nope"]), "samples": st.one_of(st.just(4), NUMBERS),
               "seat": NUMBERS}
    eigenwijs = {"name": st.just("e"), "game": st.just("eigenwijs"), "players": st.sampled_from([3, 7, float("nan")]),
                 "hands": NUMBERS, "lineup": st.sampled_from([["right"], ["nope"]]),
                 "rules": st.builds(lambda k, v: {k: v}, st.sampled_from(["chicks", "egg_cards", "hesitation",
                                                                         "max_turns", "colours"]),
                                    st.one_of(NUMBERS, st.sampled_from(["yes", [5, 4, 3], [float("inf")], []]))),
                 "model": st.builds(lambda v: {"attention": v}, NUMBERS)}
    table = st.one_of(*(st.fixed_dictionaries({}, optional=kind).map(_toml)
                        for kind in (values, values, tuning, field, grading, eigenwijs)))
    junk = st.sampled_from(["", "players = ", "[[[", "name = 'x'\nplayers = 4\n", "\x00\x01binary"])
    valid = st.sampled_from([_toml({"name": "f", "players": 4, "hands": 5, "seed": 1,
                                    "lineup": ["greedy", "lowest", "lowest", "lowest"]}),
                             _toml({"name": "g", "game": "ezelen", "players": 3, "hands": 5,
                                    "lineup": ["greedy", "sticky", "memory"], "baseline": "greedy"}),
                             _toml({"name": "t", "players": 3, "field": ["greedy"] * 2, "budget": 20000,
                                    "tune": "compose(lead={lead}, follow=greedy)",
                                    "space": {"lead": ["greedy", "lowest"]}, "race": {"first": 16},
                                    "confirm": {"deals": 50}}),
                             _toml({"name": "f", "players": 3, "hands": 20, "pool": ["lowest", "random"]}),
                             _toml({"name": "g", "players": 3, "hands": 2, "graded": ["greedy"], "field": "lowest",
                                    "samples": 4}),
                             _toml({"name": "e", "game": "eigenwijs", "players": 3, "hands": 20,
                                    "lineup": ["right"], "rules": {"chicks": True}})])
    return st.one_of(table, table, valid, junk)


def _toml(data: dict, prefix: str = "") -> str:
    """TOML text of `data` (its tables after its plain keys); nan and inf as TOML writes them."""
    def value(v) -> str:
        if isinstance(v, float) and not math.isfinite(v):
            return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
        if isinstance(v, list):
            return "[" + ", ".join(map(value, v)) + "]"
        if isinstance(v, dict):
            return "{" + ", ".join(f"{k} = {value(x)}" for k, x in v.items()) + "}"
        return json.dumps(v)
    plain = "".join(f"{k} = {value(v)}\n" for k, v in data.items() if not isinstance(v, dict))
    return plain + "".join(f"\n[{prefix}{k}]\n" + _toml(v, f"{prefix}{k}.") for k, v in data.items()
                           if isinstance(v, dict))


def _trace_text(valid: list[str]) -> st.SearchStrategy:
    """A trace file: valid records, some broken (a key dropped, a value changed, cut short), or junk."""
    def broken(line: str, how: int, key: int) -> str:
        record = json.loads(line)
        keys = sorted(record)
        if how == 0:
            record.pop(keys[key % len(keys)])
        elif how == 1:
            record[keys[key % len(keys)]] = -1
        else:
            return line[: len(line) * (key % 7 + 1) // 9]
        return json.dumps(record)
    lines = st.lists(st.one_of(st.sampled_from(valid), st.builds(broken, st.sampled_from(valid), st.integers(0, 2),
                                                                   st.integers(0, 50))), max_size=3)
    return st.one_of(lines.map("\n".join), st.sampled_from(["", "\n", "{}", "not json", "\xff\xfe"]))


@pytest.fixture(scope="module")
def traces(tmp_path_factory) -> dict[str, list[str]]:
    folder = tmp_path_factory.mktemp("traces")
    out = {}
    for game, args in (("whos-the-ass", ["-n", "4"]), ("ezelen", ["-n", "3"])):
        path = folder / f"{game}.jsonl"
        assert _simkit(["trace", "--game", game, *args, "-H", "3", "-s", "1", "-o", str(path)])[0] == 0
        out[game] = path.read_text().splitlines()
    return out


def _simkit(argv: list[str]) -> tuple[int, str, str]:
    """simkit's entry point in process: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    old = sys.argv
    sys.argv = ["simkit", *argv]
    code = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            cli.main()
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    finally:
        sys.argv = old
    return code, out.getvalue(), err.getvalue()


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file() and not p.is_symlink()}


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck),
          derandomize=not os.environ.get("SIMKIT_FUZZ_RANDOM"))  # the same inputs in every CI run, unless asked
@given(command=_command(), spec=_spec_text(), trace=st.data())
def test_every_command_line_exits_cleanly(command, spec, trace, traces, tmp_path_factory):
    work = tmp_path_factory.mktemp("fuzz")
    (work / "OUT").mkdir()
    (work / "spec.toml").write_text(spec)
    game = next((v[0] for o, *v in command[1] if o == "--game" and v and v[0] in traces), "whos-the-ass")
    (work / "trace.jsonl").write_text(trace.draw(_trace_text(traces[game]), label="trace"))
    (work / "kept.txt").write_text("an earlier result")
    (work / "LINK").symlink_to(work / "kept.txt")
    name, options = command
    spec_named = {command: [str(work / "spec.toml")] for command in ("run", "tune", "field", "grade")}
    argv = [name] + ({**spec_named, "show": [str(work / "trace.jsonl")],
                      "check": [str(work / "trace.jsonl")], "report": [str(work / "OUT")]}.get(name, []))
    for option in options:
        argv += [str(work / v) if v in ("OUT", "LINK") or v.startswith("OUT/") else v for v in option]
    if name == "trace" and "-o" not in argv:
        argv += ["-o", str(work / "OUT" / "t.jsonl")]
    before = _files(work)
    cwd = os.getcwd()
    os.chdir(work)
    try:
        code, _, err = _simkit(argv)
    finally:
        os.chdir(cwd)
    OUTCOMES[(name, code)] += 1
    assert "Traceback" not in err, (argv, err)
    assert code in (0, 2), (argv, code, err)
    if code == 2 and name == "check" and err.count("\n") > 1:  # its documented output: a line per broken record
        record = re.compile(rf"simkit: error: {re.escape(str(work / 'trace.jsonl'))}:\d+: \S")
        assert all(record.match(line) for line in err.splitlines()), (argv, err)
    elif code == 2:
        assert err.count("\n") == 1 and err.startswith("simkit: error: "), (argv, err)
    after = _files(work)
    changed = {p for p in before if after.get(p) != before[p]}
    assert not {p for p in changed if not p.startswith("OUT") and not p.startswith("runs")}, (argv, changed)
    assert (work / "kept.txt").read_text() == "an earlier result" and (work / "LINK").is_symlink()


@pytest.fixture(scope="module", autouse=True)
def outcomes_reported():
    """After the module: the count of each outcome (command, exit code), if SIMKIT_FUZZ_REPORT asks."""
    yield
    path = os.environ.get("SIMKIT_FUZZ_REPORT")
    if path:
        Path(path).write_text("".join(f"{name} exit {code}: {n}\n" for (name, code), n in sorted(OUTCOMES.items())))
