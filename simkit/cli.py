"""The `simkit` command: parses, composes, prints. Bad input is one line and exit code 2."""

import os
import sys
import tempfile
import time
from pathlib import Path

import click
import numba as nb
import pandas as pd

from simkit.errors import SimkitError

GAMES = ["whos-the-ass"]
EXIT_BAD_INPUT = 2


def _seats(strategies: str, players: int):
    from simkit.registry import split_specs
    from simkit.whos_the_ass.rules import check_players
    from simkit.whos_the_ass.strategy import seats_for

    check_players(players)
    return seats_for(split_specs(strategies), players)


def _set_threads(threads: int | None) -> int:
    if threads is not None:
        if not 1 <= threads <= nb.config.NUMBA_NUM_THREADS:
            raise SimkitError(f"--threads must be 1..{nb.config.NUMBA_NUM_THREADS}, got {threads}")
        nb.set_num_threads(threads)
    return nb.get_num_threads()


def _rules(ass_joker: str | None, pairs: tuple[str, ...] = ()) -> dict:
    """Rule options from --rule name=value (any number) and the --ass-joker shorthand."""
    from simkit.whos_the_ass.rules import check_rules

    rules = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq or not name.strip():
            raise SimkitError(f"--rule needs name=value, got {pair!r}")
        rules[name.strip()] = value.strip()
    if ass_joker is not None:
        rules["ass_joker"] = ass_joker
    return check_rules(rules)


def _writable_temp(path: str):
    """A temporary file beside `path`, renamed over it only when complete (never half a file)."""
    target = Path(path)
    if target.is_dir():
        raise SimkitError(f"cannot write {path}: it is a directory")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise SimkitError(f"cannot write {path}: folder {parent} does not exist")
    try:
        return tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=parent, prefix=f".{target.name}.",
                                           suffix=".part", delete=False)
    except OSError as e:
        raise SimkitError(f"cannot write {path}: {e.strerror}") from None


players_opt = click.option("--players", "-n", type=int, required=True, help="Number of players (3..12).")
seed_opt = click.option("--seed", "-s", type=str, default="0", show_default=True,
                        help="Run seed, 0..2**64-1: hand i draws only from (seed, i).")
strategies_opt = click.option("--strategies", type=str, default="lowest", show_default=True,
                              help="One strategy per seat, comma-separated, or one for all, e.g. lowest,random.")
ass_joker_opt = click.option("--ass-joker", type=str, default=None,
                             help="Rule option W13: 1or14 (default), 1 or any.")
rule_opt = click.option("--rule", "rule_pairs", multiple=True, metavar="NAME=VALUE",
                        help="Set a rule option, e.g. --rule ass_joker=any (repeatable).")
game_opt = click.option("--game", type=str, default="whos-the-ass", show_default=True, help="The game.")
threads_opt = click.option("--threads", type=int, default=None, help="Threads (default: all cores).")
strategy_file_opt = click.option("--strategy-file", "strategy_files", multiple=True, metavar="FILE.py",
                                 help="Load your own strategies from a Python file (repeatable).")


def _load_files(files: tuple[str, ...]) -> None:
    from simkit.plugins import load_strategy_file

    for f in files:
        load_strategy_file(f)


def _seed(text: str) -> int:
    from simkit.rng import check_seed

    try:
        value = int(text, 16) if text.lower().startswith("0x") else int(text)
    except ValueError:
        raise SimkitError(f"seed must be an integer from 0 to 2**64-1, got {text!r}") from None
    return check_seed(value)


def _game(game: str) -> None:
    if game not in GAMES:
        raise SimkitError(f"unknown game {game!r} (known: {', '.join(GAMES)})")


def _hands(hands: int) -> int:
    if hands <= 0:
        raise SimkitError(f"--hands must be positive, got {hands}")
    return hands


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="simkit")
def cli():
    """Monte Carlo strategy analysis for Who's the Ass? (and soon Ezelen)."""


@cli.command()
@game_opt
@players_opt
@click.option("--hands", "-H", type=int, default=100_000, show_default=True, help="Hands to play.")
@seed_opt
@strategies_opt
@ass_joker_opt
@rule_opt
@threads_opt
@strategy_file_opt
@click.option("--chunks", type=int, default=None,
              help="Progress updates (default: one per 100,000 hands, at most 100; no effect on results).")
