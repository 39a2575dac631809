"""An experiment's report as tables and figures, one call away for notebooks:
`summary(results)` (every table, by title, numbers unformatted with their n) and
`figures_for(results)` (the matplotlib figures, by file name). Everything is read off the run's
statistics, so time and memory do not depend on the number of hands."""

import matplotlib.pyplot as plt
import pandas as pd

from simkit import games
from simkit.experiments.report import figures as drawn
from simkit.experiments.report import tables, variants
from simkit.experiments.report.captions import length_figure
from simkit.experiments.statistics import Statistics
from simkit.games import Words
from simkit.reports import figures
from simkit.strategies import registry
from simkit.strategies.spec import split

# The sections of the built-in games' own measures, in the report's order: a game names those it has
# (games.Measures.sections), each read off measures of its own names. (title, table, only the tables
# of several strategies: at a table of one, each seat's share of the match wins or donkeys is one in
# the number of players by construction)
SECTIONS = {
    "went out": ("Went out / held the ass at the end", tables.shares, False),
    "match wins": ("Match wins", tables.win_rates, True),
    "donkey": ("Became the donkey (E-Z-E-L)", tables.donkey_rates, True),
    "loss causes": ("Rounds lost by cause", tables.loss_causes, False),
    "round endings": ("How rounds end", tables.round_outcomes, False),
    "first signal": ("Turn of the first signal", tables.first_signal, False),
}


def _stats(results) -> Statistics:
    """Statistics, from a run's Results (experiments.run) or as they are."""
    return results.stats if hasattr(results, "stats") else results


def summary(results, baseline: str = "lowest") -> dict[str, pd.DataFrame]:
    """Every statistics table of the report, by title (numbers unformatted, each with its n)."""
    stats = _stats(results)
    said = tables.words(stats)
    out = {said.title: tables.strategy_means(stats)}
    if stats.layout.table_pairs:  # a sweep of rule options: what each variant changes, on the same deals
        out[VARIANTS] = variants.rule_variants(stats)
    for key, (title, table, mixed) in SECTIONS.items():  # the game's own sections, those it names
        if key in stats.layout.measures.sections:
            out[title] = _mixed(table(stats)) if mixed else table(stats)
    if stats.layout.measures.means:
        out[means_title(said)] = tables.seat_means(stats)
    if stats.layout.measures.table_means:
        out[f"Per table and {said.deal}"] = tables.table_summary(stats)
    out[f"Paired difference to {baseline} (same deal, same seat; negative = {said.fewer})"] = \
        tables.paired_differences(stats, baseline)
    sweep = any(c["sweep"] for c in stats.layout.cells)
    pairs = tables.pairwise(stats) if not sweep else pd.DataFrame()
    if len(pairs) and len(stats.layout.cells) > 1:  # a tournament: every cell another pairing
        out["Head to head (tournament)"] = pairs
    if sweep:
        out["Parameter sweep"] = tables.sweep_curves(stats, baseline)
    out["Seat position effect"] = tables.seat_effect(stats)
    return out


VARIANTS = "Rule variants against the reference rules (paired on the same deals)"


def _mixed(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows of tables with several strategies."""
    if not len(frame):
        return frame
    return frame[frame.groupby("cell")["strategy"].transform("nunique") > 1].reset_index(drop=True)


def marked(game: str, frame: pd.DataFrame) -> pd.DataFrame:
    """A table as the report shows it: a ceiling's label marked (registry.marked)."""
    out = frame.copy()
    for column in ("strategy", "opponent"):
        if column in out.columns:
            out[column] = [registry.marked(game, v) for v in out[column]]
    if "strategies" in out.columns:  # a lineup as one text
        out["strategies"] = [marked_lineup(game, v) for v in out["strategies"]]
    return out


def marked_lineup(game: str, text: str) -> str:
    return registry.marked_text(game, text, [str(s) for s in split(text)])


def figures_for(results, stats_tables: dict[str, pd.DataFrame] | None = None,
                baseline: str = "lowest", game: str = games.DEFAULT) -> dict[str, plt.Figure]:
    """The report's matplotlib figures by file name (close them when done); `game` marks a
    ceiling's label in the figures that draw from the statistics themselves."""
    stats = _stats(results)
    found = stats_tables or summary(stats, baseline)
    value = tables.measure(stats)
    said = tables.words(stats)
    means = found[title_of(found)]  # a row per table: never pooled over tables
    out = {}
    diffs = paired_table(found)
    if diffs is not None and len(diffs):  # the main answer first
        out["difference.png"] = figures.forest(diffs, said.difference_unit, bool(said.share_of), baseline,
                                               stats.layout.cells)
    if VARIANTS in found and len(found[VARIANTS]):
        figure = figures.variants(found[VARIANTS], variants.reference_name(stats))
        if figure is not None:  # some measure of the table varies
            out["variants.png"] = figure
    out["comparison.png"] = figures.strategy_comparison(means, said.unit)
    if "Match wins" in found:
        out["match-wins.png"] = figures.shares(found["Match wins"], "win", "low", "high",
                                               "share of matches won (ties shared; 95% interval over deals)")
    if "Became the donkey (E-Z-E-L)" in found:
        out["donkey.png"] = figures.shares(found["Became the donkey (E-Z-E-L)"], "donkey", "donkey_low", "donkey_high",
                                           "share of matches ending as the donkey (95% interval over deals)")
    if "Rounds lost by cause" in found:
        out["loss-causes.png"] = drawn.loss_causes(found["Rounds lost by cause"])
    if "Parameter sweep" in found and len(found["Parameter sweep"]):
        out["sweep.png"] = figures.sweep_curves(found["Parameter sweep"], bool(said.share_of))
    if "Head to head (tournament)" in found:
        out["head-to-head.png"] = figures.pairwise_heatmap(found["Head to head (tournament)"])
    if "first signal" in stats.layout.measures.sections:
        out["first-signal.png"] = drawn.first_signal_turns(stats)
    elif stats.layout.measures.seat_histogram == value and not said.share_of:  # the main measure's spread
        out["distribution.png"] = drawn.distributions(stats, value, lambda name: registry.marked(game, name))
    if means_title(said) in found:
        means = found[means_title(said)]
        counted = [m for m, _ in stats.layout.measures.means]
        out["seat-means.png"] = figures.seat_means(means, counted, f"times per {said.deal} and seat")
    length = stats.layout.measures.table_histogram
    if length is not None and said.length:  # the game says what its figure of the values per deal shows
        out[length_figure(said)] = drawn.hand_lengths(stats, lambda text: marked_lineup(game, text),
                                                      f"{length} per {said.deal}", log=said.logarithmic)
    return out


def means_title(said: Words) -> str:
    """The title of the table of the game's seat means (Measures.means)."""
    return f"Per strategy and {said.deal} (means)"


def paired_title(found: dict[str, pd.DataFrame]) -> str | None:
    """The title of the report's table of paired differences to the baseline, if it has one."""
    return next((title for title in found if title.startswith("Paired difference")), None)


def paired_table(found: dict[str, pd.DataFrame]) -> pd.DataFrame | None:
    """The report's table of paired differences to the baseline, if it has one."""
    title = paired_title(found)
    return None if title is None else found[title]


def title_of(found: dict[str, pd.DataFrame]) -> str:
    """The main table's title: the first of the report's tables (`summary`)."""
    return next(iter(found))
