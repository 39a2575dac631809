"""The `simkit` command: parses, calls, prints. Bad input is one line and exit code 2.

Every game-specific word comes from the game's description (simkit.games): its name, its unit of
play, its rule shorthands, its default strategy, what `simulate`, `trace` and `bench` do with it.
"""

import dataclasses
import os
import sys
import time

import click
import numba as nb
import pandas as pd

from simkit import games, notation, options
from simkit.errors import SimkitError, check_count
from simkit.games import Game
from simkit.rng import check_seed

EXIT_BAD_INPUT = 2


def _set_threads(threads: int | None) -> int:
    if threads is not None:
        if not 1 <= threads <= nb.config.NUMBA_NUM_THREADS:
            raise SimkitError(f"--threads must be 1..{nb.config.NUMBA_NUM_THREADS}, got {threads}")
        nb.set_num_threads(threads)
    return nb.get_num_threads()


def _progress(total: int, unit: str):
    """A progress bar on stderr (hidden when stderr is not a terminal)."""
    from tqdm import tqdm

    return tqdm(total=total, unit=unit, unit_scale=True, file=sys.stderr, leave=False, disable=None)


def _rule_flag_opts(f):
    """One option per rule shorthand of any registered game (e.g. --ass-joker)."""
    for name in reversed(games.names()):
        for option in games.get(name).rule_flags:
            f = click.option(option.flag, option.rule, type=str, default=None, help=option.help)(f)
    return f


def _each_game(what) -> str:
    """A help text's list of something per game: 'Who's the Ass? 3..12, Ezelen 2..13'."""
    return ", ".join(f"{g.title} {what(g)}" for g in map(games.get, games.names()))


players_opt = click.option("--players", "-n", type=int, required=True,
                           help=f"Number of players ({_each_game(lambda g: '%d..%d' % g.players)}).")
seed_opt = click.option("--seed", "-s", type=str, default="0", show_default=True,
                        help="Run seed, 0..2**64-1: hand i draws only from (seed, i).")
strategies_opt = click.option("--strategies", type=str, default=None,
                              help="One strategy per seat, comma-separated, or one for all, e.g. "
                                   "greedy,lowest,lowest,lowest "
                                   f"(default: {_each_game(lambda g: g.default_strategy)}; see `simkit strategies`).")
rule_opt = click.option("--rule", "rule_pairs", multiple=True, metavar="NAME=VALUE",
                        help="Set a rule option of the game, e.g. --rule ass_joker=any (see docs/rules/; repeatable).")
model_opt = click.option("--model", "model_pairs", multiple=True, metavar="NAME=VALUE",
                         help="Ezelen, Eigenwijs: set a model value (M2-M4, H2-H5) for every seat, or one per "
                              "seat, e.g. --model attention=1,1,0.6,1 (repeatable).")
game_opt = click.option("--game", type=str, default=games.DEFAULT, show_default=True,
                        help=f"The game: {', '.join(games.names())}.")
threads_opt = click.option("--threads", type=int, default=None, help="Threads (default: all cores).")
strategy_file_opt = click.option("--strategy-file", "strategy_files", multiple=True, metavar="FILE.py",
                                 help="Load your own strategies from a Python file (repeatable).")


def dask_opts(f):
    """Where a run's deals play besides this process: `run` and `tune` take the same two options."""
    f = click.option("--scheduler", type=str, default=None,
                     help="Play on an existing Dask cluster (tcp://host:8786).")(f)
    return click.option("--workers", type=int, default=None, help="Play on a local Dask cluster of K processes.")(f)


def check_dask(workers: int | None, scheduler: str | None) -> None:
    if workers is not None and scheduler is not None:
        raise SimkitError("give --workers (a local Dask cluster) or --scheduler (an existing one), not both")
    if workers is not None:
        check_count(workers, "--workers")
    if scheduler is not None:
        options.check_scheduler(scheduler)