def simulate(game, players, hands, seed, strategies, ass_joker, rule_pairs, threads, strategy_files, chunks):
    """Play many hands on all cores and print per-seat results with 95% intervals."""
    from tqdm import tqdm

    from reports.stats import mean_ci, wilson
    from simkit.whos_the_ass import batch

    _game(game)
    _load_files(strategy_files)
    seats = _seats(strategies, players)
    rules, seed, hands = _rules(ass_joker, rule_pairs), _seed(seed), _hands(hands)
    nthreads = _set_threads(threads)
    batch.play(seats, 1, seed, rules)  # compile or load from cache outside the timing
    with tqdm(total=hands, unit="hand", unit_scale=True, file=sys.stderr, leave=False,
              disable=None) as bar:
        start = time.perf_counter()
        chunks = chunks or min(100, max(1, hands // 100_000))
        res = batch.play(seats, hands, seed, rules, chunks=max(1, chunks), progress=bar.update)
        elapsed = time.perf_counter() - start
    rows = []
    for s, seat in enumerate(seats):
        mean, half = mean_ci(res.penalties[:, s])
        out, out_lo, out_hi = wilson(int((res.penalties[:, s] == 0).sum()), hands)
        ass, ass_lo, ass_hi = wilson(int((res.ass_end == s).sum()), hands)
        rows.append({"seat": s, "strategy": seat.label, "mean penalty": f"{mean:.3f} ± {half:.3f}",
                     "out %": f"{100 * out:.2f} [{100 * out_lo:.2f}, {100 * out_hi:.2f}]",
                     "ass at end %": f"{100 * ass:.2f} [{100 * ass_lo:.2f}, {100 * ass_hi:.2f}]"})
    table = pd.DataFrame(rows).set_index("seat")
    tricks, tricks_half = mean_ci(res.tricks)
    click.echo(f"Who's the Ass? - {players} players, {hands:,} hands, seed {seed}, "
               f"ass_joker={rules['ass_joker']} (± and [ ] are 95% intervals, n = {hands:,} hands)")
    click.echo(table.to_string())
    click.echo(f"mean tricks per hand: {tricks:.3f} ± {tricks_half:.3f}")
    click.echo(f"speed: {hands / elapsed:,.0f} hands/s ({elapsed:.2f} s on {nthreads} threads)")


@cli.command()
@game_opt
@players_opt
@click.option("--hands", "-H", type=int, default=1, show_default=True, help="Hands to trace.")
@seed_opt
@strategies_opt
@ass_joker_opt
@rule_opt
@strategy_file_opt
@click.option("-o", "--output", type=str, required=True, help="The JSON Lines file to write.")
def trace(game, players, hands, seed, strategies, ass_joker, rule_pairs, strategy_files, output):
    """Write hands move by move as JSON Lines (shared/spec/traces.md)."""
    from simkit.whos_the_ass import batch
    from simkit.whos_the_ass.trace import to_line

    _game(game)
    _load_files(strategy_files)
    seats = _seats(strategies, players)
    rules, seed, hands = _rules(ass_joker, rule_pairs), _seed(seed), _hands(hands)
    tmp = _writable_temp(output)
    try:
        with tmp:
            for record in batch.traces(seats, hands, seed, rules):
                tmp.write(to_line(record) + "\n")
        os.replace(tmp.name, output)
    finally:
        if os.path.exists(tmp.name):
            os.unlink(tmp.name)
    click.echo(f"wrote {hands:,} hands to {output}")


@cli.command()
@click.argument("file", type=str)
@click.option("--hand", "-k", "hand", type=int, default=None, help="The hand number to show (default: the first).")
def show(file, hand):
    """Print one traced hand trick by trick (A = the ass, J = joker)."""
    from simkit.whos_the_ass.trace import read_traces, show_hand

    if not os.path.isfile(file):
        raise SimkitError(f"no trace file {file}")
    try:
        for record in read_traces(file):
            if hand is None or record.get("hand") == hand:
                click.echo(show_hand(record))
                return
    except (ValueError, KeyError, TypeError) as e:
        raise SimkitError(f"{file} is not a valid trace file ({type(e).__name__}: {e})") from None
    raise SimkitError(f"hand {hand} is not in {file}")


@cli.command()
@click.argument("file", type=str)
def check(file):
    """Replay every hand of a trace file through the reference engine and check it move by move."""
    from simkit.whos_the_ass.check import check_file

    if not os.path.isfile(file):
        raise SimkitError(f"no trace file {file}")
    n = check_file(file)
    click.echo(f"{file}: {n:,} hands follow the rules and the trace format")


@cli.command()
@players_opt
@click.option("--hands", "-H", type=int, default=1_000_000, show_default=True, help="Hands per strategy.")
@seed_opt
@click.option("--strategies", type=str, default=None,
              help="Strategies to rate (default: every registered one but lowest, at its defaults).")
@ass_joker_opt
@rule_opt
@strategy_file_opt
@click.option("--markdown", is_flag=True, help="Print a Markdown table (for docs).")
def strength(players, hands, seed, strategies, ass_joker, rule_pairs, strategy_files, markdown):
    """Rate strategies: each in one seat against lowest, paired with all-lowest on the same deals."""
    from tqdm import tqdm

    from experiments.strength import BASELINE, strength_table
    from reports import tables
    from simkit import registry
    from simkit.registry import split_specs
    from simkit.whos_the_ass.rules import GAME, check_players

    _load_files(strategy_files)
    check_players(players)
    rules, seed, hands = _rules(ass_joker, rule_pairs), _seed(seed), _hands(hands)
    if hands < players:
        raise SimkitError(f"--hands must be at least the number of players ({players}), got {hands}")
    if strategies:
        candidates = split_specs(strategies)
    else:
        candidates = [i.name + ("()" if i.composer else "") for i in registry.available(GAME) if i.name != BASELINE]
    for spec in candidates:
        registry.resolve(GAME, spec)  # every name checked before anything runs
    start = time.perf_counter()
    with tqdm(total=hands * (len(candidates) + 1), unit="hand", unit_scale=True, file=sys.stderr,
              leave=False, disable=None) as bar:
        table = strength_table(candidates, players, hands, seed, rules, progress=bar.update)
    elapsed = time.perf_counter() - start
    click.echo(f"Strength at {players} players: each strategy in one seat (rotated) against {BASELINE}, "
               f"{hands:,} hands each, seed {seed}, ass_joker={rules['ass_joker']}; 'vs lowest' is the paired "
               "difference in mean penalty per hand to lowest in the same seat on the same deals "
               "(negative = better), ± the 95% interval")
    shown = pd.DataFrame({
        "mean penalty": [f"{m:.3f} ± {h:.3f}" for m, h in zip(table["mean penalty"], table["±"])],
        "vs lowest": [f"{d:+.3f} ± {h:.3f}" for d, h in zip(table["vs lowest"], table["± "])],
        "decisive": table["decisive"].map({True: "yes", False: "no"}),
        "n": [f"{n:,}" for n in table["n"]],
    }, index=table.index)
    click.echo(tables.markdown(shown.reset_index()) if markdown else shown.to_string())
    click.echo(f"({hands * (len(candidates) + 1):,} hands in {elapsed:.1f} s)")


@cli.command()
@click.argument("spec_file", type=str)
@click.option("--out", "out", type=str, default=None, help="Folder for the results (default: runs/<name>).")
@click.option("--hands", "-H", type=int, default=None, help="Hands per cell, overriding the spec.")
@click.option("--resume", is_flag=True, help="Finish an interrupted run in --out without recomputing.")
@click.option("--workers", type=int, default=None, help="Run the chunks on a local Dask cluster of K processes.")
@click.option("--scheduler", type=str, default=None, help="Run the chunks on an existing Dask cluster (tcp://host:8786).")
@click.option("--threads", type=int, default=None, help="Engine threads in this process (default: all cores).")
@strategy_file_opt
def run(spec_file, out, hands, resume, workers, scheduler, threads, strategy_files):
    """Run an experiment spec (TOML): results.parquet, spec.toml, meta.json and the report in --out."""
    from tqdm import tqdm

    from experiments.runner import copy_spec, run_spec
    from experiments.spec import load_spec
    from reports import tables

    _load_files(strategy_files)
    spec = load_spec(spec_file)
    if hands is not None:
        _hands(hands)
    if workers is not None and scheduler is not None:
        raise SimkitError("give --workers (a local Dask cluster) or --scheduler (an existing one), not both")
    _set_threads(threads)
    out = out or os.path.join("runs", spec.name)
    total = (hands or spec.hands) * sum(c.players if spec.seating == "rotate" else 1 for c in spec.cells())
    with tqdm(total=total, unit="hand", unit_scale=True, file=sys.stderr, leave=False, disable=None) as bar:
        table = run_spec(spec, out, resume=resume, hands=hands, progress=bar.update, workers=workers,
                         scheduler=scheduler, strategy_files=strategy_files)
    copy_spec(spec_file, out)
    from reports.report import make_report

    report = make_report(out, spec.baseline)
    value = "penalty" if spec.match["mode"] == "single" else "total"
    means = tables.strategy_means(table, value)
    shown = pd.DataFrame({"cell": means["cell"], "players": means["players"], "strategy": means["strategy"],
                          f"mean {value}": [f"{m:.3f} ± {h:.3f}" for m, h in zip(means["mean"], means["ci95"])],
                          "n": [f"{n:,}" for n in means["n"]]}).set_index(["cell", "players", "strategy"])
    click.echo(f"{spec.name}: {len(table):,} rows in {out}/results.parquet (± = 95% interval)")
    click.echo(shown.to_string())
    click.echo(f"report: {report}")


@cli.command()
@click.argument("folder", type=str)
@click.option("--baseline", type=str, default=None, help="Strategy for paired differences (default: the spec's).")
def report(folder, baseline):
    """Write report.md and report.html (with figures) for a run's folder."""
    from reports.report import make_report

    click.echo(f"report: {make_report(folder, baseline)}")


@cli.command("strategies")
@game_opt
@strategy_file_opt
def list_strategies(game, strategy_files):
    """List the strategies with their parameters."""
    from simkit import registry

    _game(game)
    _load_files(strategy_files)
    for info in registry.available(game):
        shown = ", ".join(f"{p.name}={p.default:g}" for p in info.params)
        click.echo(f"{info.name}{f'({shown})' if shown else ''}")
        click.echo(f"    {info.description}")
        for p in info.params:
            click.echo(f"    {p.name}: {p.low:g}..{p.high:g}, default {p.default:g}; {p.description}")


@cli.command()
@click.option("--hands", "-H", type=int, default=1_000_000, show_default=True,
              help="Hands per measurement of the fast engine.")
@click.option("--reference-hands", type=int, default=300, show_default=True,
              help="Hands for the reference engine (plain Python, slow).")
@click.option("--players", "player_list", type=str, default="3,4,6,8,12", show_default=True,
              help="Player counts to measure.")
@click.option("--strategy-hands", type=int, default=200_000, show_default=True,
              help="Hands per measurement of each strategy (0: skip that table).")
@click.option("--runner-spec", type=str, default="experiments/quick.toml", show_default=True,
              help="Spec whose hands measure the runner's overhead over the engine.")
@click.option("--runner-hands", type=int, default=250_000, show_default=True,
              help="Deals per cell and rotation for the runner's overhead (0: skip it).")
@strategy_file_opt
def bench(hands, reference_hands, player_list, strategy_hands, runner_spec, runner_hands, strategy_files):
    """Hands/s of the fast engine (1 thread and all threads) and of the reference engine, of every
    strategy against all-lowest, and the experiment runner's overhead over the engine."""
    from simkit.whos_the_ass.rules import check_players

    start = time.perf_counter()
    from simkit.whos_the_ass.bench import run_bench, strategy_bench  # compiles the engine, or loads it

    load = time.perf_counter() - start
    _load_files(strategy_files)
    try:
        counts = [int(x) for x in player_list.split(",")]
    except ValueError:
        raise SimkitError(f"--players must be a comma-separated list of numbers, got {player_list!r}") from None
    for n in counts:
        check_players(n)
    if strategy_hands < 0 or runner_hands < 0:
        raise SimkitError("--strategy-hands and --runner-hands must be 0 or more")
    spec = None
    if runner_hands:
        from experiments.spec import load_spec

        spec = load_spec(runner_spec)
    run_bench(counts, _hands(hands), _hands(reference_hands), echo=click.echo, load_seconds=load)
    if strategy_hands:
        click.echo("")
        strategy_bench(strategy_hands, echo=click.echo)
    if spec is not None:
        from experiments.bench import runner_bench

        click.echo("")
        runner_bench(spec, runner_hands, echo=click.echo)


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


if __name__ == "__main__":
    main()
