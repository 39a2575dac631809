"""What each figure of a report draws, in words: its caption (what, which unit, n, what the bars
or bands are). Every figure the report shows has one."""

import pandas as pd

from simkit.games import Words


def _hidden(frame: pd.DataFrame | None, column: str, zero: bool) -> str:
    """Words for intervals too narrow to see beside the spread of the points (under 1.5% of the
    axis), so that a reader does not take their absence for their lack."""
    if frame is None or not len(frame):
        return ""
    low, high = frame[column] - frame["ci95"], frame[column] + frame["ci95"]
    span = max(high.max(), 0 if zero else high.max()) - min(low.min(), 0 if zero else low.min())
    return " (here narrower than the markers)" if span > 0 and frame["ci95"].max() < 0.015 * span else ""


def captions(said: Words, n: int, diffs: pd.DataFrame | None, baseline: str,
             means: pd.DataFrame | None = None) -> dict[str, str]:
    """A caption for every figure file name the report can draw: `said` the game's words, `n`
    the deals per table, `diffs` the paired differences to `baseline` (None: there are none),
    `means` the strategies' means."""
    what, unit = said.unit, said.difference_unit
    per_table = f"n = {n:,} deals per table"
    means_shown = said.means or f"Each strategy's seat means per {said.deal} and seat, a marker per measure"
    panels = "a panel per table, " if diffs is not None and diffs["cell"].nunique() > 1 else ""
    return {
        "difference.png": (f"Each strategy's mean minus {baseline}'s on the same deals and seats, in {unit} "
                           f"({panels}sorted); bars are 95% intervals{_hidden(diffs, 'difference', True)} over "
                           f"{per_table}; filled markers: decisive (the interval excludes zero)."),
        "comparison.png": (f"Each strategy's mean {what}, a row per table (never pooled over tables); bars are 95% "
                           f"intervals{_hidden(means, 'mean', False)} over {per_table}."),
        "match-wins.png": ("Share of matches each strategy won (ties shared), with 95% intervals over deals; "
                           f"{per_table}."),
        "donkey.png": (f"Share of matches that ended with the strategy's seat as the donkey (E-Z-E-L), with 95% "
                       f"intervals over deals; {per_table}."),
        "loss-causes.png": ("Share of rounds each strategy lost, split by cause: last to copy (Z5) and tempo "
                            f"faults (Z6), with 95% intervals; {per_table}."),
        "sweep.png": (f"Paired difference to {baseline} along each swept parameter, one line per swept strategy, "
                      f"bands are 95% intervals; {per_table}."),
        "head-to-head.png": ("Share of deals on which the row strategy beats the column strategy at their table "
                             f"(ties count half), with its 95% interval; {per_table}."),
        "first-signal.png": ("How many turns pass before the first signal: per table, the share of its rounds "
                             "with a signal that had one by each turn (a step up at each turn where some did); "
                             f"{per_table}."),
        "distribution.png": (f"How the {what} is spread, per strategy over all its tables: where 0 is common"
                             f"{f' ({said.zero})' if said.zero else ''}, its share at left and the spread of the "
                             f"values above 0 at right (each the share of seat rows); {per_table}."),
        "seat-means.png": f"{means_shown}; bars are 95% intervals over deals; {per_table}.",
        "variants.png": ("Each rule variant's mean minus the reference rules' on the same deals, a panel per "
                         f"measure of the {said.deal} that varies (shares in percentage points; the variants in one "
                         "order, the largest change of the first measure at the top); bars are 95% intervals over "
                         f"{per_table}; filled markers: decisive (the interval excludes zero)."),
        **({length_figure(said): f"{said.length}; {per_table}."} if said.length else {}),
    }


def length_figure(said: Words) -> str:
    """The file of the figure of a game's table histogram, its values per deal ("hand-length.png")."""
    return f"{said.deal}-length.png"