def play_opts(f):
    """What `simulate` and `trace` both take: the game, its table, seed, strategies and options."""
    for option in reversed((game_opt, players_opt, seed_opt, strategies_opt, _rule_flag_opts, rule_opt, model_opt,
                            strategy_file_opt)):
        f = option(f)
    return f


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 120})
@click.version_option(package_name="simkit")
def cli():
    """Monte Carlo strategy analysis for Who's the Ass?, Ezelen and Eigenwijs."""


@cli.command(short_help="Play many hands or rounds; per-seat results with 95% CIs.")
@play_opts
@click.option("--hands", "-H", type=int, default=100_000, show_default=True,
              help="Hands to play (Ezelen: rounds, or matches with --matches).")
@click.option("--matches", is_flag=True, help="Play whole matches (Ezelen: until a player spells E-Z-E-L, Z7).")
@threads_opt
@click.option("--chunks", type=int, default=None,
              help="Progress updates (default: one per 100,000 hands, at most 100; no effect on results).")
def simulate(game, players, seed, strategies, rule_pairs, model_pairs, strategy_files, hands, matches, threads,
             chunks, **flags):
    """Play many hands (Ezelen: rounds or matches) on all cores and print per-seat results with 95% intervals."""
    run = options.play(game, players, hands, seed, strategies, rule_pairs, model_pairs, strategy_files, flags)
    if matches and not run.game.matches:
        raise SimkitError(f"--matches plays whole matches in simulate; {run.game.title} has none")
    options.check_deals_in_memory(run.count, len(run.seats), "--hands", "matches" if matches else run.game.unit())
    if chunks is not None and check_count(chunks, "--chunks") > run.count:
        raise SimkitError(f"--chunks must be 1..{run.count:,} (at most one per {run.game.deal} played), got {chunks:,}")
    nthreads = _set_threads(threads)
    chunks = chunks or min(100, max(1, run.count // 100_000))
    with _progress(run.count, "match" if matches else run.game.deal) as bar:
        summary = run.game.simulate(run.seats, run.count, run.seed, run.rules, run.model, matches, chunks,
                                    bar.update)
    click.echo(run.title(summary.unit))
    click.echo(summary.seats.to_string())
    for line in summary.lines:
        click.echo(line)
    click.echo(f"speed: {summary.speed} ({summary.seconds:.2f} s on {nthreads} threads)")


@cli.command(short_help="Write hands or rounds move by move (JSON Lines).")
@play_opts
@click.option("--hands", "-H", type=int, default=1, show_default=True,
              help="Hands to trace (Ezelen: rounds; consecutive rounds form matches).")
@click.option("-o", "--output", type=str, required=True, help="The JSON Lines file to write.")
def trace(game, players, seed, strategies, rule_pairs, model_pairs, strategy_files, hands, output, **flags):
    """Write hands (Ezelen: rounds) move by move as JSON Lines (docs/traces.md)."""
    from simkit.files import writable
    from simkit.traces import write_game_traces

    writable(output)  # before anything is played: the same check the writing makes
    run = options.play(game, players, hands, seed, strategies, rule_pairs, model_pairs, strategy_files, flags)
    options.check_trace_disk(run.count, output, run.game.unit())
    count, last = write_game_traces(output, run.game.name, run.seats, run.count, run.seed, run.rules, run.model)
    click.echo(f"wrote {count:,} {run.game.unit()}{run.game.traced(count, last)} to {output}")


@cli.command(short_help="Print one traced hand or round for a person.")
@click.argument("file", type=str)
@click.option("--hand", "-k", "hand", type=int, default=None,
              help="The hand to show (Ezelen: the round, counted through the file from 0; default: the first).")
@click.option("--match", "match", type=int, default=None, help="Ezelen: show a round of this match.")
@click.option("--round", "round_no", type=int, default=None, help="Ezelen: the round of --match (default: 0).")
@click.option("--grade", "graded", type=int, default=None,
              help="Who's the Ass?: grade this seat's moves with the search and print each one's cost beside it.")
@click.option("--search", "search", type=str, default="pimc", show_default=True,
              help="With --grade: the search that grades (pimc or cheat, with its rollout= and opponents=).")
@click.option("--samples", type=int, default=64, show_default=True, help="With --grade: samples per decision.")
@click.option("--seed", "-s", type=str, default="0", show_default=True, help="With --grade: the grading's seed.")
def show(file, hand, match, round_no, graded, search, samples, seed):
    """Print one traced hand trick by trick (A = the ass, J = joker), or an Ezelen round turn by turn;
    with --grade SEAT, each of that seat's moves with a choice beside its cost against the search's
    best action (± its 95% interval over the samples)."""
    from simkit.traces import find_record, show_record

    if round_no is not None and match is None:
        raise SimkitError("--round needs --match")
    for value, option in ((hand, "--hand"), (match, "--match"), (round_no, "--round")):
        if value is not None:
            check_count(value, option, least=0)
    options.trace_file(file)
    record = find_record(file, hand, match, round_no)
    if graded is None:
        click.echo(show_record(record))
        return
    from simkit.whos_the_ass.grade import check_samples, graded_hand

    check_samples(samples, "--samples")
    click.echo(graded_hand(record, graded, search, samples, check_seed(seed)))


@cli.command(short_help="Grade moves with the search bot: a trace file's seat, or a grading spec's strategies.")
@click.argument("source", type=str)
@click.option("--seat", type=int, default=None, help="A trace file: the seat whose moves are graded (0..players-1).")
@click.option("--out", "-o", "out", type=str, default=None,
              help="A grading spec: the folder for its traces, graded moves and report.")
@click.option("--search", "search", type=str, default=None,
              help="A trace file: the search that grades, pimc or cheat, with its rollout= and opponents=.  "
                   "[default: pimc]")
@click.option("--samples", type=int, default=None,
              help="A trace file: samples per decision (the best action is picked on half, the cost weighed on the "
                   "other).  [default: 64]")
@click.option("--seed", "-s", type=str, default=None, help="A trace file: the grading's own seed.  [default: 0]")
@click.option("--hands", "-H", type=int, default=None,
              help="Grade only the first N hands of the file (a spec: play N hands instead of its own).")
@click.option("--moves", is_flag=True, help="A trace file: also print every graded move.")
def grade(source, seat, out, search, samples, seed, hands, moves):
    """Grade Who's the Ass? moves with the search: replay each decision that had a choice, play every
    legal action out on samples of the hidden cards, and give the points lost per hand at each decision
    point (lead, ass lead, follow, ass trick, joker) with 95% intervals over the hands.

    SOURCE is a trace file (grade its --seat) or a grading spec (.toml: play its strategies' hands
    among its field, grade them, and write the traces, the graded moves and a report into --out)."""
    from simkit.whos_the_ass.grade import check_samples, check_seat, lost_by_point, records
    from simkit.whos_the_ass.grade import grade as grade_hand

    if hands is not None:
        check_count(hands, "--hands")
    if source.endswith(".toml"):
        given = [name for name, v in (("--seat", seat), ("--search", search), ("--samples", samples),
                                      ("--seed", seed), ("--moves", moves or None)) if v is not None]
        if given:
            raise SimkitError(f"{given[0]} is for a trace file; a grading spec sets it as a key")
        if out is None:
            raise SimkitError("a grading spec needs --out DIR")
        _grading(source, out, hands)
        return
    if out is not None:
        raise SimkitError("--out is for a grading spec (.toml); a trace file's grades are printed")
    if seat is None:
        raise SimkitError("grading a trace file needs --seat")
    search = search or "pimc"
    samples = check_samples(64 if samples is None else samples, "--samples")
    seed = check_seed(seed or "0")
    options.trace_file(source)
    graded, shown = [], []
    for number, record in enumerate(records(source, hands)):  # a file may repeat a hand's number: by record
        check_seat(seat, record["players"], "--seat")
        graded.append(number)
        shown += [{"record": number, "hand": record["hand"], **g}
                  for g in grade_hand(record, seat, search, samples, seed)]
    if not graded:
        raise SimkitError(f"{source} holds no records")
    strategy = record["strategies"][seat]
    click.echo(f"{strategy} at seat {seat}: {len(shown):,} moves with a choice in {len(graded):,} hands, graded by "
               f"{search} on {samples} samples each (the best action picked on half of them, the cost weighed on "
               "the other half); points lost per hand ± the 95% interval over the hands")
    table = pd.DataFrame(shown, columns=["record", "hand", "trick", "point", "move", "best", "cost", "ci95"])
    click.echo(lost_by_point(table, graded, by="record").to_string(index=False, float_format=lambda x: f"{x:.2f}"))
    if moves:
        click.echo(table.drop(columns="record").to_string(index=False, float_format=lambda x: f"{x:.2f}"))


def _grading(path: str, out: str, hands: int | None) -> None:
    """`simkit grade SPEC.toml --out DIR`: play, grade, write, report, and print the answer."""
    from simkit.reports.grading import answer, by_point
    from simkit.whos_the_ass.grading import load_grading, read_grading, run_grading

    spec = load_grading(path)
    if hands is not None:
        spec = dataclasses.replace(spec, hands=hands)
    with click.progressbar(length=spec.hands * len(spec.graded), label=f"grading {spec.name}", file=sys.stderr,
                           show_pos=True) as bar:
        folder = run_grading(spec, out, bar.update)
    spec, moves_, hands_, _ = read_grading(folder)
    click.echo(answer(spec, by_point(spec, moves_, hands_), hands_))
    click.echo(f"report: {folder / 'report.html'}")


@cli.command(short_help="Check a trace file against the rules, record by record.")
@click.argument("file", type=str)
def check(file):
    """Replay every hand or round of a trace file through the reference engine and check it move by
    move: one line per record with a problem."""
    from simkit.traces import check_file

    counts, problems = check_file(options.trace_file(file))
    for problem in problems:
        click.echo(f"simkit: error: {problem}", err=True)
    if problems:
        sys.exit(EXIT_BAD_INPUT)
    if not sum(counts.values()):
        raise SimkitError(f"{file} holds no records")
    held = " and ".join(f"{counts[g]:,} {games.get(g).unit()}" for g in games.names() if counts[g])
    click.echo(f"{file}: {held or '0 records'} follow the rules and the trace format")


@cli.command(short_help="Rate strategies in one seat against the game's baseline.")
@game_opt
@players_opt
@click.option("--hands", "-H", type=int, default=1_000_000, show_default=True,
              help="Hands (Ezelen: rounds) per strategy.")
@seed_opt
@click.option("--strategies", type=str, default=None,
              help="Strategies to rate, comma-separated (default: every registered one but the baseline, at its "
                   "defaults; Ezelen's attention profiles bring their model values).")
@click.option("--field", type=str, default=None,
              help="The strategy in every other seat and at the comparison table (default: the game's baseline), "
                   "e.g. --field highest.")
@_rule_flag_opts
@rule_opt
@strategy_file_opt
@click.option("--markdown", is_flag=True, help="Print a Markdown table (for docs).")
def strength(game, players, hands, seed, strategies, field, rule_pairs, strategy_files, markdown, **flags):
    """Rate strategies: each in one seat (rotated through the seats) against the game's baseline (or
    --field) in all others, paired with an all-baseline table on the same deals. Who's the Ass?: mean penalty per hand
    against lowest; Ezelen: share of single rounds lost against greedy (a strategy's attention profile
    comes with its seat)."""
    from simkit import registry
    from simkit.reports import tables
    from simkit.strategy_spec import split

    described = games.get(game)
    rating = described.strength
    if rating is None:
        raise SimkitError(f"simkit strength rates strategies of games with a strength table; {described.title} "
                          "has none (compare them with `simkit run`)")
    options.load_files(strategy_files)
    if field is not None:  # another field than the baseline's: checked, and named by its label
        rating = dataclasses.replace(rating, baseline=str(registry.canonical(game, field)))
    described.check_players(players)
    rules, seed, hands = options.rules(described, rule_pairs, flags), check_seed(seed), check_count(hands, "--hands")
    if hands < players:
        raise SimkitError(f"--hands must be at least the number of players ({players}), got {hands}")
    options.check_deals_in_memory(hands, players, "--hands", described.unit())
    base = rating.baseline
    if strategies:
        candidates = [registry.canonical(game, s) for s in split(strategies)]  # all checked before any runs
        candidates = [c for i, c in enumerate(candidates) if str(c) != base and c not in candidates[:i]]
    else:
        candidates = [i.name + ("()" if i.composer else "") for i in registry.available(game)
                      if i.name != base and not i.search]  # a search is rated when named (--strategies pimc)
    start = time.perf_counter()
    with _progress(hands * (len(candidates) + 1), described.deal) as bar:
        table = rating(candidates, players, hands, seed, rules, progress=bar.update)
    elapsed = time.perf_counter() - start
    in_force = ", ".join(f"{k}={v}" for k, v in rules.items())
    click.echo(f"Strength at {players} players: each strategy in one seat (rotated) against {base}, "
               f"{hands:,} {described.unit()} each, seed {seed}, {in_force}; '{rating.versus}' is the paired "
               f"difference in {rating.difference} to {base} in the same seat on the same deals "
               "(negative = better), ± the 95% interval" + ("; shares in percent, differences in percentage points"
                                                             if rating.share else ""))
    shown = pd.DataFrame({
        rating.measure: [notation.value(m, h, rating.share) for m, h in zip(table[rating.measure], table["±"])],
        rating.versus: [notation.value(x, h, rating.share, sign=True)
                        for x, h in zip(table[rating.versus], table["± "])],
        "decisive": table["decisive"].map({True: "yes", False: "no"}),
        "n": [f"{n:,}" for n in table["n"]],
    }, index=table.index)
    marked = registry.ceilings(game, shown.index)
    shown = shown.rename(index=lambda label: f"{label} †" if label in marked else label)
    click.echo(tables.markdown(shown.reset_index()) if markdown else shown.to_string())
    if marked:
        click.echo(f"† {', '.join(marked)} {registry.CEILING_NOTE}.")
    click.echo(f"({hands * (len(candidates) + 1):,} {described.unit()} in {elapsed:.1f} s)")


@cli.command(short_help="Run an experiment spec: statistics and report.")
@click.argument("spec_file", type=str)
@click.option("--out", "out", type=str, default=None, help="Folder for the results (default: runs/<name>).")
@click.option("--hands", "-H", type=int, default=None, help="Hands per cell, overriding the spec.")
@click.option("--resume", is_flag=True, help="Finish an interrupted run in --out without recomputing.")
@dask_opts
@click.option("--threads", type=int, default=None, help="Engine threads in this process (default: all cores).")
@click.option("--rows", is_flag=True, help="Also write results.parquet: one row per hand (or match) and seat.")
@strategy_file_opt
def run(spec_file, out, hands, resume, workers, scheduler, threads, rows, strategy_files):
    """Run an experiment spec (TOML): stats.parquet, spec.toml, meta.json and the report in --out."""
    from simkit.experiments.runner import chunk_size, copy_spec, hold, replays, run_spec
    from simkit.experiments.spec import load_spec
    from simkit.reports import tables
    from simkit.reports.answer import answer
    from simkit.reports.report import make_report

    options.load_files(strategy_files)
    spec = load_spec(spec_file)
    if hands is not None:
        check_count(hands, "--hands")
    check_dask(workers, scheduler)
    _set_threads(threads)
    out = out or os.path.join("runs", spec.name)
    unit = games.get(spec.game).unit(spec.match["mode"])
    count = hands or spec.hands
    options.check_run_size(count, chunk_size(spec), "--hands" if hands else f"{spec_file}: key 'hands'", unit)
    if rows:  # the rows are read back whole at the end
        per_deal = sum(c.rotations(spec.seating) * c.players for c in spec.cells())
        options.check_memory(count * per_deal, "--rows:", "rows", options.BYTES_PER_ROW)
    total = count * replays(spec)  # every deal of the plan, in every cell and rotation
    with hold(out), _progress(total, unit[:-1]) as bar:  # the folder is this run's until its report is written
        def resumed(done: int, chunks: int, played: int) -> None:
            if done:
                click.echo(f"resuming {out}: {done} of {chunks} chunks already done", err=True)
                bar.n = bar.initial = played  # counted as done, not in the rate
                bar.refresh()

        try:
            results = run_spec(spec, out, resume=resume, hands=hands, progress=bar.update, workers=workers,
                               scheduler=scheduler, strategy_files=strategy_files, keep_rows=rows,
                               resumed=resumed)
        except KeyboardInterrupt:
            bar.close()
            _interrupted(spec, spec_file, out, hands)
        copy_spec(spec_file, out)
        report = make_report(out, str(spec.baseline))
    means = tables.strategy_means(results.stats)
    shown = pd.DataFrame({"cell": means["cell"], "players": means["players"], "strategy": means["strategy"],
                          tables.measure_title(results.stats):
                              [notation.value(m, h, tables.is_share(results.stats))
                               for m, h in zip(means["mean"], means["ci95"])],
                          "n": [f"{n:,}" for n in means["n"]]}).set_index(["cell", "players", "strategy"])
    played = tables.played(results.stats)
    kept = f"; rows in {out}/results.parquet" if rows else ""
    click.echo(f"{spec.name}: {played:,} {unit} played, statistics in {out}/stats.parquet{kept} "
               "(± = 95% interval)")
    click.echo(shown.to_string())
    click.echo(f"report: {report}")
    click.echo(answer(results.stats, str(spec.baseline)))


def _interrupted(spec, spec_file: str, out: str, hands: int | None) -> None:
    """Ctrl-C in a run: say what is kept and how to finish it, then exit 130."""
    from simkit.experiments.runner import kept_chunks

    done, chunks = kept_chunks(spec, out, hands)
    again = f"simkit run {spec_file} --out {out}" + (f" --hands {hands}" if hands else "") + " --resume"
    click.echo(f"simkit: interrupted; {done} of {chunks} chunks are kept in {out}/chunks; finish the run with: "
               f"{again}", err=True)
    sys.exit(130)


@cli.command(short_help="Find the best setting of a strategy: race candidates on shared deals.")
@click.argument("spec_file", type=str)
@click.option("--out", "out", type=str, default=None, help="Folder for the tuning (default: runs/<name>).")
@click.option("--budget", type=int, default=None, help="Hands the race may play in all, overriding the spec.")
@click.option("--resume", is_flag=True, help="Finish an interrupted tuning in --out from its last round.")
@dask_opts
@click.option("--threads", type=int, default=None, help="Engine threads in this process (default: all cores).")
@strategy_file_opt
def tune(spec_file, out, budget, resume, workers, scheduler, threads, strategy_files):
    """Race a strategy's settings (a template and its space, TOML) on shared deals, drop the
    decisively worse after each round, and confirm the winner on fresh deals."""
    from simkit.tune.run import confirm_hands, run_tuning
    from simkit.tune.spec import load_tuning
    from simkit.tune.summary import summary

    spec, out, unit = _long_run(load_tuning, spec_file, out, strategy_files, (budget, "--budget"), workers,
                                scheduler, threads)
    with _progress((budget or spec.budget) + confirm_hands(spec), unit[:-1]) as bar:
        folder = _interruptible(
            bar, lambda: run_tuning(spec, out, budget, resume, progress=bar.update,
                                    told=lambda line: bar.write(line, file=sys.stderr), workers=workers,
                                    scheduler=scheduler, strategy_files=strategy_files),
            os.path.join(out, "tune.json"), f"the rounds finished are kept in {out}", "tuning",
            f"simkit tune {spec_file} --out {out}" + (f" --budget {budget}" if budget else ""))
    _finished(spec_file, folder, summary(folder))


def _long_run(load, spec_file: str, out: str | None, strategy_files, count: tuple, workers, scheduler,
              threads) -> tuple:
    """A tuning's or a field's spec loaded and its options checked, before anything is written:
    (the spec, its folder, what it counts)."""
    options.load_files(strategy_files)
    spec = load(spec_file)
    if count[0] is not None:
        check_count(*count)
    check_dask(workers, scheduler)
    _set_threads(threads)
    return spec, out or os.path.join("runs", spec.name), spec.game.unit(spec.table.match["mode"])


def _interruptible(bar, play, record: str, kept: str, what: str, again: str):
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


def _finished(spec_file: str, folder, summary: str) -> None:
    """The spec kept beside its results, what was found, and where the report is."""
    from simkit.experiments.runner import copy_spec

    copy_spec(spec_file, folder)
    click.echo(summary)
    click.echo(f"report: {folder / 'report.html'}")


@cli.command(short_help="What wins when everyone adapts: the equilibria of a pool of strategies.")
@click.argument("spec_file", type=str)
@click.option("--out", "out", type=str, default=None, help="Folder for the field (default: runs/<name>).")
@click.option("--hands", "-H", type=int, default=None, help="Deals per profile, overriding the spec.")
@click.option("--resume", is_flag=True, help="Finish an interrupted field in --out (a finished one: analysed again).")
@dask_opts
@click.option("--threads", type=int, default=None, help="Engine threads in this process (default: all cores).")
@strategy_file_opt
def field(spec_file, out, hands, resume, workers, scheduler, threads, strategy_files):
    """Play every profile of a pool of strategies (TOML) on shared deals, then find the mixes no
    player wants to leave (symmetric equilibria), each strategy's regret against them, and their
    robustness on resampled deals."""
    from simkit.field.run import run_field, total_hands
    from simkit.field.spec import load_field
    from simkit.field.summary import summary

    spec, out, unit = _long_run(load_field, spec_file, out, strategy_files, (hands, "--hands"), workers, scheduler,
                                threads)
    with _progress(total_hands(spec, hands), unit[:-1]) as bar:
        folder = _interruptible(
            bar, lambda: run_field(spec, out, hands, resume, progress=bar.update, workers=workers,
                                   scheduler=scheduler, strategy_files=strategy_files),
            os.path.join(out, "field.json"), f"the profiles played are kept in {out}", "field",
            f"simkit field {spec_file} --out {out}" + (f" --hands {hands}" if hands else ""))
    _finished(spec_file, folder, summary(folder))


@cli.command(short_help="Write a run's report (Markdown and HTML).")
@click.argument("folder", type=str)
@click.option("--baseline", type=str, default=None, help="Strategy for paired differences (default: the spec's).")
def report(folder, baseline):
    """Write report.md and report.html (with figures) for a run's folder."""
    from simkit.reports.report import make_report

    click.echo(f"report: {make_report(folder, baseline)}")


@cli.command("strategies", short_help="List the strategies and their parameters.")
@game_opt
@strategy_file_opt
def list_strategies(game, strategy_files):
    """List the strategies with their parameters (Ezelen: and the model values a strategy brings)."""
    from simkit import registry

    games.get(game)
    options.load_files(strategy_files)
    for info in registry.available(game):
        shown = ", ".join(f"{p.name}={p.default:g}" for p in info.params)
        click.echo(f"{info.name}{f'({shown})' if shown else ''}")
        click.echo(f"    {info.description}")
        for p in info.params:
            click.echo(f"    {p.name}: {p.low:g}..{p.high:g}, default {p.default:g}; {p.description}")
        if info.model:
            click.echo(f"    model: {', '.join(f'{name}={value:g}' for name, value in info.model)}")


@cli.command(short_help="Measure the engines and the runner (per second).")
@click.option("--game", "names", multiple=True, default=games.names(), show_default=True,
              help="The game to measure (repeatable; default: every one).")
@click.option("--hands", "-H", type=int, default=1_000_000, show_default=True,
              help="Hands (Ezelen: rounds) per measurement of the fast engine.")
@click.option("--reference-hands", type=int, default=None,
              help="Hands (rounds) for the plain-Python reference engine (0: skip it; default: "
                   f"{_each_game(lambda g: f'{g.reference_deals:,}')}).")
@click.option("--players", "player_list", type=str, default=None,
              help=f"Player counts to measure, e.g. 4,8 (default: {_each_game(lambda g: g.bench_players)}).")
@click.option("--strategy-hands", type=int, default=200_000, show_default=True,
              help="Hands per measurement of each strategy, where the game has that table (0: skip it).")
@click.option("--runner-spec", "runner_specs", type=str, multiple=True,
              help="Spec whose hands measure the runner's overhead over the engine (repeatable; default: "
                   "experiments/quick.toml when Who's the Ass? is measured).")
@click.option("--runner-hands", type=int, default=1_000_000, show_default=True,
              help="Hands (or rounds, matches) for the runner's overhead, whole deals each played in every cell "
                   "and rotation (0: skip it).")
@click.option("--runner-only", is_flag=True, help="Measure only the runner's overhead (no engine tables).")
@click.option("--vs-c", "vs_c", type=str, default=None,
              help="Only this: all-lowest Who's the Ass? against a hand-written C engine built from this C file "
                   "(whos_the_ass_lowest.c), one thread each, side by side.")
@click.option("--dask-workers", type=str, default="", show_default=True,
              help="Also time the run on local Dask clusters of these sizes, e.g. 1,2.")
@strategy_file_opt
def bench(names, hands, reference_hands, player_list, strategy_hands, runner_specs, runner_hands, runner_only,
          vs_c, dask_workers, strategy_files):
    """Hands (Ezelen: rounds) per second of each game's fast engine on 1 thread and all threads and of its
    reference engine; of every strategy against all-lowest; and the experiment runner's overhead over
    the engine."""
    if vs_c is not None:
        from simkit.whos_the_ass.versus_c import versus_c

        wta = games.get(games.DEFAULT)
        versus_c(vs_c, options.player_counts("--players", player_list or "3,4,8,12", wta),
                 check_count(hands, "--hands"), echo=click.echo)
        return
    measured = [games.get(name) for name in names]
    counts = {g.name: options.player_counts("--players", player_list or g.bench_players, g) for g in measured}
    check_count(hands, "--hands")
    most = max((n for c in counts.values() for n in c), default=1)
    options.check_deals_in_memory(hands, most, "--hands", "deals")
    if strategy_hands:
        options.check_deals_in_memory(check_count(strategy_hands, "--strategy-hands", least=0), most,
                                      "--strategy-hands", "deals")
    for value, option in ((reference_hands, "--reference-hands"), (strategy_hands, "--strategy-hands"),
                          (runner_hands, "--runner-hands")):
        if value is not None:
            check_count(value, option, least=0)
    try:
        sizes = tuple(int(k) for k in dask_workers.split(",") if k.strip())
    except ValueError:
        raise SimkitError(f"--dask-workers takes numbers separated by commas, got {dask_workers!r}") from None
    for k in sizes:
        check_count(k, "--dask-workers")
    specs = []
    if runner_hands:
        from simkit.experiments.spec import load_spec

        if not runner_specs and games.DEFAULT in names:
            runner_specs = ("experiments/quick.toml",)
        specs = [load_spec(path) for path in runner_specs]
    elif runner_only:
        raise SimkitError("--runner-only needs --runner-hands above 0")
    options.load_files(strategy_files)
    parts = []
    for game in [] if runner_only else measured:
        reference = game.reference_deals if reference_hands is None else reference_hands
        parts.append(lambda game=game, reference=reference: _bench_game(game, counts[game.name], hands, reference,
                                                                        strategy_hands))
    for spec in specs:
        from simkit.experiments.bench import runner_bench

        parts.append(lambda spec=spec: runner_bench(spec, runner_hands, echo=click.echo, dask_workers=sizes))
    for i, part in enumerate(parts):
        if i:
            click.echo("")
        part()


def _bench_game(game: Game, counts: list[int], deals: int, reference: int, strategy_deals: int) -> None:
    """A game's engine tables; its import (which compiles the engine or loads it) timed apart."""
    import importlib

    start = time.perf_counter()
    module = importlib.import_module(game.bench)
    load = time.perf_counter() - start
    module.run_bench(counts, deals, reference, echo=click.echo, load_seconds=load)
    if strategy_deals and hasattr(module, "strategy_bench"):
        click.echo("")
        module.strategy_bench(strategy_deals, echo=click.echo)


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
    except MemoryError as e:  # an allocation beyond the checks' estimates (simkit.options.check_memory)
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


if __name__ == "__main__":
    main()
