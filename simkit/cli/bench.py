"""`simkit bench`: the engines' deals per second, each game's strategies' cost, and the runner's
overhead over the engine (simkit.games.speed, simkit.experiments.bench)."""

import click

from simkit import games
from simkit.cli import inputs
from simkit.cli.options import each_game, strategy_file_opt
from simkit.core import sizes
from simkit.core.errors import SimkitError, check_count
from simkit.strategies.plugins import load_strategy_files


@click.command(short_help="Measure the engines and the runner (per second).")
@click.option("--game", "names", multiple=True, default=games.names(), show_default=True,
              help="The game to measure (repeatable; default: every one).")
@click.option("--hands", "-H", type=int, default=1_000_000, show_default=True,
              help="Hands (Ezelen: rounds) per measurement of the fast engine.")
@click.option("--reference-hands", type=int, default=None,
              help="Hands (rounds) for the plain-Python reference engine (0: skip it; default: "
                   f"{each_game(lambda g: f'{g.reference_deals:,}')}).")
@click.option("--players", "player_list", type=str, default=None,
              help=f"Player counts to measure, e.g. 4,8 (default: {each_game(lambda g: g.bench_players)}).")
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
        from simkit.games.whos_the_ass.versus_c import versus_c

        wta = games.get(games.DEFAULT)
        versus_c(vs_c, inputs.player_counts("--players", player_list or "3,4,8,12", wta),
                 check_count(hands, "--hands"), echo=click.echo)
        return
    measured = [games.get(name) for name in names]
    counts = {g.name: inputs.player_counts("--players", player_list or g.bench_players, g) for g in measured}
    check_count(hands, "--hands")
    most = max((n for c in counts.values() for n in c), default=1)
    sizes.check_deals_in_memory(hands, most, "--hands", "deals")
    if strategy_hands:
        sizes.check_deals_in_memory(check_count(strategy_hands, "--strategy-hands", least=0), most,
                                    "--strategy-hands", "deals")
    for value, option in ((reference_hands, "--reference-hands"), (strategy_hands, "--strategy-hands"),
                          (runner_hands, "--runner-hands")):
        if value is not None:
            check_count(value, option, least=0)
    try:
        clusters = tuple(int(k) for k in dask_workers.split(",") if k.strip())
    except ValueError:
        raise SimkitError(f"--dask-workers takes numbers separated by commas, got {dask_workers!r}") from None
    for k in clusters:
        check_count(k, "--dask-workers")
    specs = []
    if runner_hands:
        from simkit.experiments.spec import load_spec

        if not runner_specs and games.DEFAULT in names:
            runner_specs = ("experiments/quick.toml",)
        specs = [load_spec(path) for path in runner_specs]
    elif runner_only:
        raise SimkitError("--runner-only needs --runner-hands above 0")
    load_strategy_files(strategy_files)
    from simkit.experiments.bench import runner_bench
    from simkit.games.speed import bench_game

    parts = []
    for game in [] if runner_only else measured:
        reference = game.reference_deals if reference_hands is None else reference_hands
        parts.append(lambda game=game, reference=reference: bench_game(game, counts[game.name], hands, reference,
                                                                       strategy_hands, click.echo))
    for spec in specs:
        parts.append(lambda spec=spec: runner_bench(spec, runner_hands, echo=click.echo, dask_workers=clusters))
    for i, part in enumerate(parts):
        if i:
            click.echo("")
        part()
