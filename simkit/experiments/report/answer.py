"""The experiment report's answer, by the rule of the spec's kind (docs/reports.md): the sentence in
bold and the lines of "In short" come from one list of findings, so they give the same numbers.

- a lineup: at each table of several strategies the best (the lowest mean) and its paired margins
  over the runner-up and the baseline;
- a sweep: for each swept strategy, its best point (the lowest paired difference to the baseline,
  or the lowest mean where the baseline does not play), with the points whose intervals overlap it;
- a tournament: the ranking by how often a strategy beats its opponents head to head;
- a table of one strategy: its measures, each share beside its fair value where the game knows it;
- a sweep of rule options: each variant against the reference rules on the same deals (report/variants.py).
"""

from dataclasses import dataclass

import pandas as pd

from simkit import games
from simkit.experiments.report import tables
from simkit.experiments.report.sweep import not_swept_findings, sweep_findings
from simkit.experiments.report.variants import deal_note, reference_name, rules_text, variant_findings
from simkit.experiments.report.wording import PAIRED, level, listed, margin
from simkit.experiments.statistics import Statistics
from simkit.games import Words
from simkit.stats import notation


@dataclass(frozen=True)
class Answer:
    """The report's answer: the sentence in bold, and the lines of "In short"."""

    sentence: str
    lines: tuple[str, ...]


def kind(stats: Statistics, pairs: pd.DataFrame | None = None) -> str:
    """The spec's kind, as its tables show it: "variants" (rule options swept), "sweep", "tournament",
    "single" (a strategy alone at every table) or "lineup"."""
    cells = stats.layout.cells
    if stats.layout.table_pairs:
        return "variants"
    if any(c["sweep"] for c in cells):
        return "sweep"
    if pairs is not None and len(pairs) and len(cells) > 1:
        return "tournament"
    if all(len(c["strategies"]) == 1 for c in cells):
        return "single"
    return "lineup"


def answer(stats: Statistics, baseline: str, found: dict[str, pd.DataFrame] | None = None,
           game: str = games.DEFAULT) -> str:
    """The sentence in bold (`found`: the report's tables, when the caller has them)."""
    return answered(stats, baseline, found, game).sentence


def answered(stats: Statistics, baseline: str, found: dict[str, pd.DataFrame] | None = None,
             game: str = games.DEFAULT) -> Answer:
    """The answer by the rule of the spec's kind (`game`: the run's)."""
    pairs = (found or {}).get("Head to head (tournament)")
    if found is None and len(stats.layout.cells) > 1 and not any(c["sweep"] for c in stats.layout.cells):
        pairs = tables.pairwise(stats)
    said = tables.words(stats)
    which = kind(stats, pairs)
    if which == "variants":
        return _variants_answer(stats, baseline, said, game)
    if which == "sweep":
        found = sweep_findings(stats, baseline, said) + not_swept_findings(stats, baseline, said)
        return _joined(found)
    if which == "tournament":
        return _tournament_answer(pairs)
    singles = _singles(stats, said)
    if which == "single":
        return _single_answer(singles)
    return _lineup_answer(stats, baseline, said, _single_lines(singles))


def _joined(lines: list[str]) -> Answer:
    """A rule whose every finding is one line: the sentence gives them all (the first few)."""
    shown = lines[:3]
    more = f" ({len(lines) - 3} more in short, below)" if len(lines) > 3 else ""
    return Answer(" ".join(shown) + more if lines else "Nothing to compare was played.", tuple(lines))


def _variants_answer(stats: Statistics, baseline: str, said: Words, game: str) -> Answer:
    """Each rule variant against the reference rules; a strategy sweep's findings after them."""
    found = variant_findings(stats, baseline, said, game)
    head = f"Against the reference rules ({reference_name(stats)}), paired on the same deals (95% intervals): "
    note = f"Pairing: {deal_note(stats, game)}."
    swept = sweep_findings(stats, baseline, said) if any(c["sweep"] for c in stats.layout.cells) else []
    first = f"The reference rules: {reference_name(stats)}; each variant against them, paired on the same deals."
    return Answer(head + _joined(found).sentence, tuple([first] + found + [note] + swept))


# --- a lineup ----------------------------------------------------------------------------------------------------

def _where(stats: Statistics, cell: int) -> str:
    described = stats.layout.cells[cell]
    point = ", ".join([f"{k} = {v:g}" for k, v in described.get("sweep", {}).items()]
                      + ([rules_text(described["rules"])] if described.get("rules") else []))
    return f"table {cell} ({described['players']} players{', ' + point if point else ''})"


