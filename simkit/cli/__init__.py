"""The `simkit` command: a module per family of commands, each command a thin layer over the
Python API (parse, call, print). Bad input is one line and exit code 2.

What a command plays comes from the game's description (simkit.games): its name, its unit of
play, its rule shorthands, its default strategy, what `simulate`, `trace` and `bench` do with it
(the help texts still name the built-in games in their examples).
"""

import os
import sys

import click

from simkit.cli import analyses, bench, grade, human, play, run, strength
from simkit.cli.options import EXIT_BAD_INPUT
from simkit.core.errors import SimkitError


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 120})
@click.version_option(package_name="simkit")
def cli():
    """Monte Carlo strategy analysis for Who's the Ass?, Ezelen and Eigenwijs."""


for command in (play.simulate, play.trace, play.show, grade.grade, play.check, human.play_table, strength.strength,
                strength.search_strength, run.run,
                analyses.tune, analyses.field, run.report, play.list_strategies, bench.bench):
    cli.add_command(command)


def main() -> None:
    """Entry point: one clear line and exit code 2 for every kind of bad input."""
    try:
        cli.main(standalone_mode=False)
    except (SimkitError, click.UsageError) as e:
        message = e.format_message() if isinstance(e, click.UsageError) else str(e)
        click.echo(f"simkit: error: {message}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except click.exceptions.Abort:
        click.echo("simkit: aborted", err=True)
        sys.exit(130)
    except MemoryError as e:  # an allocation beyond the checks' estimates (simkit.core.sizes.check_memory)
        click.echo(f"simkit: error: out of memory{f' ({e})' if str(e) else ''}; play fewer", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except OSError as e:  # a full disk, a file gone or unreadable: the system's word for it (never a traceback)
        click.echo(f"simkit: error: {_os_error(e)}", err=True)
        sys.exit(EXIT_BAD_INPUT)


def _os_error(e: OSError) -> str:
    """An OSError as one line: the system's reason and the file it was about."""
    why = e.strerror or str(e) or type(e).__name__
    files = [os.fspath(f) for f in (e.filename, e.filename2) if f is not None]
    return f"{why}: {' -> '.join(map(str, files))}" if files else why

