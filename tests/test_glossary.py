"""The words a report uses are said once: docs/reports.md lists every one of the code's
(simkit.reports.glossary) with the same meaning, and every kind of report ends with those it uses."""

import re
from pathlib import Path

from simkit.games import Words
from simkit.reports import glossary

PAGE = Path(__file__).resolve().parents[1] / "docs" / "reports.md"


def _listed() -> dict[str, str]:
    section = PAGE.read_text().split("## Words used here", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("| word")]
    return {cells[0]: cells[1] for cells in ([c.strip() for c in row.strip("|").split(" | ")] for row in rows)}


def test_the_page_lists_every_word_with_the_code_meaning():
    assert _listed() == glossary.TERMS


def test_every_kind_uses_words_the_list_has():
    for terms in (glossary.EXPERIMENT, glossary.VARIANTS, glossary.FIELD, glossary.TUNING, glossary.GRADING):
        assert set(terms) <= set(glossary.TERMS)


def test_the_words_are_the_game_s():
    said = Words("t", "u", "fewer u", deal="game", dealt="dice")
    text = glossary.section(("deal", "n"), said).text
    assert text == ("- deal: what is dealt for one game (its dice); a table replays each deal in every seating\n"
                    "- n: the number of deals an estimate is taken over (a deal's seats and seatings share its dice, "
                    "so they count once)")
    assert not re.search(r"\{\w+\}", glossary.section(tuple(glossary.TERMS)).text)  # every blank filled