def _pair(diffs: pd.DataFrame, cell: int, strategy: str):
    found = diffs[(diffs["cell"] == cell) & (diffs["strategy"] == strategy)]
    return next(found.itertuples(), None)


def _best_at(stats: Statistics, baseline: str, said: Words, cell: int, table: pd.DataFrame) -> tuple[str, str]:
    """(the best strategy at a table of several, and what is said of it: its level and margins,
    paired on the same deals where there are any)."""
    ranked = table.sort_values("mean", kind="stable")
    best, runner_up = ranked.iloc[0], ranked.iloc[1]["strategy"]
    margins = []
    for rival in dict.fromkeys((runner_up, baseline)):
        if rival == best["strategy"]:
            continue
        row = _pair(tables.paired_differences(stats, rival), cell, best["strategy"])
        if row is None:
            continue
        name = (f"the runner-up, the baseline ({rival})" if rival == runner_up == baseline else
                f"the runner-up ({rival})" if rival == runner_up else f"the baseline ({rival})")
        margins.append(margin(said, row.difference, row.ci95, name))
    role = " (the baseline)" if best["strategy"] == baseline else ""
    return best["strategy"], (f"{best['strategy']}{role} does best: it {level(said, best)}"
                              + (", " + " and ".join(margins) + f" {PAIRED}" if margins else ""))


def _lineup_answer(stats: Statistics, baseline: str, said: Words, singles: list[str]) -> Answer:
    means = tables.strategy_means(stats)
    mixed = means[means.groupby("cell")["strategy"].transform("nunique") > 1]
    several = mixed["cell"].nunique() > 1 or bool(singles)
    bests, lines = [], []
    for cell, table in mixed.groupby("cell", sort=True):
        best, said_of = _best_at(stats, baseline, said, int(cell), table)
        bests.append((int(cell), best, said_of))
        lines.append(f"{_where(stats, int(cell)).capitalize() + ': ' if several else ''}{said_of}.")
    if len(bests) == 1:
        cell, _, said_of = bests[0]
        sentence = f"{said_of}{' (at ' + _where(stats, cell) + ')' if several else ''}."
    elif len(bests) == 2:
        sentence = " ".join(lines[:2])
    else:
        winners: dict[str, list[int]] = {}
        for cell, best, _ in bests:
            winners.setdefault(best, []).append(cell)
        parts = [f"{best} at {_tables(cells)}" for best, cells in winners.items()]
        sentence = ("Each table of several strategies, its best (lowest mean): " + "; ".join(parts)
                    + ". Each one's margins over the runner-up and the baseline are in short, below.")
    return Answer(sentence, tuple(lines + singles))


def _tables(cells: list[int]) -> str:
    return ("table " if len(cells) == 1 else "tables ") + listed([str(c) for c in cells])


# --- a strategy alone at a table ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class Said:
    """One measure of a table of one strategy: its label, its value as written, and, for a share
    with a fair value, (the difference to it, its ± and the fair value)."""

    label: str
    value: str
    fair: tuple[float, float, float] | None = None

    def __str__(self) -> str:
        if self.fair is None:
            return f"{self.label} {self.value}"
        d, h, fair = self.fair
        sure = "" if abs(d) > h else " (not decisive)"
        return (f"{self.label} {self.value}, {'above' if d > 0 else 'below'} its fair {100 * fair:.1f}% by "
                f"{notation.percent(abs(d), h, sign=True)[1:]} percentage points{sure}")


def _singles(stats: Statistics, said: Words) -> list[tuple[dict, str, list[Said]]]:
    """Each table of one strategy: (its cell, its strategy's level, what its table measures say:
    each mean, each share, a share that has a fair value beside it)."""
    alone = [c for c in stats.layout.cells if len(c["strategies"]) == 1]
    if not alone:
        return []
    m = stats.layout.measures
    means = tables.strategy_means(stats)
    summary = tables.table_summary(stats) if m.table_means or m.table_shares else None
    labels = dict(said.labels)
    out = []
    for c in alone:
        parts = []
        if summary is not None:
            row = summary[summary["cell"] == c["cell"]].iloc[0]
            parts = [Said(labels.get(k, k), notation.mean(row[k], row[f"{k} ±"], 2)) for k, _ in m.table_means]
            parts += [Said(labels.get(k, k), notation.share(row[k], row[f"{k}_low"], row[f"{k}_high"]),
                           (row[f"{k} vs fair"], row[f"{k} vs fair ±"], row[f"{k} fair"]) if f"{k} fair" in row
                           else None) for k, _ in m.table_shares]
        out.append((c, level(said, means[means["cell"] == c["cell"]].iloc[0]), parts))
    return out


