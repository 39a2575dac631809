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


SEARCH_FIELDS = ("lowest", "greedy", "highest", "spend", "random", "lowest,greedy,highest")


@click.command("search-strength", short_help="Rate the search bots against the best heuristic of each table.")
@click.option("--players", "-n", type=str, default="3,4,6", show_default=True,
              help="Player counts, comma-separated.")
@click.option("--hands", "-H", type=int, default=1000, show_default=True, help="Hands per strategy and table.")
@seed_opt
@click.option("--strategies", type=str, default="pimc,cheat", show_default=True,
              help="The strategies to rate, comma-separated; the second and later are also compared with the "
                   "first (cheat with pimc: the ceiling's check).")
@click.option("--field", "fields", type=str, multiple=True,
              help="A field, as simkit strength's --field (repeatable; default: all-lowest, all-greedy, "
                   "all-highest, all-spend, all-random and lowest,greedy,highest).")
@rule_opt
@strategy_file_opt
@click.option("--markdown", is_flag=True, help="Print a Markdown table (for docs).")
def search_strength(players, hands, seed, strategies, fields, rule_pairs, strategy_files, markdown):
    """Rate strategies (the search bots) at each player count and in each field against every built-in
    strategy that is no search, each in one seat, rotated, on the same deals, and compare each with the
    best of them at that table (paired). Who's the Ass? only."""
    from simkit.games.strength import rating_of
    from simkit.games.versus_best import MARGIN, builtin_heuristics, versus_best
    from simkit.games.whos_the_ass.rules import GAME as game
    from simkit.reports.tables import markdown as as_markdown
    from simkit.stats import notation
    from simkit.strategies import registry
    from simkit.strategies.spec import split

    described = games.get(game)
    load_strategy_files(strategy_files)
    counts = inputs.player_counts("--players", players, described)
    fields = list(fields) or list(SEARCH_FIELDS)
    for field in fields:
        rating_of(game, field)  # each checked before any is played
    candidates = [str(registry.canonical(game, s)) for s in split(strategies)]
    rules, seed, hands = inputs.rules(described, rule_pairs, {}), check_seed(seed), check_count(hands, "--hands")
    for n in counts:
        sizes.check_deals_in_memory(hands, n, "--hands", described.unit())
    start = time.perf_counter()
    tables = len(builtin_heuristics(game)) + len(candidates) + 1
    with progress(hands * tables * len(counts) * len(fields), described.deal) as bar:
        table = versus_best(game, candidates, counts, fields, hands, seed, rules, progress=bar.update)
    elapsed = time.perf_counter() - start
    click.echo(f"The search bots against the best heuristic of each table: each strategy in one seat (rotated) "
               f"against the field, {hands:,} hands each, seed {seed}; 'vs field' is the paired difference in mean "
               "penalty per hand to the field's own strategy in that seat, 'vs best' to the best built-in "
               f"strategy that is no search at that table (negative = better), ± the 95% interval; verdict: "
               f"'decisively better' where that interval lies below 0, 'at least as good' where the mean is at "
               f"most {MARGIN} above the best's (docs/strategies.md)")
    written = shown_versus_best(table, notation, candidates[0])
    click.echo(as_markdown(written) if markdown else written.to_string(index=False))
    marked = registry.ceilings(game, candidates)
    if marked:
        click.echo(f"† {', '.join(marked)} {registry.CEILING_NOTE}.")
    click.echo(f"({hands * tables * len(counts) * len(fields):,} hands in {elapsed:.1f} s)")


def shown_versus_best(table, notation, first: str):
    """search-strength's table for people: each number with its 95% interval."""
    import pandas as pd

    return pd.DataFrame({
        "players": table["players"],
        "field": table["field"],
        "strategy": table["strategy"],
        "vs field": [notation.value(x, h, False, sign=True) for x, h in zip(table["vs field"], table["±"])],
        "best heuristic": [f"{b} {notation.value(x, h, False, sign=True)}"
                           for b, x, h in zip(table["best heuristic"], table["best vs field"], table["± "])],
        "vs best": [notation.value(x, h, False, sign=True) for x, h in zip(table["vs best"], table["±  "])],
        f"vs {first}": ["" if x != x else notation.value(x, h, False, sign=True)
                        for x, h in zip(table["vs first"], table["±   "])],
        "verdict": table["verdict"],
    })

