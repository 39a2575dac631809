"""The documentation stands on its own in a user's clone: every relative link in the Markdown files
resolves (file and heading), and nothing points outside the repository."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
SKIP = {".git", ".venv", "runs", "out", "build", "dist", "node_modules", ".pytest_cache", ".hypothesis"}
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)|!\[[^\]]*\]\(([^)\s]+)\)")
OUTSIDE = ("../" + "shared", "shared" + "/rules", "shared" + "/spec")  # split, so that this file names none


def _files(pattern: str) -> list[Path]:
    return sorted(p for p in ROOT.rglob(pattern) if not SKIP & set(p.relative_to(ROOT).parts[:-1]))


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return {_slug(m.group(1)) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*#*$", text, re.M)}


def _links(path: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    return [a or b for a, b in LINK.findall(text)]


MARKDOWN = _files("*.md")


def test_the_docs_are_there():
    names = {p.relative_to(ROOT).as_posix() for p in MARKDOWN}
    assert {"README.md", "docs/rules/whos-the-ass.md", "docs/rules/ezelen.md", "docs/traces.md"} <= names


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(path):
    broken = []
    for link in _links(path):
        if re.match(r"[a-z]+:", link):  # https:, mailto:
            continue
        target, _, anchor = link.partition("#")
        file = (path.parent / target).resolve() if target else path
        if not file.is_relative_to(ROOT) or not file.exists():
            broken.append(f"{link} (no such file in the repository)")
        elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
            broken.append(f"{link} (no heading #{anchor})")
    assert not broken, broken


def test_the_checker_finds_a_broken_link_and_a_missing_heading():
    page = ROOT / "docs" / "_probe.md"
    page.write_text("[a](rules/ezelen.md#readings) [b](rules/nope.md) [c](traces.md#no-such-heading)\n")
    try:
        with pytest.raises(AssertionError, match=r"nope\.md.*no-such-heading"):
            test_every_relative_link_resolves(page)
    finally:
        page.unlink()


def test_nothing_in_the_repository_points_outside_it():
    texts = [p for pattern in ("*.md", "*.py", "*.toml", "*.html", "Makefile", "run") for p in _files(pattern)]
    found = [p.relative_to(ROOT).as_posix() for p in texts
             if p != Path(__file__) and any(o in p.read_text(encoding="utf-8", errors="replace") for o in OUTSIDE)]
    assert not found
