"""docs/strategy-api.md stays true to the code: every offset and constant of each game's view,
action and hand modules is a row of its game's section with its value, every helper the page
names exists with the documented parameters (and every public helper is named), and every
```python block is a strategy file that plays through `simkit simulate` as a user would run it."""

import ast
import importlib
import inspect
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).parents[1]
PAGE = ROOT / "docs" / "strategy-api.md"

# a game's section of the page (its "## " heading) -> the modules whose constants it must list
CONSTANTS = {
    "Who's the Ass?": ("simkit.games.whos_the_ass.view", "simkit.games.whos_the_ass.action",
                       "simkit.games.whos_the_ass.hand"),
    "Ezelen": ("simkit.games.ezelen.view", "simkit.games.ezelen.hand"),
    "Eigenwijs": ("simkit.games.eigenwijs.view",),
}
# modules whose every public function a strategy may call, so the page must name each
HELPER_MODULES = ("simkit.games.whos_the_ass.action", "simkit.games.whos_the_ass.hand",
                  "simkit.games.whos_the_ass.legal", "simkit.games.ezelen.hand", "simkit.games.eigenwijs.cards")
RNG_HELPERS = ("below", "uniform", "normal", "next_u64", "pick_equal")

CONSTANT_ROW = re.compile(r"^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|\s*(-?\d+)\s*\|", re.M)
HELPER_ROW = re.compile(r"^\|\s*`(\w+)\(([^`]*)\)`\s*\|\s*`(simkit(?:\.\w+)+)`\s*\|", re.M)
PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.M | re.S)
REGISTERED = re.compile(r"(?:@strategy|\bprofile)\(\s*\"(\w+)\"")


def _sections(text: str) -> dict[str, str]:
    parts = re.split(r"^## (.+)$", text, flags=re.M)
    return {title.strip(): body for title, body in zip(parts[1::2], parts[2::2])}


def _constants(module_name: str) -> dict[str, int]:
    module = importlib.import_module(module_name)
    return {name: int(value) for name, value in vars(module).items()
            if name.isupper() and not name.startswith("_") and isinstance(value, (int, np.integer))
            and not isinstance(value, bool)}


def constant_problems(text: str) -> list[str]:
    """Each game's constants as `| `NAME` | value |` rows of its section, and no stale row."""
    sections = _sections(text)
    problems = []
    for title, modules in CONSTANTS.items():
        if title not in sections:
            problems.append(f"no section '## {title}'")
            continue
        rows = {}
        for name, value in CONSTANT_ROW.findall(sections[title]):
            if name in rows and rows[name] != int(value):
                problems.append(f"{title}: {name} has two rows")
            rows[name] = int(value)
        expected = {}
        for module in modules:
            expected.update(_constants(module))
        for name, value in expected.items():
            if name not in rows:
                problems.append(f"{title}: no row for {name} (= {value})")
            elif rows[name] != value:
                problems.append(f"{title}: {name} is {rows[name]} on the page, {value} in the code")
        problems += [f"{title}: row {name} names no constant of {', '.join(modules)}"
                     for name in rows if name not in expected]
    return problems


def _function(module_name: str, name: str):
    obj = getattr(importlib.import_module(module_name), name, None)
    return getattr(obj, "py_func", obj)  # a numba dispatcher's Python function


def helper_problems(text: str) -> list[str]:
    """Every `name(args)` | `module` row: the function exists there with exactly these parameters
    and defaults; and every public helper of the strategy modules has such a row."""
    problems = []
    named = set()
    for name, args, module in HELPER_ROW.findall(text):
        named.add((module, name))
        fn = _function(module, name)
        if fn is None or not callable(fn):
            problems.append(f"{module}.{name} does not exist")
            continue
        actual = inspect.signature(fn).parameters
        documented = [a.strip() for a in args.split(",") if a.strip()]
        names = [a.partition("=")[0].strip() for a in documented]
        if names != list(actual):
            problems.append(f"{module}.{name}: the page says ({args}), the code takes ({', '.join(actual)})")
            continue
        for arg in documented:
            key, eq, default = arg.partition("=")
            if eq and ast.literal_eval(default.strip()) != actual[key.strip()].default:
                problems.append(f"{module}.{name}: default of {key.strip()} is {actual[key.strip()].default!r}")
            if not eq and actual[key.strip()].default is not inspect.Parameter.empty:
                problems.append(f"{module}.{name}: {key.strip()} has a default the page does not give")
    for module_name in HELPER_MODULES:
        module = importlib.import_module(module_name)
        for name, obj in vars(module).items():
            fn = getattr(obj, "py_func", obj)
            if (not name.startswith("_") and inspect.isfunction(fn) and fn.__module__ == module_name
                    and (module_name, name) not in named):
                problems.append(f"{module_name}.{name} is not on the page")
    problems += [f"simkit.core.rng.{name} is not on the page" for name in RNG_HELPERS
                 if ("simkit.core.rng", name) not in named]
    return problems


TEXT = PAGE.read_text(encoding="utf-8")
BLOCKS = PYTHON_BLOCK.findall(TEXT)


