"""docs/cli.md is the manual of every command and option, written from the click definitions
(simkit.cli.manual): the committed page equals what they give today (`make docs` writes it)."""

from pathlib import Path

from simkit.cli import cli
from simkit.cli.manual import manual

PAGE = Path(__file__).parents[1] / "docs" / "cli.md"


def test_the_manual_is_the_commands_own():
    assert PAGE.read_text(encoding="utf-8") == manual(), "docs/cli.md is out of date: run `make docs`"


def test_every_command_and_option_is_in_the_manual():
    text = PAGE.read_text(encoding="utf-8")
    for name, command in cli.commands.items():
        section = text.split(f"\n## simkit {name}\n", 1)[1].split("\n## ", 1)[0]
        for param in command.params:
            for opt in getattr(param, "opts", []):
                assert f"`{opt}`" in section or param.human_readable_name.upper() in section, (name, opt)
