"""`simkit simulate`, `trace`, `show`, `check` and `strategies`: play a table of any game, write
its hands move by move, read them back for a person or against the rules, and list what can sit
at a table."""

import sys

import click

from simkit import games
from simkit.cli import inputs
from simkit.cli.options import (
    EXIT_BAD_INPUT,
    force_opt,
    game_opt,
    play_opts,
    progress,
    set_threads,
    strategy_file_opt,
    threads_opt,
)
from simkit.core import sizes
from simkit.core.errors import SimkitError, check_count
from simkit.core.rng import check_seed
from simkit.strategies.plugins import load_strategy_files


@click.command(short_help="Play many hands or rounds; per-seat results with 95% CIs.")
@play_opts
@click.option("--hands", "-H", type=int, default=100_000, show_default=True,
              help="Hands to play (Ezelen: rounds, or matches with --matches).")
@click.option("--matches", is_flag=True, help="Play whole matches (Ezelen: until a player spells E-Z-E-L, Z7).")
@threads_opt
@click.option("--chunks", type=int, default=None,
              help="Progress updates (default: one per 100,000 hands, at most 100; no effect on results).")
@click.option("--by", type=str, default=None, metavar="FEATURES",
              help="Also group each seat's results by what it was dealt (comma-separated): Who's the Ass? "
                   "jokers, ass, size, low (e.g. --by jokers,ass); Ezelen pairs, most (single rounds); "
                   "Eigenwijs first, turn (the seat that flips first, the order from it).")
@click.option("--csv", type=str, default=None, metavar="FILE",
              help="Write the table as CSV (seat, strategy, the --by features, n, mean, ci95).")
