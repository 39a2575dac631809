"""The options several commands share, each defined once: the game, its table, seed, strategies,
rules and model values, threads, users' strategy files, where a run plays (Dask), and the progress
bar. The games' names, players, rule shorthands and default strategies in the help texts come from
their descriptions."""

import os
import shlex
import sys

import click
import numba as nb

from simkit import games
from simkit.core.errors import SimkitError

EXIT_BAD_INPUT = 2  # the exit code of every bad input, after its one line


def set_threads(threads: int | None) -> int:
    """--threads: the engine's threads in this process (checked); returns the number in use."""
    if threads is not None:
        if not 1 <= threads <= nb.config.NUMBA_NUM_THREADS:
            raise SimkitError(f"--threads must be 1..{nb.config.NUMBA_NUM_THREADS}, got {threads}")
        nb.set_num_threads(threads)
    return nb.get_num_threads()


def progress(total: int, unit: str):
    """A progress bar on stderr (hidden when stderr is not a terminal)."""
    from tqdm import tqdm

    return tqdm(total=total, unit=unit, unit_scale=True, file=sys.stderr, leave=False, disable=None)


def invoked() -> str:
    """How the user called simkit, as the commands simkit prints begin: `simkit` where that is the
    command found on the PATH, else the path they typed (`.venv/bin/simkit`), or `python -m
    simkit.cli` with the interpreter they ran."""
    import shutil

    first = sys.argv[0] if sys.argv and sys.argv[0] else "simkit"
    if os.path.basename(first) == "__main__.py":  # python -m simkit.cli
        python = sys.executable or "python"
        here = os.path.relpath(python)
        return shlex.join([here if not here.startswith("..") else python, "-m", "simkit.cli"])
    if os.path.basename(first) != "simkit" or not os.path.isfile(first):
        return "simkit"  # the command's own name (python -c, an embedding program)
    found = shutil.which("simkit")
    return "simkit" if found and os.path.samefile(found, first) else shlex.quote(first)


def command_line(*words: object) -> str:
    """A command for the user to type: how they called simkit, then `words`, quoted for a shell."""
    return invoked() + " " + shlex.join(str(w) for w in words)


def files_words(strategy_files: tuple[str, ...]) -> list[str]:
    """The --strategy-file options of a printed command (its resume needs the same strategies)."""
    return [word for path in strategy_files for word in ("--strategy-file", path)]


def interruptible(bar, play, record: str, kept: str, what: str, again: str):
    """play(), and on Ctrl-C one line saying what is kept (once the folder holds its record) and
    the command that finishes it, then exit 130."""
    try:
        return play()
    except KeyboardInterrupt:
        bar.close()
        if os.path.isfile(record):
            click.echo(f"simkit: interrupted; {kept}; finish the {what} with: {again} --resume", err=True)
        else:
            click.echo(f"simkit: interrupted before the {what} began; nothing is kept; start it again with: {again}",
                       err=True)
        sys.exit(130)


def rule_flag_opts(f):
    """One option per rule shorthand of any registered game (e.g. --ass-joker)."""
    for name in reversed(games.names()):
        for option in games.get(name).rule_flags:
            f = click.option(option.flag, option.rule, type=str, default=None, help=option.help)(f)
    return f


def each_game(what) -> str:
    """A help text's list of something per game: 'Who's the Ass? 3..12, Ezelen 2..13'."""
    return ", ".join(f"{g.title} {what(g)}" for g in map(games.get, games.names()))


players_opt = click.option("--players", "-n", type=int, required=True,
                           help=f"Number of players ({each_game(lambda g: '%d..%d' % g.players)}).")
seed_opt = click.option("--seed", "-s", type=str, default="0", show_default=True,
                        help="Run seed, 0..2**64-1: hand i draws only from (seed, i).")
strategies_opt = click.option("--strategies", type=str, default=None,
                              help="One strategy per seat, comma-separated, or one for all, e.g. "
                                   "greedy,lowest,lowest,lowest "
                                   f"(default: {each_game(lambda g: g.default_strategy)}; see `simkit strategies`).")
rule_opt = click.option("--rule", "rule_pairs", multiple=True, metavar="NAME=VALUE",
                        help="Set a rule option of the game, e.g. --rule ass_joker=any (see docs/rules/; repeatable).")
model_opt = click.option("--model", "model_pairs", multiple=True, metavar="NAME=VALUE",
                         help="Ezelen, Eigenwijs: set a model value (M2-M4, H2-H5) for every seat, or one per "
                              "seat, e.g. --model attention=1,1,0.6,1 (repeatable).")
game_opt = click.option("--game", type=str, default=games.DEFAULT, show_default=True,
                        help=f"The game: {', '.join(games.names())}.")
threads_opt = click.option("--threads", type=int, default=None, help="Threads (default: all cores).")
engine_threads_opt = click.option("--threads", type=int, default=None,
                                  help="Engine threads in this process (default: all cores).")
force_opt = click.option("--force", is_flag=True,
                         help="Replace the output file even where simkit did not write it (never needed for its own).")
strategy_file_opt = click.option("--strategy-file", "strategy_files", multiple=True, metavar="FILE.py",
                                 help="Load your own strategies from a Python file (repeatable).")


def dask_opts(f):
    """Where a run's deals play besides this process: `run`, `tune` and `field` take the same two options."""
    f = click.option("--scheduler", type=str, default=None,
                     help="Play on an existing Dask cluster (tcp://host:8786).")(f)
    return click.option("--workers", type=int, default=None, help="Play on a local Dask cluster of K processes.")(f)


def play_opts(f):
    """What `simulate` and `trace` both take: the game, its table, seed, strategies and options."""
    for option in reversed((game_opt, players_opt, seed_opt, strategies_opt, rule_flag_opts, rule_opt, model_opt,
                            strategy_file_opt)):
        f = option(f)
    return f

