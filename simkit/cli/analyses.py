"""`simkit tune` and `simkit field`: the long analyses, each played into a folder that keeps its
record, resumable after Ctrl-C (simkit.analyses.tune, simkit.analyses.field)."""

import os
import sys

import click

from simkit.cli.options import dask_opts, engine_threads_opt, progress, set_threads, strategy_file_opt
from simkit.core.errors import check_count
from simkit.experiments.executors import check_where
from simkit.strategies.plugins import load_strategy_files


@click.command(short_help="Find the best setting of a strategy: race candidates on shared deals.")
@click.argument("spec_file", type=str)
@click.option("--out", "out", type=str, default=None, help="Folder for the tuning (default: runs/<name>).")
@click.option("--budget", type=int, default=None, help="Hands the race may play in all, overriding the spec.")
@click.option("--resume", is_flag=True, help="Finish an interrupted tuning in --out from its last round.")
@dask_opts
@engine_threads_opt
@strategy_file_opt
def tune(spec_file, out, budget, resume, workers, scheduler, threads, strategy_files):
    """Race a strategy's settings (a template and its space, TOML) on shared deals, drop the
    decisively worse after each round, and confirm the winner on fresh deals."""
    from simkit.analyses.tune.run import confirm_hands, run_tuning
    from simkit.analyses.tune.spec import load_tuning
    from simkit.analyses.tune.summary import summary

    spec, out, unit = _long_run(load_tuning, spec_file, out, strategy_files, (budget, "--budget"), workers,
                                scheduler, threads)
    with progress((budget or spec.budget) + confirm_hands(spec), unit[:-1]) as bar:
        folder = _interruptible(
            bar, lambda: run_tuning(spec, out, budget, resume, progress=bar.update,
                                    told=lambda line: bar.write(line, file=sys.stderr), workers=workers,
                                    scheduler=scheduler, strategy_files=strategy_files),
            os.path.join(out, "tune.json"), f"the rounds finished are kept in {out}", "tuning",
            f"simkit tune {spec_file} --out {out}" + (f" --budget {budget}" if budget else ""))
    _finished(spec_file, folder, summary(folder))


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
    from simkit.analyses.field.run import run_field, total_hands
    from simkit.analyses.field.spec import load_field
    from simkit.analyses.field.summary import summary

    spec, out, unit = _long_run(load_field, spec_file, out, strategy_files, (hands, "--hands"), workers, scheduler,
                                threads)
    with progress(total_hands(spec, hands), unit[:-1]) as bar:
        folder = _interruptible(
            bar, lambda: run_field(spec, out, hands, resume, progress=bar.update, workers=workers,
                                   scheduler=scheduler, strategy_files=strategy_files),
            os.path.join(out, "field.json"), f"the profiles played are kept in {out}", "field",
            f"simkit field {spec_file} --out {out}" + (f" --hands {hands}" if hands else ""))
    _finished(spec_file, folder, summary(folder))


def _long_run(load, spec_file: str, out: str | None, strategy_files, count: tuple, workers, scheduler,
              threads) -> tuple:
    """A tuning's or a field's spec loaded and its options checked, before anything is written:
    (the spec, its folder, what it counts)."""
    load_strategy_files(strategy_files)
    spec = load(spec_file)
    if count[0] is not None:
        check_count(*count)
    check_where(workers, scheduler)
    set_threads(threads)
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
