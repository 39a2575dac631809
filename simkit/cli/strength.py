"""`simkit strength`: strategies rated one seat at a time against the game's baseline, paired on
the same deals (simkit.games.strength)."""

import time

import click

from simkit import games
from simkit.cli import inputs
from simkit.cli.options import game_opt, players_opt, progress, rule_flag_opts, rule_opt, seed_opt, strategy_file_opt
from simkit.core import sizes
from simkit.core.errors import check_count
from simkit.core.rng import check_seed
from simkit.strategies.plugins import load_strategy_files


@click.command(short_help="Rate strategies in one seat against the game's baseline.")
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
                   "e.g. --field highest; or a mixed table, e.g. --field lowest,greedy,highest: the other seats "
                   "play them in turn clockwise from the rated seat, and the comparison table seats the first "
                   "in the rated seat.")
@rule_flag_opts
@rule_opt
@strategy_file_opt
@click.option("--markdown", is_flag=True, help="Print a Markdown table (for docs).")
def strength(game, players, hands, seed, strategies, field, rule_pairs, strategy_files, markdown, **flags):
    """Rate strategies: each in one seat (rotated through the seats) against the game's baseline (or
    --field) in all others, paired with an all-baseline table on the same deals. Who's the Ass?: mean penalty per hand
    against lowest; Ezelen: share of single rounds lost against greedy (a strategy's attention profile
    comes with its seat)."""
    from simkit.games.strength import chosen, rating_of, shown
    from simkit.reports.tables import markdown as as_markdown
    from simkit.strategies import registry

    described = games.get(game)
    if described.strength is not None:  # a game without the table is told so first (rating_of)
        load_strategy_files(strategy_files)  # before the field, which may be the user's
    rating = rating_of(game, field)
    described.check_players(players)
    rules, seed, hands = inputs.rules(described, rule_pairs, flags), check_seed(seed), check_count(hands, "--hands")
    sizes.check_deals_in_memory(hands, players, "--hands", described.unit())
    base = rating.baseline
    candidates = chosen(game, strategies, base)
    start = time.perf_counter()
    with progress(hands * (len(candidates) + 1), described.deal) as bar:
        table = rating(candidates, players, hands, seed, rules, progress=bar.update)
    elapsed = time.perf_counter() - start
    in_force = ", ".join(f"{k}={v}" for k, v in rules.items())
    against = (f"{', '.join(rating.others)} in turn clockwise from its seat, paired with {base} in that seat"
               if rating.others else base)
    click.echo(f"Strength at {players} players: each strategy in one seat (rotated) against {against}, "
               f"{hands:,} {described.unit()} each, seed {seed}, {in_force}; '{rating.versus}' is the paired "
               f"difference in {rating.difference} to {base} in the same seat on the same deals "
               "(negative = better), ± the 95% interval" + ("; shares in percent, differences in percentage points"
                                                             if rating.share else ""))
    written, marked = shown(rating, table)
    click.echo(as_markdown(written.reset_index()) if markdown else written.to_string())
    if marked:
        click.echo(f"† {', '.join(marked)} {registry.CEILING_NOTE}.")
    click.echo(f"({hands * (len(candidates) + 1):,} {described.unit()} in {elapsed:.1f} s)")
