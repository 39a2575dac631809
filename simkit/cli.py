"""The `simkit` command: parses, composes, prints. Bad input is one line and exit code 2."""

import importlib
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from itertools import islice

import click
import numba as nb
import numpy as np
import pandas as pd

from simkit.errors import SimkitError

WHOS_THE_ASS, EZELEN = "whos-the-ass", "ezelen"
GAMES = [WHOS_THE_ASS, EZELEN]
TITLE = {WHOS_THE_ASS: "Who's the Ass?", EZELEN: "Ezelen"}
DEAL = {WHOS_THE_ASS: "hand", EZELEN: "round"}  # what one trace record (and one --hands) is
DEFAULT_STRATEGY = {WHOS_THE_ASS: "lowest", EZELEN: "greedy"}
EXIT_BAD_INPUT = 2


def _of(game: str, module: str):
    """A module of a game's package: both have rules, strategy, batch, trace, check, bench."""
    return importlib.import_module(f"simkit.{game.replace('-', '_')}.{module}")


def _seats(game: str, strategies: str | None, players: int):
    from simkit.registry import split_specs

    _of(game, "rules").check_players(players)
    return _of(game, "strategy").seats_for(split_specs(strategies or DEFAULT_STRATEGY[game]), players)


def _set_threads(threads: int | None) -> int:
    if threads is not None:
        if not 1 <= threads <= nb.config.NUMBA_NUM_THREADS:
            raise SimkitError(f"--threads must be 1..{nb.config.NUMBA_NUM_THREADS}, got {threads}")
        nb.set_num_threads(threads)
    return nb.get_num_threads()


def _pair(option: str, text: str) -> tuple[str, str]:
    name, eq, value = text.partition("=")
    if not eq or not name.strip():
        raise SimkitError(f"{option} needs name=value, got {text!r}")
    return name.strip(), value.strip()


