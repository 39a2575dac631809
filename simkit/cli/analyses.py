"""`simkit tune` and `simkit field`: the long analyses, each played into a folder that keeps its
record, resumable after Ctrl-C (simkit.analyses.tune, simkit.analyses.field)."""

import os
import sys

import click

from simkit import games
from simkit.cli.options import (
    command_line,
    dask_opts,
    engine_threads_opt,
    files_words,
    interruptible,
    progress,
    set_threads,
    strategy_file_opt,
)
from simkit.core.errors import check_count
from simkit.core.sizes import check_played
from simkit.experiments.executors import check_where
from simkit.strategies.plugins import load_strategy_files


@click.command(short_help="Find the best setting of a strategy, or the best reply to a field: race candidates "
                          "on shared deals.")
@click.argument("spec_file", type=str, required=False)
@click.option("--against", type=str, default=None,
              help="No spec: find the best reply to this field (one strategy for every other seat, or one per "
                   "seat, comma-separated) among every built-in family with its parameters and compose.")
@click.option("--game", type=str, default=None, help="With --against: the game (default: whos-the-ass).")
@click.option("--players", "-n", type=int, default=None, help="With --against: the number of players.")
@click.option("--seed", "-s", type=str, default=None, help="With --against: the seed (default 0).")
@click.option("--out", "out", type=str, default=None, help="Folder for the tuning (default: runs/<name>).")
@click.option("--budget", type=int, default=None, help="Hands the race may play in all, overriding the spec.")
@click.option("--resume", is_flag=True, help="Finish an interrupted tuning in --out from its last round.")
@dask_opts
@engine_threads_opt
@strategy_file_opt
def tune(spec_file, against, game, players, seed, out, budget, resume, workers, scheduler, threads,
         strategy_files):
    """Race a strategy's settings (a template and its space, TOML) on shared deals, drop the
    decisively worse after each round, and confirm the winner on fresh deals. With --against
    FIELD -n N and no spec: the best reply to that field (docs/tuning.md)."""
    from simkit.analyses.tune.run import run_tuning
    from simkit.analyses.tune.summary import summary

    load, what, again = _tuning_source(spec_file, against, game, players, seed)
    spec, out, unit = _long_run(load, what, out, strategy_files, workers, scheduler, threads)
    if budget is not None:
        check_played(check_count(budget, "--budget"), "--budget")
    with progress((budget or spec.budget) + spec.confirm_hands(), unit[:-1]) as bar:
        folder = interruptible(
            bar, lambda: run_tuning(spec, out, budget, resume, progress=bar.update,
                                    told=lambda line: bar.write(line, file=sys.stderr), workers=workers,
                                    scheduler=scheduler, strategy_files=strategy_files),
            os.path.join(out, "tune.json"), f"the rounds finished are kept in {out}", "tuning",
            command_line("tune", *again, "--out", out, *(("--budget", budget) if budget else ()),
                         *files_words(strategy_files)))
    if against is None:
        _finished(spec_file, folder, summary(folder))
    else:
        _kept(folder, what, summary(folder))


def _tuning_source(spec_file, against, game, players, seed) -> tuple:
    """(how to load the tuning, what it is loaded from, the command's words that name it): a spec
    file, or --against's generated spec (simkit.analyses.tune.auto)."""
    from simkit.analyses.tune.spec import load_tuning

    if (spec_file is None) == (against is None):
        raise click.UsageError("give a tuning spec (SPEC_FILE) or --against FIELD -n N, not both" if spec_file else
                               "give a tuning spec (SPEC_FILE), or --against FIELD -n N for the best reply to a field")
    if spec_file is not None:
        extra = [o for o, v in (("--game", game), ("-n", players), ("--seed", seed)) if v is not None]
        if extra:
            raise click.UsageError(f"{extra[0]} applies with --against only (a spec gives its own)")
        return load_tuning, spec_file, (spec_file,)
    if players is None:
        raise click.UsageError("--against needs -n (the number of players)")
    from simkit.analyses.tune.auto import against as against_spec
    from simkit.analyses.tune.spec import parse_tuning
    from simkit.core.rng import check_seed

    seed = check_seed(seed if seed is not None else "0")
    game = game or games.DEFAULT
    made: dict = {}

    def load(_):  # after the user's strategy files are loaded: the field may be theirs
        made.update(against_spec(game, players, against, seed))
        return parse_tuning(made)

    return load, made, ("--against", against, "--game", game, "-n", players, "--seed", seed)


@click.command(short_help="What wins when everyone adapts: the equilibria of a pool of strategies.")
@click.argument("spec_file", type=str)
@click.option("--out", "out", type=str, default=None, help="Folder for the field (default: runs/<name>).")
@click.option("--hands", "-H", type=int, default=None,
              help="Deals per profile, overriding the spec's `hands`; each deal is played in every distinct "
                   "seating of its profile, so a field plays many more hands than deals.")
@click.option("--resume", is_flag=True, help="Finish an interrupted field in --out (a finished one: analysed again).")
@dask_opts
@engine_threads_opt
@strategy_file_opt
def field(spec_file, out, hands, resume, workers, scheduler, threads, strategy_files):
    """Play every profile of a pool of strategies (TOML) on shared deals, then find the mixes no
    player wants to leave (symmetric equilibria), each strategy's regret against them, and their
    robustness on resampled deals."""
    from simkit.analyses.field.run import run_field
    from simkit.analyses.field.spec import load_field
    from simkit.analyses.field.summary import summary

    spec, out, unit = _long_run(load_field, spec_file, out, strategy_files, workers, scheduler, threads)
    if hands is not None:
        spec.check_hands(hands, "--hands")
    with progress(spec.played(hands), unit[:-1]) as bar:
        folder = interruptible(
            bar, lambda: run_field(spec, out, hands, resume, progress=bar.update, workers=workers,
                                   scheduler=scheduler, strategy_files=strategy_files),
            os.path.join(out, "field.json"), f"the profiles played are kept in {out}", "field",
            command_line("field", spec_file, "--out", out, *(("--hands", hands) if hands else ()),
                         *files_words(strategy_files)))
    _finished(spec_file, folder, summary(folder))


def _long_run(load, spec_file: str, out: str | None, strategy_files, workers, scheduler, threads) -> tuple:
    """A tuning's or a field's spec loaded and its options checked, before anything is written:
    (the spec, its folder, what it counts)."""
    load_strategy_files(strategy_files)
    spec = load(spec_file)
    check_where(workers, scheduler)
    set_threads(threads)
    return spec, out or os.path.join("runs", spec.name), spec.game.unit(spec.table.match["mode"])


def _kept(folder, data: dict, summary: str) -> None:
    """The generated spec kept beside its results (`simkit tune FOLDER/spec.toml` plays it again),
    what was found, and where the report is."""
    from pathlib import Path

    from simkit.analyses.tune.auto import toml_text
    from simkit.core.files import atomic_path

    with atomic_path(Path(folder) / "spec.toml") as tmp:
        tmp.write_text(toml_text(data), encoding="utf-8")
    click.echo(summary)
    click.echo(f"report: {folder / 'report.html'}")


def _finished(spec_file: str, folder, summary: str) -> None:
    """The spec kept beside its results, what was found, and where the report is."""
    from simkit.experiments.runner import copy_spec

    copy_spec(spec_file, folder)
    click.echo(summary)
    click.echo(f"report: {folder / 'report.html'}")
