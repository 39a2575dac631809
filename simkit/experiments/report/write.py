"""`simkit report DIR` of an experiment: its statistics as report.md and a self-contained
report.html (simkit.reports.page), with the figures as PNG files beside them. Time and memory do
not depend on the number of hands: everything is read off the run's statistics (stats.parquet)."""

import json
from pathlib import Path

import pandas as pd

from simkit import games
from simkit.core.errors import SimkitError
from simkit.experiments import stats_file
from simkit.experiments.report import tables
from simkit.experiments.report.answer import answered
from simkit.experiments.report.captions import captions
from simkit.experiments.report.summary import (
    VARIANTS,
    figures_for,
    marked,
    paired_table,
    paired_title,
    summary,
    title_of,
)
from simkit.experiments.report.variants import cell_names, rules_text, swept_rules
from simkit.experiments.report.variants import shown as variants_shown
from simkit.experiments.statistics import Statistics
from simkit.reports import glossary, page
from simkit.reports.tables import markdown, written
from simkit.strategies import registry

RECORD = "stats.parquet"  # what an experiment's folder holds


def is_experiment(folder: Path) -> bool:
    """Whether `folder` holds an experiment's statistics (its record)."""
    return (Path(folder) / RECORD).is_file()


SAID_ONCE = ("baseline", "parameter", "measure")  # columns that, the same in every row, the title says instead


def _without(frame: pd.DataFrame, constant: list[str]) -> pd.DataFrame:
    """A table without the run's constant columns, nor those of SAID_ONCE the same in every row."""
    same = [c for c in SAID_ONCE if c in frame.columns and frame[c].nunique() == 1]
    return frame.drop(columns=[c for c in constant if c in frame.columns] + same)


def _titled(title: str, frame: pd.DataFrame) -> str:
    """A sweep's title names what its one parameter and measure are, once."""
    said = [str(frame[c].iloc[0]) for c in ("measure", "parameter") if c in frame.columns and frame[c].nunique() == 1]
    return f"{title}: {' along '.join(said)}" if title == "Parameter sweep" and said else title


def _constant_columns(stats: Statistics) -> list[str]:
    """Columns the same in every row of every table (one cell, one player count): said once, in
    the header, instead."""
    cells = stats.layout.cells
    return (["cell"] if len(cells) == 1 else []) + (["players"] if len({c["players"] for c in cells}) == 1 else [])


def _header(stats: Statistics, meta: dict) -> str:
    """The report's first paragraph, in prose: the game, the tables, the rules, what was played."""
    game = games.get(meta.get("game", games.DEFAULT))
    mode = meta.get("match", {}).get("mode", "single")
    unit = game.unit(mode)
    cells = stats.layout.cells
    players = sorted({c["players"] for c in cells})
    count = f"{players[0]}" if len(players) == 1 else ", ".join(map(str, players[:-1])) + f" and {players[-1]}"
    tables_word = f"{len(cells)} tables" if len(cells) > 1 else "one table"
    swept = swept_rules(stats)
    rules = rules_text({k: v for k, v in meta.get("rules", {}).items() if k not in swept}) or "the defaults"
    if swept:
        rules += f"; swept: {', '.join(swept)} (a table per variant)"
    extra = ", ".join(f"{k} {v}" for k, v in meta.get("match", {}).items() if k != "mode")
    play = f"single {game.unit()}" if mode == "single" else f"matches: {mode}" + (f", {extra}" if extra else "")
    seating = ("seats rotated: every strategy plays every seat of every deal" if meta.get("seating") == "rotate"
               else "seats as listed")
    per_table = meta.get("hands")
    speed = f" at {meta['hands_per_s']:,} {unit}/s" if meta.get("hands_per_s") else ""
    marked = registry.ceilings(game.name, dict.fromkeys(name for c in cells for name in c["strategies"]))
    ceiling = (f" {' and '.join(m + registry.CEILING_MARK for m in marked)} {registry.CEILING_NOTE}."
               if marked else "")
    return (f"{game.title}, {count} players at {tables_word} ({play}); rules: {rules}; {seating}.{ceiling} "
            + (f"{per_table:,} deals per table and rotation: " if isinstance(per_table, int) else "")
            + f"{tables.played(stats):,} {unit} played in all{speed}, {tables.rows_played(stats):,} seat rows "
            f"(one per seat of each {game.deal}{'' if mode == 'single' else ' and match'}); seed "
            f"{meta.get('seed', '?')}. Every ± is a 95% interval over deals (a share's is the longer side of "
            "its interval, Wilson's for the effective number of trials), and n counts deals: a deal's seats and "
            f"rotations share its {tables.words(stats).dealt}, so they are averaged first."
            + (f" Assumed: {meta['assumption']}." if meta.get("assumption") else ""))


