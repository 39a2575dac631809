"""`simkit run` and `simkit report`: an experiment spec played into its folder's statistics and
report (simkit.experiments), and any run's report written again from its folder
(simkit.analyses.reports)."""

import os
import sys
import time

import click

from simkit import games
from simkit.cli.options import (
    command_line,
    dask_opts,
    engine_threads_opt,
    files_words,
    progress,
    set_threads,
    strategy_file_opt,
)
from simkit.core import sizes
from simkit.core.errors import check_count
from simkit.experiments.executors import check_where
from simkit.strategies.plugins import load_strategy_files


@click.command(short_help="Run an experiment spec: statistics and report.")
@click.argument("spec_file", type=str)
@click.option("--out", "out", type=str, default=None, help="Folder for the results (default: runs/<name>).")
@click.option("--hands", "-H", type=int, default=None,
              help="Deals per table, overriding the spec's `hands`; each deal is played in every seating of its "
                   "table, so a run plays deals x seatings x tables hands (it says how many before it starts).")
@click.option("--resume", is_flag=True, help="Finish an interrupted run in --out without recomputing.")
@dask_opts
@engine_threads_opt
@click.option("--rows", is_flag=True, help="Also write results.parquet: one row per hand (or match) and seat.")
@strategy_file_opt
def run(spec_file, out, hands, resume, workers, scheduler, threads, rows, strategy_files):
    """Run an experiment spec (TOML): stats.parquet, spec.toml, meta.json and the report in --out."""
    from simkit import experiments
    from simkit.experiments.report import answer, tables
    from simkit.experiments.runner import chunk_size, finished_here, replays
    from simkit.experiments.spec import load_spec

    load_strategy_files(strategy_files)
    spec = load_spec(spec_file)
    if hands is not None:
        check_count(hands, "--hands")
    check_where(workers, scheduler)
    set_threads(threads)
    out = out or os.path.join("runs", spec.name)
    unit = games.get(spec.game).unit(spec.match["mode"])
    count = hands or spec.hands
    sizes.check_run_size(count, chunk_size(spec), "--hands" if hands else f"{spec_file}: key 'hands'", unit)
    read_back = not resume and finished_here(spec, out, hands, rows)
    if read_back:  # the quick start run again, say
        click.echo(f"{out} already holds this run, finished (the same spec, hands and simkit: the same numbers); "
                   "read back, not played again (another --out plays it anew)", err=True)
        resume = True
    if rows:  # the rows are read back whole at the end
        per_deal = sum(c.rotations(spec.seating) * c.players for c in spec.cells())
        sizes.check_memory(count * per_deal, "--rows:", "rows", sizes.BYTES_PER_ROW)
    total = count * replays(spec)  # every deal of the plan, at every table and in every seating
    tables_ = len(spec.cells())
    start = time.perf_counter()
    with progress(total, unit[:-1]) as bar:
        def resumed(done: int, chunks: int, played: int) -> None:
            """Told once the folder is this run's, before it plays: the plan, then what is kept."""
            click.echo(f"{spec.name}: {count:,} deals per table, each in every seating, at {tables_} "
                       f"table{'s' if tables_ > 1 else ''}: {total:,} {unit} to play", err=True)
            if done:
                click.echo(f"resuming {out}: {done} of {chunks} chunks already done", err=True)
                bar.n = bar.initial = played  # counted as done, not in the rate
                bar.refresh()

        try:
            results = experiments.run(spec_file, out, hands=hands, resume=resume, workers=workers,
                                      scheduler=scheduler, strategy_files=strategy_files, rows=rows,
                                      progress=bar.update, resumed=resumed)
        except KeyboardInterrupt:
            bar.close()
            _interrupted(spec, spec_file, out, hands, [*files_words(strategy_files), *(["--rows"] if rows else [])])
    played = tables.played(results.stats)
    kept = f"; rows in {out}/results.parquet" if rows else ""
    click.echo(f"{spec.name}: {played:,} {unit} played, statistics in {out}/stats.parquet{kept} "
               "(± = 95% interval)")
    click.echo(tables.means_shown(results.stats).to_string())
    click.echo(f"report: {os.path.join(out, 'report.html')}")
    click.echo(answer(results.stats, str(spec.baseline), game=spec.game))
    click.echo(f"({played:,} {unit} read back)" if read_back else
               f"({played:,} {unit} in {time.perf_counter() - start:.1f} s)")


def _interrupted(spec, spec_file: str, out: str, hands: int | None, options: list[str]) -> None:
    """Ctrl-C in a run: say what is kept and how to finish it (the run's `options` given again),
    then exit 130."""
    from simkit.experiments.runner import kept_chunks

    done, chunks = kept_chunks(spec, out, hands)
    again = command_line("run", spec_file, "--out", out, *(("--hands", hands) if hands else ()), *options, "--resume")
    click.echo(f"simkit: interrupted; {done} of {chunks} chunks are kept in {out}/chunks; finish the run with: "
               f"{again}", err=True)
    sys.exit(130)


@click.command(short_help="Write a run's report (Markdown and HTML).")
@click.argument("folder", type=str)
@click.option("--baseline", type=str, default=None, help="Strategy for paired differences (default: the spec's).")
def report(folder, baseline):
    """Write report.md and report.html (with figures) for a run's folder."""
    from simkit.analyses.reports import make_report

    click.echo(f"report: {make_report(folder, baseline)}")