def test_every_offset_and_constant_is_on_the_page_with_its_value():
    assert constant_problems(TEXT) == []


def test_every_helper_on_the_page_exists_with_its_parameters():
    assert len(HELPER_ROW.findall(TEXT)) >= 25
    assert helper_problems(TEXT) == []


def test_the_checks_fail_on_a_page_behind_the_code():
    row = next(line for line in TEXT.splitlines() if line.startswith("| `TOP_SEAT` |"))
    assert "no row for TOP_SEAT" in " ".join(constant_problems(TEXT.replace(row + "\n", "")))
    wrong = TEXT.replace("| `LETTERS` | 48 |", "| `LETTERS` | 47 |")
    assert "LETTERS is 47 on the page, 48 in the code" in " ".join(constant_problems(wrong))
    stale = TEXT.replace("| `SIZE` | 2760 |", "| `SIZE` | 2760 |\n| `HAND_LIMIT` | 3 |")
    assert "row HAND_LIMIT names no constant" in " ".join(constant_problems(stale))
    renamed = TEXT.replace("`lowest_value(hand, above=0, at_least=1)`", "`lowest_value(hand, above=0, least=1)`")
    assert "lowest_value: the page says" in " ".join(helper_problems(renamed))
    default = TEXT.replace("`highest_value(hand, below=14, at_least=1)`", "`highest_value(hand, below=13, at_least=1)`")
    assert "default of below is 14" in " ".join(helper_problems(default))
    gone = TEXT.replace("| `nth_legal(hand, view, nth)` |", "| nth_legal |")
    assert "simkit.games.whos_the_ass.legal.nth_legal is not on the page" in helper_problems(gone)
    invented = TEXT.replace("`next_u64(state)` | `simkit.core.rng`", "`next_u32(state)` | `simkit.core.rng`")
    assert "simkit.core.rng.next_u32 does not exist" in helper_problems(invented)


@pytest.mark.parametrize("title, module", [("Ezelen", "simkit.games.ezelen.model"),
                                           ("Eigenwijs", "simkit.games.eigenwijs.model")])
def test_every_model_value_is_on_the_page_with_its_default_and_range(title, module):
    section = _sections(TEXT)[title]
    for name, (_, default, low, high, _) in importlib.import_module(module).PARAMETERS.items():
        row = re.search(rf"^\|\s*`{name}`\s*\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|", section, re.M)
        assert row, f"no row for the model value {name}"
        shown_low, _, shown_high = row.group(2).partition("..")
        assert (float(row.group(1)), float(shown_low), float(shown_high)) == (default, low, high), name


def _game_of(block: str) -> str:
    return next((g for g in ("ezelen", "eigenwijs") if f"simkit.games.{g}" in block), "whos-the-ass")


def test_each_game_has_worked_examples():
    games = [_game_of(block) for block in BLOCKS]
    assert games.count("whos-the-ass") >= 5 and games.count("ezelen") >= 3 and games.count("eigenwijs") >= 1


# (players, extra options): every rule option W13 for Who's the Ass?, whole matches for Ezelen
CONFIGS = {
    "whos-the-ass": [(3, ["--ass-joker", "1or14"]), (4, ["--ass-joker", "1"]), (12, ["--ass-joker", "any"])],
    "ezelen": [(5, ["--matches", "-H", "40"]), (13, ["-H", "300"])],
    "eigenwijs": [(3, ["--precies", "true"]), (6, ["--chicks", "true", "--rotating", "true"])],
}
# the `simkit` command's entry point, once per command line, in one process (one start-up, one compile)
DRIVER = """import json, sys
from simkit.cli import main
for argv in json.loads(sys.argv[1]):
    sys.argv = ["simkit", *argv]
    main()
    print("== done", flush=True)
"""


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_every_example_plays_as_a_strategy_file(index, tmp_path):
    code = BLOCKS[index]
    game = _game_of(code)
    names = REGISTERED.findall(code)
    assert names, f"python block {index} registers no strategy"
    path = tmp_path / f"strategy_api_example_{index}.py"
    path.write_text(code, encoding="utf-8")
    builtin = {"whos-the-ass": "lowest", "ezelen": "greedy", "eigenwijs": "right"}[game]
    commands, lineups = [], []
    for players, options in CONFIGS[game]:
        lineup = [names[(s // 2) % len(names)] if s % 2 == 0 else builtin for s in range(players)]
        hands = [] if "-H" in options else ["-H", "300"]
        commands.append(["simulate", "--game", game, "--strategy-file", str(path), "-n", str(players),
                         "-s", str(index), "--strategies", ",".join(lineup), *options, *hands])
        lineups.append(lineup)
    done = subprocess.run([sys.executable, "-c", DRIVER, json.dumps(commands)], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, f"python block {index}:\n{done.stderr[-3000:]}"
    outputs = done.stdout.split("== done\n")
    assert len(outputs) == len(commands) + 1, done.stdout
    for lineup, out in zip(lineups, outputs):
        for name in set(lineup):  # every seat's strategy is in the table of results
            assert re.search(rf"^\d+\s+{name}\s", out, re.M), out
