"""`simkit grade`: a trace file's seat graded move by move by the search bot, or a grading spec
played, graded and reported (simkit.analyses.grading)."""

import dataclasses
import os

import click

from simkit.cli import inputs, options
from simkit.cli.options import command_line, engine_threads_opt, files_words, strategy_file_opt
from simkit.core.errors import SimkitError
from simkit.core.rng import check_seed
from simkit.strategies.plugins import load_strategy_files


@click.command(short_help="Grade moves with the search bot: a trace file's seat, or a grading spec's strategies.")
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
@click.option("--resume", is_flag=True, help="A grading spec: finish an interrupted grading in --out.")
@engine_threads_opt
@strategy_file_opt
def grade(source, seat, out, search, samples, seed, hands, moves, resume, threads, strategy_files):
    """Grade Who's the Ass? moves with the search: replay each decision that had a choice, play every
    legal action out on samples of the hidden cards, and give the points lost per hand at each decision
    point (lead, ass lead, follow, ass trick, joker) with 95% intervals over the hands.

    SOURCE is a trace file (grade its --seat) or a grading spec (.toml: play its strategies' hands
    among its field, grade them, and write the traces, the graded moves and a report into --out)."""
    from simkit.analyses.grading.grade import check_samples, grade_file, lost_by_point, model_shares, shares_text
    from simkit.analyses.grading.spec import check_hands

    options.set_threads(threads)  # hands are graded side by side on these threads; the grades do not depend on them
    if hands is not None:
        check_hands(hands, "--hands")
    if source.endswith(".toml"):
        given = [name for name, v in (("--seat", seat), ("--search", search), ("--samples", samples),
                                      ("--seed", seed), ("--moves", moves or None)) if v is not None]
        if given:
            raise SimkitError(f"{given[0]} is for a trace file; a grading spec sets it as a key")
        if out is None:
            raise SimkitError("a grading spec needs --out DIR")
        load_strategy_files(strategy_files)  # before the spec names them (graded or the field)
        _grading(source, out, hands, resume, strategy_files)
        return
    given = [name for name, v in (("--out", out), ("--resume", resume or None),
                                  ("--strategy-file", strategy_files or None)) if v is not None]
    if given:
        raise SimkitError(f"{given[0]} is for a grading spec (.toml); a trace file's moves are graded as recorded, "
                          "its grades printed")
    if seat is None:
        raise SimkitError("grading a trace file needs --seat")
    search = search or "pimc"
    samples = check_samples(64 if samples is None else samples, "--samples")
    seed = check_seed(seed or "0")
    inputs.trace_file(source)
    strategy, graded, table = grade_file(source, seat, search, samples, seed, hands)
    click.echo(f"{strategy} at seat {seat}: {len(table):,} moves with a choice in {len(graded):,} hands, graded by "
               f"{search} on {samples} samples each (the best action picked on half of them, the cost weighed on "
               "the other half); points lost per hand ± the 95% interval over the hands")
    click.echo(lost_by_point(table, graded, by="record").to_string(index=False, float_format=lambda x: f"{x:.2f}"))
    if len(table):
        click.echo(f"the search took the other seats for (share of moves x seats): "
                   f"{shares_text(model_shares(table['models']))}")
    if moves:
        click.echo(table.drop(columns="record").to_string(index=False, float_format=lambda x: f"{x:.2f}"))


def _grading(path: str, out: str, hands: int | None, resume: bool, strategy_files: tuple[str, ...]) -> None:
    """`simkit grade SPEC.toml --out DIR`: play, grade, write, report, and print the answer; on
    Ctrl-C, what is kept and the command that finishes it."""
    from simkit.analyses.grading.record import read_grading
    from simkit.analyses.grading.report import answer, by_point
    from simkit.analyses.grading.run import PARTIAL, SPEC, check_out, run_grading
    from simkit.analyses.grading.spec import load_grading

    spec = load_grading(path)
    if hands is not None:
        spec = dataclasses.replace(spec, hands=hands)
    check_out(spec, out, resume)  # before the first line of progress
    again = command_line("grade", path, "--out", out, *(("--hands", hands) if hands else ()),
                         *files_words(strategy_files))
    with options.progress(spec.hands * len(spec.graded), "hand") as bar:
        folder = options.interruptible(bar, lambda: run_grading(spec, out, bar.update, resume),
                               os.path.join(out, PARTIAL, SPEC), f"the hands graded are kept in {out}", "grading",
                               again)
    spec, moves_, hands_, _ = read_grading(folder)
    click.echo(answer(spec, by_point(spec, moves_, hands_), hands_))
    click.echo(f"report: {folder / 'report.html'}")
