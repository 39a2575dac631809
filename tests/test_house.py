"""The house keeps its shape (docs/architecture.md): every module of simkit belongs to a layer (none
sits loose at the top but simkit/__init__.py), no module imports a layer above its own (by an
import statement, or by naming a module for a later import, as a game's registration does), the
import graph of simkit has no circle, and no module outside tests/ passes 450 lines. The layers
are read from the page itself, so the page and the rule cannot drift apart."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "architecture.md"
MOST_LINES = 450
NAMED = re.compile(r"^(simkit(?:\.\w+)+)(?::\w+)?$")  # a module named for a later import ("simkit.x.y:GAME")


def layers(text: str) -> dict[str, int]:
    """The page's table of layers: each folder (as a module prefix) -> its rank, 0 the lowest."""
    section = text.split("## The layers", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and "`simkit/" in line]
    ranks = {}
    for rank, row in enumerate(reversed(rows)):
        for folder in re.findall(r"`simkit/(\w+)/`", row.split("|")[2]):
            ranks[f"simkit.{folder}"] = rank
    return ranks


def modules(root: Path = ROOT) -> dict[str, Path]:
    found = {}
    for path in (root / "simkit").rglob("*.py"):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def known(found: dict[str, Path], name: str) -> str:
    """The module `name` is, or is in (a name imported from it): its longest prefix that is a module."""
    while name and name not in found:
        name = name.rpartition(".")[0]
    return name


def imports(found: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the simkit modules it imports, anywhere in it (inside functions too), and the
    packages whose __init__ that import runs (all but the importer's own)."""

    edges = {}
    for name, path in found.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        out = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                out |= {known(found, a.name) for a in node.names if a.name.split(".")[0] == "simkit"}
            elif isinstance(node, ast.ImportFrom):
                base = package.split(".")[:len(package.split(".")) - node.level + 1] if node.level else []
                module = ".".join(base + ([node.module] if node.module else []))
                if module.split(".")[0] != "simkit":
                    continue
                out |= {f"{module}.{a.name}" if f"{module}.{a.name}" in found else known(found, module)
                        for a in node.names}
        own = name.split(".")
        for target in list(out):
            parts = target.split(".")
            out |= {".".join(parts[:k]) for k in range(1, len(parts)) if own[:k] != parts[:k]}
        edges[name] = out - {name, ""}
    return edges


def named(found: dict[str, Path]) -> dict[str, set[str]]:
    """Module -> the simkit modules its strings name for a later import (importlib.import_module,
    a game's registration, its strategies' package, its bench module)."""

    out = {}
    for name, path in found.items():
        strings = (n.value for n in ast.walk(ast.parse(path.read_text()))
                   if isinstance(n, ast.Constant) and isinstance(n.value, str))
        out[name] = {known(found, m.group(1)) for s in strings if (m := NAMED.match(s))} - {name, ""}
    return out


def rank(name: str, ranks: dict[str, int]) -> int | None:
    if name == "simkit":
        return 0  # the package itself: it points numba's cache at its folder (the core's)
    return next((r for prefix, r in ranks.items() if name == prefix or name.startswith(prefix + ".")), None)


def upward(edges: dict[str, set[str]], ranks: dict[str, int]) -> list[str]:
    """Every import of a layer above the importer's own."""
    return sorted(f"{a} imports {b}" for a, targets in edges.items() for b in targets
                  if rank(b, ranks) is not None and rank(a, ranks) is not None and rank(b, ranks) > rank(a, ranks))


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected parts of the import graph with more than one module (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                found.append(sorted(part))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


@pytest.fixture(scope="module")
def house():
    found = modules()
    return found, imports(found), layers(PAGE.read_text())


def test_no_module_names_one_of_a_layer_above_it_to_import_later(house):
    found, _, ranks = house
    assert upward(named(found), ranks) == []


def test_every_module_belongs_to_a_layer_of_the_page(house):
    found, _, ranks = house
    assert len(set(ranks.values())) >= 6, ranks
    loose = sorted(name for name in found if rank(name, ranks) is None)
    assert not loose, f"modules in no layer of docs/architecture.md: {loose}"


def test_no_layer_imports_one_above_it(house):
    _, edges, ranks = house
    assert upward(edges, ranks) == []


def test_the_import_graph_has_no_circle(house):
    _, edges, _ = house
    assert circles(edges) == []


def test_no_module_outside_the_tests_passes_450_lines():
    long = {str(p.relative_to(ROOT)): n for p in ROOT.rglob("*.py")
            if not {"tests", ".venv", "build"} & set(p.relative_to(ROOT).parts)
            and not p.relative_to(ROOT).parts[0].startswith(".")
            and (n := len(p.read_text().splitlines())) > MOST_LINES}
    assert long == {}


# --- the guards themselves fail where they should --------------------------------------------------------------------

def _tree(tmp_path: Path, files: dict[str, str]) -> dict[str, Path]:
    for name, text in files.items():
        path = tmp_path / "simkit" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return modules(tmp_path)


def test_the_guards_find_a_circle_an_upward_import_and_a_package_init(tmp_path):
    ranks = {"simkit.core": 0, "simkit.reports": 1, "simkit.experiments": 2}
    found = _tree(tmp_path, {
        "__init__.py": "", "core/__init__.py": "", "core/files.py": "def f():\n    import simkit.reports.page\n",
        "reports/__init__.py": "from simkit.reports import page\n", "reports/page.py": "",
        "experiments/__init__.py": "", "experiments/a.py": "from simkit.experiments import b\n",
        "experiments/b.py": "from . import a\n", "experiments/c.py": "from simkit.reports.page import x\n",
        "reports/d.py": "WHERE = 'simkit.experiments.a:GAME'\nNOT = 'simkit is a package'\n"})
    edges = imports(found)
    assert upward(edges, ranks) == ["simkit.core.files imports simkit.reports", "simkit.core.files imports "
                                    "simkit.reports.page"]
    assert circles(edges) == [["simkit.experiments.a", "simkit.experiments.b"]]
    assert "simkit.reports" in edges["simkit.experiments.c"]  # importing a module runs its package's __init__
    assert upward(named(found), ranks) == ["simkit.reports.d imports simkit.experiments.a"]


def test_the_layers_are_read_from_the_page():
    ranks = layers(PAGE.read_text())
    assert ranks["simkit.core"] == 0 and ranks["simkit.cli"] == max(ranks.values())
    assert ranks["simkit.games"] == ranks["simkit.strategies"]
    assert ranks["simkit.reports"] < ranks["simkit.experiments"] < ranks["simkit.analyses"]