def make_report(folder: str, baseline: str | None = None) -> Path:
    """Write an experiment folder's report.md, report.html and PNG figures; returns the HTML path.
    The baseline of the paired differences is the run's (its spec) unless one is given."""
    out = Path(folder)
    path = out / RECORD
    if not path.is_file():
        raise SimkitError(f"{folder} holds no stats.parquet (run `simkit run` first)")
    stats = stats_file.read(path)
    try:
        meta = json.loads((out / "meta.json").read_text()) if (out / "meta.json").is_file() else {}
        meta = dict(meta)
    except (OSError, ValueError, TypeError) as e:
        raise SimkitError(f"{out / 'meta.json'} is damaged and cannot be read ({e}); run `simkit run` again") from None
    meta = {**stats_file.metadata(path).get("run", {}), **meta}
    baseline = _baseline(stats, meta, baseline)
    found = summary(stats, baseline)
    game_name = meta.get("game", games.DEFAULT)
    shown = {title: marked(game_name, frame) for title, frame in found.items()}  # a ceiling marked where shown
    drawn = figures_for(stats, shown, baseline, game_name)
    name = str(meta.get("experiment", out.name))
    empty = (f"(none: {baseline} is not in the lineup)" if meta.get("seating", "rotate") == "rotate" else
             "(none: pairs on the same deal and seat need seating = \"rotate\")")
    constant = _constant_columns(stats)
    main = {title_of(found), "Seat position effect", "Parameter sweep"}  # tables of the main measure
    percent = {title: tables.is_share(stats) and (title in main or title.startswith("Paired")) for title in found}
    ruled = cell_names(stats)
    sections = [(_titled(title, frame), markdown(_written(title, frame, constant, percent[title], ruled)))
                if len(frame) else (title, empty) for title, frame in shown.items()]
    names = dict.fromkeys(key[3] for key in stats.layout.groups if key[0] == "strategy")
    said = tables.words(stats)
    said_so = answered(stats, baseline, found, game_name)
    short = [registry.marked_text(game_name, line, names) for line in said_so.lines]
    sections.insert(0, ("In short", "\n".join(f"- {line}" for line in short)))
    drawn, dealt_line = _dealt(stats, sections, drawn, said, meta)
    if dealt_line:
        short.append(dealt_line)
        sections[0] = ("In short", "\n".join(f"- {line}" for line in short))
    sentence = registry.marked_text(game_name, said_so.sentence, names)
    means = found[title_of(found)]
    caption_of = captions(said, int(means["n"].min()) if len(means) else 0, paired_table(found), baseline, means)
    from simkit.experiments.report.dealt import DRAWN

    drawn_at_random = bool(stats.layout.by) and all(n in DRAWN for n in stats.layout.by.names)
    caption_of["deal-values.png"] = ("What one more of each feature of what the seat was dealt goes with, per "
                                     "strategy (the slope over the seat's rows), with its 95% interval over deals; "
                                     + ("drawn at random, so what it does." if drawn_at_random else "observational."))
    headline = "variants.png" if VARIANTS in found else "sweep.png" if "sweep.png" in drawn else None
    beside = _beside(found, sections, drawn, headline)
    report = page.Page(name, _header(stats, meta), (sentence,) + ((dealt_line,) if dealt_line else ()),
                       tuple(page.Section(title, text, tuple(beside.get(title, ())), "".join(note))
                             for title, text, *note in sections)
                       + (glossary.section(glossary.EXPERIMENT + (glossary.VARIANTS if VARIANTS in found else ()),
                                           said),),
                       top=tuple(beside.get("", ())), contents=True, side=True, question=meta.get("question", ""))
    return page.write(out, report, drawn, caption_of)


