"""The README's strategy example works as printed."""

import re
from pathlib import Path

import pytest

from simkit.whos_the_ass import batch
from simkit.whos_the_ass.rules import ASS_JOKER_OPTIONS, check_rules
from simkit.whos_the_ass.strategy import seats_for

README = Path(__file__).parents[1] / "README.md"


@pytest.fixture(scope="module")
def example():
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    namespace = {}
    exec(compile(code, str(README), "exec"), namespace)
    return namespace


@pytest.mark.parametrize("option", ASS_JOKER_OPTIONS)
def test_the_readme_strategy_plays_legally(example, option):
    seats = seats_for(["cautious", "lowest", "random", "cautious"], 4)
    res = batch.play(seats, 5000, 1, check_rules({"ass_joker": option}))
    assert res.penalties.shape == (5000, 4)