def _single_lines(singles: list[tuple[dict, str, list[Said]]]) -> list[str]:
    return [f"{c['strategies'][0]} alone at {c['players']} players (table {c['cell']}): {level_}"
            + (f"; {'; '.join(map(str, parts))}" if parts else "") + "." for c, level_, parts in singles]


def _single_answer(singles: list[tuple[dict, str, list[Said]]]) -> Answer:
    """Every table plays one strategy: its measures are the answer. The sentence gives the first of
    them at every table (its game's first table measure, or the strategy's level), and how each
    share with a fair value stands to it."""
    lines = _single_lines(singles)
    if len(singles) == 1:
        return Answer(lines[0], tuple(lines))
    where = [f"{c['players']} players" if len({x['players'] for x, _, _ in singles}) == len(singles)
             else f"table {c['cell']}" for c, _, _ in singles]
    names = list(dict.fromkeys(c["strategies"][0] for c, _, _ in singles))
    who = names[0] if len(names) == 1 else "a strategy"
    if singles[0][2]:
        first = singles[0][2][0].label
        series = ", ".join(f"{parts[0].value} at {w}" for (_, _, parts), w in zip(singles, where))
        head = f"{who} alone at each table: {first} {series}"
    else:
        head = f"{who} alone at each table: " + ", ".join(f"{said_} at {w}" for (_, said_, _), w in zip(singles, where))
    fair = []
    for k, part in enumerate(singles[0][2]):
        if part.fair is None:
            continue
        diffs = [parts[k].fair for _, _, parts in singles]
        above = sum(d > 0 for d, _, _ in diffs)
        sure = sum(abs(d) > h for d, h, _ in diffs)
        fair.append(f"{part.label} is above its fair share at {above} of {len(diffs)} tables, decisively off it at "
                    f"{sure}")
    return Answer("; ".join([head] + fair) + " (95% intervals; every measure of each table in short, below).",
                  tuple(lines))


# --- a tournament -------------------------------------------------------------------------------------------------

def _tournament_answer(pairs: pd.DataFrame) -> Answer:
    """One player count: its ranking's first; several: which strategy ranks first at how many."""
    lines, firsts = _ranking(pairs)
    if len(lines) == 1:
        return Answer(lines[0], tuple(lines))
    counts: dict[str, list[int]] = {}
    for players, first in firsts:
        counts.setdefault(first, []).append(players)
    ranked = sorted(counts.items(), key=lambda item: -len(item[1]))
    parts = [f"{name} at {len(ns)} ({listed([str(n) for n in ns])} players)" for name, ns in ranked]
    sentence = (f"Head to head, {ranked[0][0]} ranks first at {len(ranked[0][1])} of {len(lines)} player counts"
                f" ({listed([str(n) for n in ranked[0][1]])} players)"
                + (f", {'; '.join(parts[1:])}" if len(parts) > 1 else "")
                + "; each ranking, with how often its first beats its opponents, is in short, below.")
    return Answer(sentence, tuple(lines))


def _ranking(pairs: pd.DataFrame) -> tuple[list[str], list[tuple[int, str]]]:
    """Per player count, the strategies ranked by the share of deals they win against their
    opponents head to head (on average over the opponents); and each ranking's first."""
    lines, firsts = [], []
    for players, group in pairs.groupby("players"):
        rank = group.groupby("strategy").agg(beats=("beats", "mean"), opponents=("opponent", "count"),
                                             decisive=("low", lambda low: int((low > 0.5).sum())))
        rank = rank.sort_values("beats", ascending=False, kind="stable")
        best = rank.index[0]
        order = ", ".join(f"{name} {100 * r.beats:.1f}%" for name, r in rank.iterrows())
        lines.append(f"At {players} players {best} ranks first, head to head: it beats its opponents on "
                     f"{100 * rank.loc[best, 'beats']:.1f}% of deals on average, decisively more than half against "
                     f"{rank.loc[best, 'decisive']} of {rank.loc[best, 'opponents']}; the ranking: {order}.")
        firsts.append((int(players), best))
    return lines, firsts
