"""`simkit play`: sit at a table of Who's the Ass? with the strategies, your moves typed (or piped,
a line each), graded after each hand; finished hands saved as traces, and a saved hand replayed
up to one of your decisions to play it again from there."""

import os
import sys

import click

from simkit.cli.options import force_opt, rule_flag_opts, rule_opt, seed_opt, strategy_file_opt
from simkit.core.errors import SimkitError
from simkit.games.whos_the_ass.rules import GAME as WHOS_THE_ASS


def _read(prompt: str) -> str | None:
    """A line from the person: typed at a terminal, or the next line of a pipe (shown, so that a
    scripted game reads as it was played); None at the end of the input."""
    if sys.stdin.isatty():
        try:
            return input(prompt)
        except EOFError:
            click.echo()
            return None
    click.echo(prompt, nl=False)
    line = sys.stdin.readline()
    click.echo(line.rstrip("\n") if line else "(end of input)")
    return line or None


@click.command("play", short_help="Play Who's the Ass? against the strategies; your moves graded after each hand.")
@click.option("--game", type=str, default=WHOS_THE_ASS, show_default=True, help="The game (Who's the Ass? only).")
@click.option("--players", "-n", type=int, default=None, help="Number of players, 3..12 (not with --replay).")
@click.option("--opponents", type=str, default=None,
              help="The strategies at the other seats: one for all, or one per seat in seat order, e.g. "
                   "pimc,highest,greedy (default: pimc).")
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat (0 leads no differently: W6).")
@seed_opt
@click.option("--hands", "-H", type=int, default=None,
              help="Hands in the match (W18; default 1, or with --threshold up to 1,000).")
@click.option("--threshold", type=int, default=0, help="End the match once a total reaches this (W18; 0: none).")
@click.option("--save", type=str, default=None, metavar="FILE",
              help="Write every finished hand to this trace file (JSON Lines, docs/traces.md).")
@click.option("--replay", type=str, default=None, metavar="FILE",
              help="Deal a saved hand again, replay it up to one of your decisions (--from) and play on from there.")
@click.option("--hand", "hand_no", type=int, default=None, help="With --replay: the hand's number in the file.")
@click.option("--from", "upto", type=int, default=1, show_default=True,
              help="With --replay: your decision (with a choice, from 1) to play again.")
@click.option("--search", type=str, default="pimc", show_default=True, help="The search that grades your moves.")
@click.option("--samples", type=int, default=64, show_default=True, help="Samples per graded decision.")
@force_opt
@rule_flag_opts
@rule_opt
@strategy_file_opt
def play_table(game, players, opponents, seat, seed, hands, threshold, save, replay, hand_no, upto, search, samples,
               force, rule_pairs, strategy_files, **flags):
    """Play Who's the Ass? at a table of strategies: each of your decisions shows your hand, the
    trick on the table, every player's card count and your legal moves, numbered; type a number
    or the move as `show` writes it (5 5 J, A, pass). After each hand: the penalties and your
    moves graded by the search. From a pipe, one move a line. Ctrl-C or the end of the input
    stops, keeping the finished hands."""
    from simkit.analyses.grading.grade import check_samples, check_search
    from simkit.analyses.human import replay as replaying
    from simkit.analyses.human.session import EndOfInput, Sitting, check_sitting, sit
    from simkit.cli import inputs
    from simkit.core.files import replaceable
    from simkit.core.rng import check_seed
    from simkit.games import get
    from simkit.games.traces import is_trace
    from simkit.strategies.plugins import load_strategy_files

    if game != WHOS_THE_ASS:
        raise SimkitError(f"play seats a person at Who's the Ass? only, not {game!r}")
    described = get(game)
    load_strategy_files(strategy_files)
    check_search(search, "--search")
    check_samples(samples, "--samples")
    if save is not None:
        if not save.strip():
            raise SimkitError("--save needs a file name")
        replaceable(save, is_trace, "a trace", force)
    elif force:
        raise SimkitError("--force goes with --save FILE")
    if replay is not None:
        table_options = (players, opponents, hands, threshold or None, None if seat == 0 else seat,
                         None if seed == "0" else seed, *rule_pairs, *(v for v in flags.values() if v is not None))
        if any(v is not None for v in table_options):
            raise SimkitError("--replay plays the saved hand's table, seed and rules again: leave out -n, "
                              "--opponents, --seat, --seed, --hands, --threshold and the rule options")
        if save is not None and os.path.exists(save) and os.path.exists(replay) and os.path.samefile(save, replay):
            raise SimkitError(f"--save {save} is the file replayed: it would keep only the new hand; save elsewhere")
        sitting, record, totals = replaying.prepare(described, replay, hand_no, upto, save, search, samples)
    else:
        if hand_no is not None or upto != 1:
            raise SimkitError("--hand and --from go with --replay")
        if players is None:
            raise SimkitError("-n/--players is required (or --replay FILE)")
        described.check_players(players)
        rules = inputs.rules(described, rule_pairs, flags)
        if not 0 <= threshold <= 1_000_000:
            raise SimkitError(f"--threshold must be 0..1,000,000 penalty points (0: none), got {threshold:,}")
        hands = hands if hands is not None else (1000 if threshold else 1)
        sitting = Sitting(replaying.opponents(described, opponents or "pimc", players, seat), seat,
                          check_seed(seed), rules, hands, threshold, save, search, samples)
        check_sitting(sitting)
        record = None
    try:
        if record is None:
            sit(sitting, _read, click.echo)
        else:
            replaying.play_on(sitting, record, totals, upto, _read, click.echo)
    except EndOfInput:
        click.echo(_kept(sitting, "the input ended"))
    except KeyboardInterrupt:
        click.echo(_kept(sitting, "interrupted"), err=True)
        sys.exit(130)


def _kept(sitting, why: str) -> str:
    done = len(sitting.records)
    where = f", saved to {sitting.save}" if sitting.save and done else ""
    return f"{why}: {done} finished hand{'s' if done != 1 else ''}{where}; the hand in play is not kept"