def _number(text: str) -> int | float | str:
    """A number if the text is one (Ezelen's rule and model values), else the text itself."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _rules(game: str, ass_joker: str | None, pairs: tuple[str, ...] = ()) -> dict:
    """Rule options from --rule name=value (any number) and the --ass-joker shorthand."""
    rules = {}
    for pair in pairs:
        name, value = _pair("--rule", pair)
        rules[name] = value if game == WHOS_THE_ASS else _number(value)
    if ass_joker is not None:
        if game != WHOS_THE_ASS:
            raise SimkitError(f"--ass-joker is a rule of Who's the Ass? (W13); {TITLE[game]} has no such rule")
        rules["ass_joker"] = ass_joker
    return _of(game, "rules").check_rules(rules)


def _model(game: str, pairs: tuple[str, ...], players: int) -> dict:
    """Ezelen's model values (M8) from --model name=value: a number for every seat, or one per
    seat, comma-separated."""
    if not pairs:
        return {}
    if game != EZELEN:
        raise SimkitError(f"--model sets Ezelen's model of the players (M2-M4, M8); {TITLE[game]} has none")
    from simkit.ezelen.model import check_values

    values = {}
    for pair in pairs:
        name, text = _pair("--model", pair)
        numbers = [_number(x.strip()) for x in text.split(",")]
        if any(isinstance(x, str) for x in numbers):
            raise SimkitError(f"--model {name} needs a number, or one number per seat separated by commas, "
                              f"got {text!r}")
        values[name] = numbers if len(numbers) > 1 else numbers[0]
    return check_values(values, players, "--model")


def _progress(total: int, unit: str):
    """A progress bar on stderr (hidden when stderr is not a terminal)."""
    from tqdm import tqdm

    return tqdm(total=total, unit=unit, unit_scale=True, file=sys.stderr, leave=False, disable=None)


def _timed(warm: Callable[[], object], play: Callable[[Callable[[int], None]], object], total: int, unit: str
           ) -> tuple[object, float]:
    """Compile or load the engine (`warm`) outside the timing, then `play(progress)` under a
    progress bar; (its result, seconds)."""
    warm()
    with _progress(total, unit) as bar:
        start = time.perf_counter()
        result = play(bar.update)
        return result, time.perf_counter() - start


def _share(k: int, n: int) -> str:
    """k of n as a percentage with its Wilson 95% interval."""
    from simkit.reports.stats import wilson

    p, lo, hi = wilson(int(k), n)
    return f"{100 * p:.2f} [{100 * lo:.2f}, {100 * hi:.2f}]"


def _mean(x: np.ndarray) -> str:
    """The mean ± the half-width of its 95% interval."""
    from simkit.reports.stats import mean_ci

    mean, half = mean_ci(x)
    return f"{mean:.3f} ± {half:.3f}"


players_opt = click.option("--players", "-n", type=int, required=True,
                           help="Number of players (Who's the Ass? 3..12, Ezelen 2..13).")
seed_opt = click.option("--seed", "-s", type=str, default="0", show_default=True,
                        help="Run seed, 0..2**64-1: hand i draws only from (seed, i).")
strategies_opt = click.option("--strategies", type=str, default=None,
                              help="One strategy per seat, comma-separated, or one for all, e.g. lowest,random "
                                   "(default: lowest; Ezelen: greedy).")
ass_joker_opt = click.option("--ass-joker", type=str, default=None,
                             help="Who's the Ass? rule option W13: 1or14 (default), 1 or any.")
rule_opt = click.option("--rule", "rule_pairs", multiple=True, metavar="NAME=VALUE",
                        help="Set a rule option, e.g. --rule ass_joker=any or (Ezelen) --rule beat=2.5 (repeatable).")
model_opt = click.option("--model", "model_pairs", multiple=True, metavar="NAME=VALUE",
                         help="Ezelen: set a model value (M2-M4) for every seat, or one per seat, e.g. "
                              "--model attention=1,1,0.6,1 (repeatable).")
game_opt = click.option("--game", type=str, default=WHOS_THE_ASS, show_default=True,
                        help=f"The game: {', '.join(GAMES)}.")
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


def _hands(hands: int, option: str = "--hands") -> int:
    if hands <= 0:
        raise SimkitError(f"{option} must be positive, got {hands}")
    return hands


@dataclass(frozen=True)
class _Play:
    """What `simulate` and `trace` were asked to play, checked."""

    game: str
    seats: list
    rules: dict
    model: dict
    seed: int
    count: int  # hands, rounds or matches


def _play_options(game, players, hands, seed, strategies, ass_joker, rule_pairs, model_pairs, strategy_files) -> _Play:
    _game(game)
    _load_files(strategy_files)
    seats = _seats(game, strategies, players)
    return _Play(game, seats, _rules(game, ass_joker, rule_pairs), _model(game, model_pairs, players), _seed(seed),
                 _hands(hands))


def _title(run: _Play, unit: str) -> str:
    """The first line of a table: the game, what was played, every option in force."""
    from simkit.ezelen.show import format_value

    options = [f"{k}={v}" for k, v in run.rules.items()] + [f"{k}={format_value(v)}" for k, v in run.model.items()]
    return (f"{TITLE[run.game]} - {len(run.seats)} players, {run.count:,} {unit}, seed {run.seed}, "
            f"{', '.join(options)} (± and [ ] are 95% intervals, n = {run.count:,} {unit})")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="simkit")
def cli():
    """Monte Carlo strategy analysis for Who's the Ass? and Ezelen."""


@cli.command()
@game_opt
@players_opt
@click.option("--hands", "-H", type=int, default=100_000, show_default=True,
              help="Hands to play (Ezelen: rounds, or matches with --matches).")
@seed_opt
@strategies_opt
@ass_joker_opt
@rule_opt
@model_opt
@click.option("--matches", is_flag=True, help="Ezelen: play whole matches (until a player spells E-Z-E-L, Z7).")
@threads_opt
@strategy_file_opt
@click.option("--chunks", type=int, default=None,
              help="Progress updates (default: one per 100,000 hands, at most 100; no effect on results).")