def _dealt(stats: Statistics, sections: list, drawn: dict, said, meta: dict) -> tuple[dict, str]:
    """A run grouped by the deal (a spec's `by`): the section "What the deal is worth", its figure,
    and its sentence for the report's short answers."""
    from simkit.experiments.report import dealt

    if not stats.layout.by or not stats.by:
        return drawn, ""
    lower = True  # the main measure: lower is better (games.Measures)
    found = dealt.with_gaps(stats, dealt.values(stats), lower)
    if found.empty:
        return drawn, ""
    unit = said.unit
    line = dealt.sentence(found, lower, unit)
    constant = _constant_columns(stats)
    shown = found.assign(**{"value of one more": [f"{v:+.3f} ± {h:.3f}" for v, h in zip(found["value"],
                                                                                      found["ci95"])],
                            "seat rows": [f"{n:,}" for n in found["n"]]})
    shown = shown.drop(columns=[c for c in ("value", "ci95", "n", "gap", "gap_ci95") + tuple(constant)
                                if c in shown.columns])
    means = dealt.group_means(stats)
    means = means.assign(mean=[f"{m:.3f} ± {h:.3f}" for m, h in zip(means["mean"], means["ci95"])],
                         n=[f"{n:,}" for n in means["n"]]).drop(columns=["ci95"] + [c for c in constant
                                                                                   if c in means.columns])
    note = (f"{line} Each value is what one more of a feature of what the seat was dealt goes with, in {unit}: "
            "the least-squares slope over the seat's rows (for a feature of 0 or 1, the difference of the two "
            "groups' means; negative: fewer), with its 95% interval over deals. " + dealt.caveat(stats.layout.by.names))
    sections.append((dealt.TITLE, markdown(shown), note))
    sections.append(("Each group's mean by the deal", markdown(means)))
    drawn = {**drawn, "deal-values.png": dealt.figure(found, unit)}
    return drawn, line


def _written(title: str, frame: pd.DataFrame, constant: list[str], percent: bool,
             ruled: dict[int, str]) -> pd.DataFrame:
    """A table as the report writes it: its numbers formatted, the run's constant columns left out,
    and where rule options are swept each table's rules beside its number (`ruled`)."""
    if title == VARIANTS:  # shares and means in one table: each row formatted as what it is
        return _without(variants_shown(frame), constant).rename(columns={"cell": "table"})
    out = written(_without(frame, constant), percent)
    if ruled and "cell" in out.columns:
        out.insert(list(out.columns).index("cell") + 1, "rules", out["cell"].map(ruled))
    return out.rename(columns={"cell": "table"})


def _baseline(stats: Statistics, meta: dict, given: str | None) -> str:
    """The baseline of the paired differences: the run's own (its spec's, which may sit in no cell:
    the report says so), or one given, which must be a strategy of the run: an unknown one would
    replace the report by one without its comparisons. Checked before anything is written."""
    own = meta.get("baseline", "lowest")
    if not given or given == own:
        return own
    names = list(dict.fromkeys(key[3] for key in stats.layout.groups if key[0] == "strategy"))
    if given in names:
        return given
    try:
        label = str(registry.canonical(meta.get("game", games.DEFAULT), given))
    except (SimkitError, ValueError, KeyError):
        label = None
    if label in names or label == own:
        return label
    raise SimkitError(f"--baseline {given} is not a strategy of this run (its strategies: {', '.join(names)})")


# each figure beside the table it draws ("": at the top, with the answer; MEANS: the main table)
MEANS = "the main table"
BESIDE = {"difference.png": "", "comparison.png": MEANS, "distribution.png": MEANS, "match-wins.png": "Match wins",
          "donkey.png": "Became the donkey (E-Z-E-L)", "loss-causes.png": "Rounds lost by cause",
          "first-signal.png": "Turn of the first signal", "head-to-head.png": "Head to head (tournament)",
          "sweep.png": "Parameter sweep", "hand-length.png": "Hand length", "variants.png": VARIANTS,
          "deal-values.png": "What the deal is worth"}


def _beside(found: dict, sections: list[tuple[str, str]], images: dict, headline: str | None) -> dict[str, list[str]]:
    """Which figures go with which section (a figure of its own gets a section of its own). Where
    rule options or parameters are swept, the figure of the variants or of the sweep is the
    answer's (`headline`), at the top, and the paired differences' goes with their table."""
    titles = {title for title, *_ in sections}
    out: dict[str, list[str]] = {}
    for n in sorted(images, key=lambda n: n != headline) if headline else images:
        where = BESIDE.get(n, "Figures")
        if headline and n in (headline, "difference.png"):
            where = "" if n == headline else paired_title(found)
        where = title_of(found) if where == MEANS else where
        where = next((t for t in titles if t.startswith(f"{where}: ")), where)  # a title that says more
        if where and where not in titles:
            sections.append((where, ""))
            titles.add(where)
        out.setdefault(where, []).append(n)
    return out
