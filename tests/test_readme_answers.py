"""The README is a front page (at most 15,000 bytes), and its "What simkit answers" are the committed
example reports' own: each row links a reports/examples/*/report.md that exists, shows a figure of that
folder (small, by an <img> with a width), and every number it writes (integers with commas, decimals,
"a ± b" pairs, percentages) occurs character for character in the report it links; a claim such as
"does best" or "decisively" only where that report makes it."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
README = ROOT / "README.md"
EXAMPLES = sorted(p.name for p in (ROOT / "reports" / "examples").iterdir() if (p / "report.md").is_file())
NUMBER = r"\d[\d,]*(?:\.\d+)?"
PAIR = re.compile(rf"[+-]?{NUMBER}%? ± {NUMBER}")
PERCENT = re.compile(rf"{NUMBER}%")
CLAIMS = ("does best", "decisively", "best reply", "stable mix", "worst")


def rows() -> list[str]:
    section = README.read_text(encoding="utf-8").split("## What simkit answers", 1)[1].split("\n## ", 1)[0]
    return [line for line in section.splitlines() if line.startswith("| [")]


def _parts(row: str) -> tuple[Path, Path, str]:
    """The report a row links, its figure, and its words with the link targets and the figure taken out."""
    report = re.search(r"\]\((reports/examples/[\w-]+/report\.md)\)", row)
    figure = re.search(r'<img src="([^"]+)" width="\d+" alt="[^"]+">', row)
    assert report and figure, row
    text = re.sub(r"\]\([^)]*\)", "]", row.replace(figure.group(0), ""))
    return ROOT / report.group(1), ROOT / figure.group(1), text


def numbers(text: str) -> list[str]:
    """Every number of a text: its "a ± b" pairs (with a sign), percentages and plain numbers."""
    found = PAIR.findall(text) + PERCENT.findall(text)
    found += re.findall(rf"(?<![\w.,]){NUMBER}(?!\d|%|[.,]\d)", text)
    return [n.rstrip(",.") for n in found]


def occurs(number: str, report: str) -> bool:
    return re.search(rf"(?<![\d.,]){re.escape(number)}(?!\d|[.,]\d)", report) is not None


def test_the_readme_is_a_front_page():
    assert len(README.read_bytes()) <= 15_000
    titles = re.findall(r"^## (.+)$", README.read_text(encoding="utf-8"), re.M)
    assert titles == ["Quick start", "What simkit answers", "Commands", "Read on"]


def test_every_example_report_answers_one_row():
    linked = [_parts(row)[0].parent.name for row in rows()]
    assert sorted(linked) == EXAMPLES and len(EXAMPLES) >= 8


@pytest.mark.parametrize("row", rows(), ids=lambda row: _parts(row)[0].parent.name)
def test_a_rows_numbers_are_its_reports(row):
    report, figure, text = _parts(row)
    assert report.is_file() and figure.is_file() and figure.suffix == ".png"
    assert figure.parent == report.parent  # the figure of that example
    page = report.read_text(encoding="utf-8")
    found = numbers(text)
    assert len(found) >= 4, text
    missing = [n for n in found if not occurs(n, page)]
    assert not missing, f"{report.parent.name}: not in its report: {missing}"
    answer = text.split(" | ")[1].lower()  # the question may ask for the best; the answer claims it
    claims = [c for c in CLAIMS if c in answer and c not in page.lower()]
    assert not claims, f"{report.parent.name}: the report does not say {claims}"


def test_the_check_finds_a_number_the_report_does_not_hold():
    page = "it scores 11.99 ± 0.09 points, 6.42 ± 0.16 fewer; 74.89% of 1,000,000 hands; call_median=0.95, more"
    assert all(occurs(n, page) for n in numbers("11.99 ± 0.09, 6.42 ± 0.16, 74.89%, 1,000,000 and 0.95"))
    assert not occurs("11.9", page) and not occurs("1,000", page) and not occurs("0.9", page)
    assert [n for n in numbers("12.00 ± 0.09 and 6.4") if not occurs(n, page)] == ["12.00 ± 0.09", "12.00", "6.4"]