@force_opt
def simulate(game, players, seed, strategies, rule_pairs, model_pairs, strategy_files, hands, matches, threads,
             chunks, by, csv, force, **flags):
    """Play many hands (Ezelen: rounds or matches) on all cores and print per-seat results with 95% intervals;
    with --by, each seat's results grouped by what it was dealt."""
    from simkit.core.files import replaceable
    from simkit.games import dealt
    from simkit.stats import by_deal

    run = inputs.play(game, players, hands, seed, strategies, rule_pairs, model_pairs, strategy_files, flags)
    if matches and not run.game.matches:
        raise SimkitError(f"--matches plays whole matches in simulate; {run.game.title} has none")
    grouping = dealt.parse_by(run.game.name, by) if by is not None else None
    if grouping is not None and matches:
        raise SimkitError("--by groups hands by what was dealt; a match deals many: leave out --matches")
    if csv is not None:
        if matches:
            raise SimkitError(f"--csv writes the table of single {run.game.unit()}: leave out --matches")
        replaceable(csv, by_deal.is_table, "a table", force)
    elif force:
        raise SimkitError("--force goes with --csv FILE")
    sizes.check_deals_in_memory(run.count, len(run.seats), "--hands", "matches" if matches else run.game.unit())
    if chunks is not None and check_count(chunks, "--chunks") > run.count:
        raise SimkitError(f"--chunks must be 1..{run.count:,} (at most one per {run.game.deal} played), got {chunks:,}")
    nthreads = set_threads(threads)
    chunks = chunks or min(100, max(1, run.count // 100_000))
    with progress(run.count, "match" if matches else run.game.deal) as bar:
        summary = run.game.simulate(run.seats, run.count, run.seed, run.rules, run.model, matches, chunks,
                                    bar.update)
    click.echo(run.title(summary.unit))
    click.echo(summary.seats.to_string())
    for line in summary.lines:
        click.echo(line)
    click.echo(f"speed: {summary.speed} ({summary.seconds:.2f} s on {nthreads} threads)")
    if grouping is None and csv is None:
        return
    labels = [seat.label for seat in run.seats]
    grouping = grouping or by_deal.By(run.game.name, (), (), ())  # none: a row per seat
    found = by_deal.table(grouping, dealt.grouped_sums(grouping, summary.values, run.seed, dealt=summary.dealt),
                          labels)
    if grouping.names:
        click.echo(f"\nby what each seat was dealt ({', '.join(grouping.names)}): mean "
                   f"{run.game.measures('single').words.unit} ± 95% interval; n: {run.game.unit()}")
        click.echo(by_deal.shown(found).to_string(index=False))
    if csv is not None:
        by_deal.write_csv(found, csv)
        click.echo(f"wrote {len(found):,} rows to {csv}")


@click.command(short_help="Write hands or rounds move by move (JSON Lines).")
@play_opts
@click.option("--hands", "-H", type=int, default=1, show_default=True,
              help="Hands to trace (Ezelen: rounds; consecutive rounds form matches).")
@click.option("-o", "--output", type=str, required=True, help="The JSON Lines file to write.")
@force_opt
def trace(game, players, seed, strategies, rule_pairs, model_pairs, strategy_files, hands, output, force, **flags):
    """Write hands (Ezelen: rounds) move by move as JSON Lines (docs/traces.md)."""
    from simkit.core.files import replaceable
    from simkit.games.traces import is_trace, write_game_traces

    replaceable(output, is_trace, "a trace", force)  # before anything is played
    run = inputs.play(game, players, hands, seed, strategies, rule_pairs, model_pairs, strategy_files, flags)
    sizes.check_trace_disk(run.count, output, run.game.unit())
    count, last = write_game_traces(output, run.game.name, run.seats, run.count, run.seed, run.rules, run.model)
    click.echo(f"wrote {count:,} {run.game.unit()}{run.game.traced(count, last)} to {output}")


@click.command(short_help="Print one traced hand or round for a person.")
@click.argument("file", type=str)
@click.option("--hand", "-k", "hand", type=int, default=None,
              help="The hand to show (Ezelen: the round, counted through the file from 0; default: the first).")
@click.option("--match", "match", type=int, default=None, help="Ezelen: show a round of this match.")
@click.option("--round", "round_no", type=int, default=None, help="Ezelen: the round of --match (default: 0).")
@click.option("--grade", "graded", type=int, default=None,
              help="Who's the Ass?: grade this seat's moves with the search and print each one's cost beside it.")
@click.option("--search", "search", type=str, default=None,
              help="With --grade: the search that grades (pimc or cheat, with its rollout= and opponents=; "
                   "default pimc).")
@click.option("--samples", type=int, default=None, help="With --grade: samples per decision (default 64).")
@click.option("--seed", "-s", type=str, default=None, help="With --grade: the grading's seed (default 0).")
def show(file, hand, match, round_no, graded, search, samples, seed):
    """Print one traced hand trick by trick (A = the ass, J = joker), or an Ezelen round turn by turn;
    with --grade SEAT, each of that seat's moves with a choice beside its cost against the search's
    best action (± its 95% interval over the samples)."""
    from simkit.games.traces import find_record, show_record

    if round_no is not None and match is None:
        raise SimkitError("--round needs --match")
    for value, option in ((hand, "--hand"), (match, "--match"), (round_no, "--round")):
        if value is not None:
            check_count(value, option, least=0)
    if graded is None:
        given = [name for name, v in (("--search", search), ("--samples", samples), ("--seed", seed)) if v is not None]
        if given:
            raise SimkitError(f"{given[0]} goes with --grade SEAT")
    search, samples, seed = search or "pimc", 64 if samples is None else samples, seed or "0"
    inputs.trace_file(file)
    record = find_record(file, hand, match, round_no)
    if graded is None:
        click.echo(show_record(record))
        return
    from simkit.analyses.grading.grade import check_samples, graded_hand

    check_samples(samples, "--samples")
    click.echo(graded_hand(record, graded, search, samples, check_seed(seed)))


@click.command(short_help="Check a trace file against the rules, record by record.")
@click.argument("file", type=str)
def check(file):
    """Replay every hand or round of a trace file through the reference engine and check it move by
    move: one line per record with a problem."""
    from simkit.games.traces import check_file

    counts, problems = check_file(inputs.trace_file(file))
    for problem in problems:
        click.echo(f"simkit: error: {problem}", err=True)
    if problems:
        sys.exit(EXIT_BAD_INPUT)
    if not sum(counts.values()):
        raise SimkitError(f"{file} holds no records")
    held = " and ".join(f"{counts[g]:,} {games.get(g).unit()}" for g in games.names() if counts[g])
    click.echo(f"{file}: {held or '0 records'} follow the rules and the trace format")


@click.command("strategies", short_help="List the strategies and their parameters.")
@game_opt
@strategy_file_opt
def list_strategies(game, strategy_files):
    """List the strategies with their parameters (Ezelen: and the model values a strategy brings)."""
    from simkit.strategies import registry

    games.get(game)
    load_strategy_files(strategy_files)
    for info in registry.available(game):
        shown = ", ".join(f"{p.name}={p.default:g}" for p in info.params)
        click.echo(f"{info.name}{f'({shown})' if shown else ''}")
        click.echo(f"    {info.description}")
        for p in info.params:
            click.echo(f"    {p.name}: {p.low:g}..{p.high:g}, default {p.default:g}; {p.description}")
        if info.model:
            click.echo(f"    model: {', '.join(f'{name}={value:g}' for name, value in info.model)}")