def simulate(game, players, hands, seed, strategies, ass_joker, rule_pairs, model_pairs, matches, threads,
             strategy_files, chunks):
    """Play many hands (Ezelen: rounds or matches) on all cores and print per-seat results with 95% intervals."""
    run = _play_options(game, players, hands, seed, strategies, ass_joker, rule_pairs, model_pairs, strategy_files)
    if matches and game != EZELEN:
        raise SimkitError("--matches plays Ezelen matches; use it with --game ezelen")
    nthreads = _set_threads(threads)
    chunks = max(1, chunks or min(100, max(1, run.count // 100_000)))
    if game == WHOS_THE_ASS:
        speed = _simulate_hands(run, chunks)
    elif matches:
        speed = _simulate_matches(run, chunks)
    else:
        speed = _simulate_rounds(run, chunks)
    click.echo(f"speed: {speed[0]} ({speed[1]:.2f} s on {nthreads} threads)")


def _simulate_hands(run: _Play, chunks: int) -> tuple[str, float]:
    from simkit.whos_the_ass import batch

    res, elapsed = _timed(lambda: batch.play(run.seats, 1, run.seed, run.rules),
                          lambda progress: batch.play(run.seats, run.count, run.seed, run.rules, chunks=chunks,
                                                      progress=progress), run.count, "hand")
    rows = [{"seat": s, "strategy": seat.label, "mean penalty": _mean(res.penalties[:, s]),
             "out %": _share((res.penalties[:, s] == 0).sum(), run.count),
             "ass at end %": _share((res.ass_end == s).sum(), run.count)} for s, seat in enumerate(run.seats)]
    click.echo(_title(run, "hands"))
    click.echo(pd.DataFrame(rows).set_index("seat").to_string())
    click.echo(f"mean tricks per hand: {_mean(res.tricks)}")
    return f"{run.count / elapsed:,.0f} hands/s", elapsed


def _outcomes(counts: np.ndarray, total: int) -> str:
    """Ezelen: how many rounds ended each way (rules.REASONS), with Wilson intervals."""
    from simkit.ezelen.rules import REASONS

    return pd.DataFrame({"rounds": [f"{int(k):,}" for k in counts], "%": [_share(k, total) for k in counts]},
                        index=pd.Index(REASONS, name="outcome")).to_string()


def _simulate_rounds(run: _Play, chunks: int) -> tuple[str, float]:
    """Ezelen: single rounds; per seat the chance of losing the round, then how rounds end."""
    from simkit.ezelen import batch

    res, elapsed = _timed(lambda: batch.play(run.seats, 1, run.seed, run.rules, run.model),
                          lambda progress: batch.play(run.seats, run.count, run.seed, run.rules, run.model,
                                                      chunks=chunks, progress=progress), run.count, "round")
    rows = [{"seat": s, "strategy": seat.label, "lose the round %": _share((res.loser == s).sum(), run.count)}
            for s, seat in enumerate(run.seats)]
    signalled = res.first_signal[res.first_signal >= 0]
    click.echo(_title(run, "rounds"))
    click.echo(pd.DataFrame(rows).set_index("seat").to_string())
    click.echo(_outcomes(np.bincount(res.reason, minlength=4), run.count))
    click.echo(f"mean turns per round: {_mean(res.turns)}")
    click.echo(f"mean turn of the first signal: {_mean(signalled)} (n = {len(signalled):,} rounds with a signal)")
    return f"{run.count / elapsed:,.0f} rounds/s", elapsed


def _simulate_matches(run: _Play, chunks: int) -> tuple[str, float]:
    """Ezelen: whole matches (Z7); per seat the chance of being the donkey and the letters held."""
    from simkit.ezelen import batch

    res, elapsed = _timed(lambda: batch.matches(run.seats, 1, run.seed, run.rules, run.model),
                          lambda progress: batch.matches(run.seats, run.count, run.seed, run.rules, run.model,
                                                         chunks=chunks, progress=progress), run.count, "match")
    rows = [{"seat": s, "strategy": seat.label, "donkey %": _share((res.donkey == s).sum(), run.count),
             "mean letters": _mean(res.letters[:, s])} for s, seat in enumerate(run.seats)]
    rounds = int(res.rounds.sum())
    click.echo(_title(run, "matches"))
    click.echo(pd.DataFrame(rows).set_index("seat").to_string())
    click.echo(f"mean rounds per match: {_mean(res.rounds)}")
    click.echo(f"all {rounds:,} rounds of the matches by outcome:")
    click.echo(_outcomes(res.reasons.sum(axis=0), rounds))
    unfinished = int((res.donkey < 0).sum())
    if unfinished:
        click.echo(f"{unfinished:,} matches had no donkey after {batch.DEFAULT_MAX_ROUNDS:,} rounds")
    return f"{run.count / elapsed:,.0f} matches/s, {rounds / elapsed:,.0f} rounds/s", elapsed


@cli.command()
@game_opt
@players_opt
@click.option("--hands", "-H", type=int, default=1, show_default=True,
              help="Hands to trace (Ezelen: rounds; consecutive rounds form matches).")
@seed_opt
@strategies_opt
@ass_joker_opt
@rule_opt
@model_opt
@strategy_file_opt
@click.option("-o", "--output", type=str, required=True, help="The JSON Lines file to write.")
def trace(game, players, hands, seed, strategies, ass_joker, rule_pairs, model_pairs, strategy_files, output):
    """Write hands (Ezelen: rounds) move by move as JSON Lines (docs/traces.md)."""
    from simkit.traces import write_traces

    run = _play_options(game, players, hands, seed, strategies, ass_joker, rule_pairs, model_pairs, strategy_files)
    batch = _of(game, "batch")
    if game == EZELEN:  # match 0 until its donkey, then match 1 from round 0, ..., H rounds in all
        records = islice(batch.match_traces(run.seats, run.count, run.seed, run.rules, run.model), run.count)
    else:
        records = batch.traces(run.seats, run.count, run.seed, run.rules)
    count, last = write_traces(output, records)
    matches = f" (matches 0..{last['match']})" if game == EZELEN else ""
    click.echo(f"wrote {count:,} {DEAL[game]}s{matches} to {output}")


@cli.command()
@click.argument("file", type=str)
@click.option("--hand", "-k", "hand", type=int, default=None,
              help="The hand to show (Ezelen: the round, counted through the file from 0; default: the first).")
@click.option("--match", "match", type=int, default=None, help="Ezelen: show a round of this match.")
@click.option("--round", "round_no", type=int, default=None, help="Ezelen: the round of --match (default: 0).")
def show(file, hand, match, round_no):
    """Print one traced hand trick by trick (A = the ass, J = joker), or an Ezelen round turn by turn."""
    from simkit.traces import find_record, show_record

    click.echo(show_record(find_record(file, hand, match, round_no)))


@cli.command()
@click.argument("file", type=str)
def check(file):
    """Replay every hand or round of a trace file through the reference engine and check it move by
    move: one line per record with a problem."""
    from simkit.traces import check_file

    counts, problems = check_file(file)
    for problem in problems:
        click.echo(f"simkit: error: {problem}", err=True)
    if problems:
        sys.exit(EXIT_BAD_INPUT)
    held = " and ".join(f"{counts[g]:,} {DEAL[g]}s" for g in GAMES if counts[g]) or "0 hands"
    click.echo(f"{file}: {held} follow the rules and the trace format")


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
    from simkit import registry
    from simkit.experiments.strength import BASELINE, strength_table
    from simkit.registry import split_specs
    from simkit.reports import tables
    from simkit.whos_the_ass.rules import GAME, check_players

    _load_files(strategy_files)
    check_players(players)
    rules, seed, hands = _rules(WHOS_THE_ASS, ass_joker, rule_pairs), _seed(seed), _hands(hands)
    if hands < players:
        raise SimkitError(f"--hands must be at least the number of players ({players}), got {hands}")
    if strategies:
        candidates = split_specs(strategies)
    else:
        candidates = [i.name + ("()" if i.composer else "") for i in registry.available(GAME) if i.name != BASELINE]
    for spec in candidates:
        registry.resolve(GAME, spec)  # every name checked before anything runs
    start = time.perf_counter()
    with _progress(hands * (len(candidates) + 1), "hand") as bar:
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
@click.option("--rows", is_flag=True, help="Also write results.parquet: one row per hand (or match) and seat.")
@strategy_file_opt
def run(spec_file, out, hands, resume, workers, scheduler, threads, rows, strategy_files):
    """Run an experiment spec (TOML): stats.parquet, spec.toml, meta.json and the report in --out."""
    from simkit.experiments.runner import copy_spec, plan, replays, run_spec
    from simkit.experiments.spec import load_spec
    from simkit.reports import tables

    _load_files(strategy_files)
    spec = load_spec(spec_file)
    if hands is not None:
        _hands(hands)
    if workers is not None and scheduler is not None:
        raise SimkitError("give --workers (a local Dask cluster) or --scheduler (an existing one), not both")
    _set_threads(threads)
    out = out or os.path.join("runs", spec.name)
    total = sum(task.hi - task.lo for task in plan(spec, hands)) * replays(spec)
    with _progress(total, DEAL[spec.game]) as bar:
        results = run_spec(spec, out, resume=resume, hands=hands, progress=bar.update, workers=workers,
                           scheduler=scheduler, strategy_files=strategy_files, keep_rows=rows)
    copy_spec(spec_file, out)
    from simkit.reports.report import make_report

    report = make_report(out, spec.baseline)
    value = tables.measure(results.stats)
    means = tables.strategy_means(results.stats)
    shown = pd.DataFrame({"cell": means["cell"], "players": means["players"], "strategy": means["strategy"],
                          "share of rounds lost" if value == "lost" else f"mean {value}":
                              [f"{m:.3f} ± {h:.3f}" for m, h in zip(means["mean"], means["ci95"])],
                          "n": [f"{n:,}" for n in means["n"]]}).set_index(["cell", "players", "strategy"])
    played = sum(c["rotations"] for c in results.stats.layout.cells) * (hands or spec.hands)
    kept = f"; rows in {out}/results.parquet" if rows else ""
    click.echo(f"{spec.name}: {played:,} {DEAL[spec.game]}s played, statistics in {out}/stats.parquet{kept} "
               "(± = 95% interval)")
    click.echo(shown.to_string())
    click.echo(f"report: {report}")


@cli.command()
@click.argument("folder", type=str)
@click.option("--baseline", type=str, default=None, help="Strategy for paired differences (default: the spec's).")
def report(folder, baseline):
    """Write report.md and report.html (with figures) for a run's folder."""
    from simkit.reports.report import make_report

    click.echo(f"report: {make_report(folder, baseline)}")


@cli.command("strategies")
@game_opt
@strategy_file_opt
def list_strategies(game, strategy_files):
    """List the strategies with their parameters (Ezelen: and the model values a strategy brings)."""
    from simkit import registry

    _game(game)
    _load_files(strategy_files)
    for info in registry.available(game):
        shown = ", ".join(f"{p.name}={p.default:g}" for p in info.params)
        click.echo(f"{info.name}{f'({shown})' if shown else ''}")
        click.echo(f"    {info.description}")
        for p in info.params:
            click.echo(f"    {p.name}: {p.low:g}..{p.high:g}, default {p.default:g}; {p.description}")
        if info.model:
            click.echo(f"    model: {', '.join(f'{name}={value:g}' for name, value in info.model)}")


def _player_counts(option: str, text: str, game: str) -> list[int]:
    try:
        counts = [int(x) for x in text.split(",")]
    except ValueError:
        raise SimkitError(f"{option} must be a comma-separated list of numbers, got {text!r}") from None
    for n in counts:
        _of(game, "rules").check_players(n)
    return counts


def _load_bench(game: str) -> tuple[object, float]:
    """A game's bench module, and the seconds its import took (it compiles the engine, or loads it)."""
    start = time.perf_counter()
    module = _of(game, "bench")
    return module, time.perf_counter() - start


@cli.command()
@click.option("--game", "games", multiple=True, default=tuple(GAMES), show_default=True,
              help="The game to measure (repeatable; default: both).")
@click.option("--hands", "-H", type=int, default=1_000_000, show_default=True,
              help="Who's the Ass?: hands per measurement of the fast engine.")
@click.option("--reference-hands", type=int, default=300, show_default=True,
              help="Who's the Ass?: hands for the reference engine (plain Python, slow).")
@click.option("--players", "player_list", type=str, default="3,4,6,8,12", show_default=True,
              help="Who's the Ass?: player counts to measure.")
@click.option("--strategy-hands", type=int, default=200_000, show_default=True,
              help="Who's the Ass?: hands per measurement of each strategy (0: skip that table).")
@click.option("--runner-spec", "runner_specs", type=str, multiple=True,
              help="Spec whose hands measure the runner's overhead over the engine (repeatable; default: "
                   "experiments/quick.toml when Who's the Ass? is measured).")
@click.option("--runner-hands", type=int, default=1_000_000, show_default=True,
              help="Hands (or rounds, matches) for the runner's overhead, whole deals each played in every cell "
                   "and rotation (0: skip it).")
@click.option("--runner-only", is_flag=True, help="Measure only the runner's overhead (no engine tables).")
@click.option("--dask-workers", type=str, default="", show_default=True,
              help="Also time the run on local Dask clusters of these sizes, e.g. 1,2.")
@click.option("--rounds", type=int, default=1_000_000, show_default=True,
              help="Ezelen: rounds per measurement of the fast engine.")
@click.option("--reference-rounds", type=int, default=2_000, show_default=True,
              help="Ezelen: rounds for the reference engine (0: skip it).")
@click.option("--ezelen-players", type=str, default="4,8", show_default=True, help="Ezelen: player counts to measure.")
@strategy_file_opt
def bench(games, hands, reference_hands, player_list, strategy_hands, runner_specs, runner_hands, runner_only,
          dask_workers, rounds, reference_rounds, ezelen_players, strategy_files):
    """Hands/s of the fast engine (1 thread and all threads) and of the reference engine, of every
    strategy against all-lowest, the experiment runner's overhead over the engine; then Ezelen's
    rounds/s and cost per player per round (all-greedy, 1 thread and all threads)."""
    for game in games:
        _game(game)
    counts = _player_counts("--players", player_list, WHOS_THE_ASS)
    ezelen_counts = _player_counts("--ezelen-players", ezelen_players, EZELEN)
    _hands(hands)
    _hands(reference_hands, "--reference-hands")
    _hands(rounds, "--rounds")
    if strategy_hands < 0 or runner_hands < 0:
        raise SimkitError("--strategy-hands and --runner-hands must be 0 or more")
    if reference_rounds < 0:
        raise SimkitError("--reference-rounds must be 0 or more")
    try:
        sizes = tuple(int(k) for k in dask_workers.split(",") if k.strip())
    except ValueError:
        raise SimkitError(f"--dask-workers takes numbers separated by commas, got {dask_workers!r}") from None
    if any(k < 1 for k in sizes):
        raise SimkitError(f"--dask-workers must be at least 1, got {dask_workers!r}")
    specs = []
    if runner_hands:
        from simkit.experiments.spec import load_spec

        if not runner_specs and WHOS_THE_ASS in games:
            runner_specs = ("experiments/quick.toml",)
        specs = [load_spec(path) for path in runner_specs]
    elif runner_only:
        raise SimkitError("--runner-only needs --runner-hands above 0")
    _load_files(strategy_files)
    parts = []
    if WHOS_THE_ASS in games and not runner_only:
        module, load = _load_bench(WHOS_THE_ASS)
        parts.append(lambda: module.run_bench(counts, hands, reference_hands, echo=click.echo, load_seconds=load))
        if strategy_hands:
            parts.append(lambda: module.strategy_bench(strategy_hands, echo=click.echo))
    if EZELEN in games and not runner_only:
        parts.append(lambda: _ezelen_bench(ezelen_counts, rounds, reference_rounds))
    for spec in specs:
        from simkit.experiments.bench import runner_bench

        parts.append(lambda spec=spec: runner_bench(spec, runner_hands, echo=click.echo, dask_workers=sizes))
    for i, part in enumerate(parts):
        if i:
            click.echo("")
        part()


def _ezelen_bench(counts: list[int], rounds: int, reference_rounds: int) -> None:
    module, load = _load_bench(EZELEN)
    module.run_bench(counts, rounds, reference_rounds, echo=click.echo, load_seconds=load)


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
