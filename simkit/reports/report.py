"""`simkit report DIR`: a run's statistics as report.md and a self-contained report.html, with the
figures as PNG files beside them (embedded in the HTML). The tables and figures are also one call
away for notebooks: `summary(results)` and `figures_for(results)`. Time and memory do not depend
on the number of hands: everything is read off the run's statistics (stats.parquet)."""

import base64
import html
import io
import json
import re
from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd

from simkit import games, notation, registry
from simkit.errors import SimkitError
from simkit.experiments import statistics as st
from simkit.experiments.statistics import Statistics
from simkit.files import atomic_path
from simkit.reports import figures, tables
from simkit.reports.answer import answer
from simkit.reports.captions import captions
from simkit.strategy_spec import split

TITLES = {"penalty": "Mean penalty per strategy", "total": "Mean match total per strategy",
          **{m: f"Share of {what} lost per strategy" for m, what in tables.SHARES.items()}}
FEWER = {"penalty": "fewer points", "total": "fewer points",
         **{m: f"fewer {what} lost" for m, what in tables.SHARES.items()}}


def _stats(results) -> Statistics:
    """Statistics, from a run's Results (experiments.run) or as they are."""
    return results.stats if hasattr(results, "stats") else results


def summary(results, baseline: str = "lowest") -> dict[str, pd.DataFrame]:
    """Every statistics table of the report, by title (numbers unformatted, each with its n)."""
    stats = _stats(results)
    value = tables.measure(stats)
    out = {TITLES[value]: tables.strategy_means(stats)}
    if value == "penalty":
        out["Went out / held the ass at the end"] = tables.shares(stats)
    elif value == "total":
        out["Match wins"] = _mixed(tables.win_rates(stats))
    elif value == "lost":
        if "donkey" in stats.layout.seat_measures:
            out["Became the donkey (E-Z-E-L)"] = _mixed(tables.donkey_rates(stats))
        out["Rounds lost by cause"] = tables.loss_causes(stats)
        out["How rounds end"] = tables.round_outcomes(stats)
        out["Turn of the first signal"] = tables.first_signal(stats)
    if stats.layout.measures.means:
        out["Per strategy and game (means)"] = tables.seat_means(stats)
    if stats.layout.measures.table_means:
        out["Per table and game"] = tables.table_summary(stats)
    out[f"Paired difference to {baseline} (same deal, same seat; negative = {FEWER[value]})"] = \
        tables.paired_differences(stats, baseline)
    sweep = any(c["sweep"] for c in stats.layout.cells)
    pairs = tables.pairwise(stats) if not sweep else pd.DataFrame()
    if len(pairs) and len(stats.layout.cells) > 1:  # a tournament: every cell another pairing
        out["Head to head (tournament)"] = pairs
    if sweep:
        out["Parameter sweep"] = tables.sweep_curves(stats, baseline)
    out["Seat position effect"] = tables.seat_effect(stats)
    return out


def _mixed(frame: pd.DataFrame) -> pd.DataFrame:
    """The rows of tables with several strategies: at a table of one, each seat's share of the
    match wins or donkeys is one in the number of players by construction."""
    if not len(frame):
        return frame
    return frame[frame.groupby("cell")["strategy"].transform("nunique") > 1].reset_index(drop=True)


def _marked(game: str, frame: pd.DataFrame) -> pd.DataFrame:
    """A table as the report shows it: a ceiling's label marked (registry.marked)."""
    out = frame.copy()
    for column in ("strategy", "opponent"):
        if column in out.columns:
            out[column] = [registry.marked(game, v) for v in out[column]]
    if "strategies" in out.columns:  # a lineup as one text
        out["strategies"] = [_marked_lineup(game, v) for v in out["strategies"]]
    return out


def _marked_lineup(game: str, text: str) -> str:
    return registry.marked_text(game, text, [str(s) for s in split(text)])


def figures_for(results, stats_tables: dict[str, pd.DataFrame] | None = None,
                baseline: str = "lowest", game: str = games.DEFAULT) -> dict[str, plt.Figure]:
    """The report's matplotlib figures by file name (close them when done); `game` marks a
    ceiling's label in the figures that draw from the statistics themselves."""
    stats = _stats(results)
    found = stats_tables or summary(stats, baseline)
    value = tables.measure(stats)
    means = found[TITLES[value]]  # a row per table: never pooled over tables
    out = {}
    diffs = paired_table(found)
    if diffs is not None and len(diffs):  # the main answer first
        out["difference.png"] = figures.forest(diffs, value, baseline, stats.layout.cells)
    out["comparison.png"] = figures.strategy_comparison(means, value)
    if "Match wins" in found:
        out["match-wins.png"] = figures.shares(found["Match wins"], "win", "low", "high",
                                               "share of matches won (ties shared; 95% interval over deals)")
    if "Became the donkey (E-Z-E-L)" in found:
        out["donkey.png"] = figures.shares(found["Became the donkey (E-Z-E-L)"], "donkey", "donkey_low", "donkey_high",
                                           "share of matches ending as the donkey (95% interval over deals)")
    if "Rounds lost by cause" in found:
        out["loss-causes.png"] = figures.loss_causes(found["Rounds lost by cause"])
    if "Parameter sweep" in found and len(found["Parameter sweep"]):
        out["sweep.png"] = figures.sweep_curves(found["Parameter sweep"], value in tables.SHARES)
    if "Head to head (tournament)" in found:
        out["head-to-head.png"] = figures.pairwise_heatmap(found["Head to head (tournament)"])
    if stats.layout.measures.table_histogram == "first_signal":
        out["first-signal.png"] = figures.first_signal_turns(stats)
    elif value not in tables.SHARES:
        out["distribution.png"] = figures.distributions(stats, value, lambda name: registry.marked(game, name))
    if stats.layout.measures.table_histogram == "tricks":
        out["hand-length.png"] = figures.hand_lengths(stats, lambda text: _marked_lineup(game, text))
    if "Per strategy and game (means)" in found:
        means = found["Per strategy and game (means)"]
        counted = [m for m, _ in stats.layout.measures.means]
        out["seat-means.png"] = figures.seat_means(means, counted, "times per game and seat")
    if stats.layout.measures.table_histogram == "turns":
        out["game-length.png"] = figures.hand_lengths(stats, lambda text: _marked_lineup(game, text),
                                                      "turns per game", log=True)
    return out


def findings(stats: dict[str, pd.DataFrame], baseline: str) -> list[str]:
    """The report's answer in a few sentences, read off its own tables."""
    lines = []
    title = title_of(stats)
    means = stats[title]
    value = next(v for v, t in TITLES.items() if t == title)
    noun = tables.SHARES.get(value, "")
    unit = tables.MEAN_UNIT[value] if noun else "per hand and seat"
    pairs = stats.get("Head to head (tournament)")
    if pairs is not None:  # each cell is another pairing: rank by head-to-head results instead
        for players, group in pairs.groupby("players"):
            rank = group.groupby("strategy").agg(beats=("beats", "mean"), opponents=("opponent", "count"),
                                                 decisive=("low", lambda low: int((low > 0.5).sum())))
            best = rank["beats"].idxmax()
            lines.append(f"{players} players, head to head: {best} beats its opponents on "
                         f"{100 * rank.loc[best, 'beats']:.1f}% of deals on average, decisively more than half "
                         f"against {rank.loc[best, 'decisive']} of {rank.loc[best, 'opponents']}.")
        means = means.iloc[0:0]
    mixed = means.groupby("cell")["strategy"].transform("nunique") > 1
    if mixed.any():  # a table of one strategy says nothing about which is better
        means = means[mixed]
    donkey = stats.get("Became the donkey (E-Z-E-L)")
    if unit != "per hand and seat" and 0 < means["cell"].nunique() <= 6 and "Parameter sweep" not in stats:
        for cell, group in means.groupby("cell"):  # Ezelen, a few tables: each ranked
            ranked = group.sort_values("mean")
            text = ", ".join(f"{r.strategy} {notation.percent(r.mean, r.ci95)}" for r in ranked.itertuples())
            line = f"Table {cell} ({group['players'].iloc[0]} players), {noun} lost: {text}"
            if donkey is not None and len(donkey):
                d = donkey[donkey["cell"] == cell].sort_values("donkey")
                line += "; the donkey: " + ", ".join(
                    f"{r.strategy} {notation.share(r.donkey, r.donkey_low, r.donkey_high)}" for r in d.itertuples())
            lines.append(line + ".")
        means = means.iloc[0:0]
    for players, group in means.groupby("players"):
        best = group.loc[group["mean"].idxmin()]
        where = f" (cell {best['cell']})" if group["cell"].nunique() > 1 else ""
        if unit == "per hand and seat":
            lines.append(f"{players} players: fewest points for {best['strategy']}{where}, "
                         f"{best['mean']:.2f} ± {best['ci95']:.2f} per hand and seat.")
        else:
            lines.append(f"{players} players: fewest {noun} lost by {best['strategy']}{where}, "
                         f"{notation.percent(best['mean'], best['ci95'])}.")
    diffs = paired_table(stats)
    if diffs is not None and len(diffs):
        better = diffs[diffs["decisive"] & (diffs["difference"] < 0)]
        worse = diffs[diffs["decisive"] & (diffs["difference"] > 0)]
        lines.append(f"Against {baseline} on the same deals: {len(better)} of {len(diffs)} comparisons decisively "
                     f"better, {len(worse)} decisively worse, {len(diffs) - len(better) - len(worse)} undecided"
                     + (f" ({_named(diffs, better, worse, unit != 'per hand and seat')})." if len(diffs) <= 8 else "."))
    sweep = stats.get("Parameter sweep")
    if sweep is not None and len(sweep):
        for (param, players, strategy), curve in sweep.groupby(["parameter", "players", "strategy"]):
            if curve["value"].nunique() < 2 or not param.startswith(f"{strategy.split(' (', 1)[0]}."):
                continue
            best = curve.loc[curve["estimate"].idxmin()]
            rivals = curve[(curve["estimate"] - curve["ci95"] <= best["estimate"] + best["ci95"])
                           & (curve["value"] != best["value"])]
            tie = (f"; intervals overlapping it: {', '.join(f'{v:g}' for v in rivals['value'])}" if len(rivals)
                   else "; no other value's interval overlaps it")
            amount = (notation.percent(best["estimate"], best["ci95"], sign=best["measure"].startswith("difference"))
                      if unit != "per hand and seat" else notation.difference(best["estimate"], best["ci95"]))
            lines.append(f"{strategy}, {players} players: best at {param} = {best['value']:g} "
                         f"({best['measure']} {amount}){tie}.")
    return lines


def _named(diffs: pd.DataFrame, better: pd.DataFrame, worse: pd.DataFrame, percent: bool) -> str:
    """Each comparison by name: better, worse, undecided, with its difference ± its interval
    (`percent`: in percentage points)."""
    many = diffs["cell"].nunique() > 1

    def name(r) -> str:
        return (f"{r.strategy}{f' at table {r.cell}' if many else ''} "
                f"{notation.value(r.difference, r.ci95, percent, sign=True)}")

    rest = diffs[~diffs.index.isin(better.index) & ~diffs.index.isin(worse.index)]
    parts = [(f"{word}: " + ", ".join(name(r) for r in frame.sort_values("difference").itertuples()))
             for word, frame in (("better", better), ("worse", worse), ("undecided", rest)) if len(frame)]
    return "; ".join(parts)


def paired_table(found: dict[str, pd.DataFrame]) -> pd.DataFrame | None:
    """The report's table of paired differences to the baseline, if it has one."""
    return next((frame for title, frame in found.items() if title.startswith("Paired difference")), None)


def title_of(stats: dict[str, pd.DataFrame]) -> str:
    return next(title for title in stats if title in TITLES.values())


def _fmt(frame: pd.DataFrame, percent: bool = False) -> pd.DataFrame:
    """Numbers as a reader wants them (simkit.notation): ± intervals, shares in percent with
    theirs; `percent`: the table's means and differences are shares (Ezelen's rounds lost)."""
    out = frame.copy()
    for prefix in [c for c in out.columns if f"{c}_low" in out.columns and f"{c}_high" in out.columns]:
        out[prefix] = [notation.share(*r) for r in zip(out[prefix], out[f"{prefix}_low"], out[f"{prefix}_high"])]
        out = out.drop(columns=[f"{prefix}_low", f"{prefix}_high"])
    for prefix in [c for c in out.columns if f"{c} ±" in out.columns]:  # a mean and its interval: one column
        out[prefix] = [notation.mean(m, h, 2) for m, h in zip(out[prefix], out[f"{prefix} ±"])]
        out = out.drop(columns=[f"{prefix} ±"])
    for col in ("win", "beats"):
        if col in out.columns:
            out[col] = [notation.share(*r) for r in zip(out[col], out["low"], out["high"])]
            out = out.drop(columns=["low", "high"])
    for col in out.columns:
        if col in ("mean", "difference", "estimate"):
            sign = "+" if col != "mean" else ""
            out[col] = [f"{100 * m:{sign}.2f}{'%' if not sign else ''}" if percent else f"{m:{sign}.3f}"
                        for m in out[col]]
        elif col == "ci95":
            out[col] = [f"± {100 * h:.2f}" if percent else f"± {h:.3f}" for h in out[col]]
        elif col in ("n", "n signalled"):
            out[col] = [f"{n:,}" if n == n else "0" for n in out[col]]
        elif col == "decisive":
            out[col] = out[col].map({True: "yes", False: "no"})
    if percent:  # the means carry their %, the differences are in percentage points
        out = out.rename(columns={"difference": "difference, pp", "estimate": "estimate, pp"}
                         if "measure" not in frame.columns or frame["measure"].iloc[0].startswith("difference")
                         else {"difference": "difference, pp"})
    if "n" in out.columns:  # n last, beside the numbers it belongs to
        out = out[[c for c in out.columns if c != "n"] + ["n"]]
    return out


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
    rules = ", ".join(f"{k} = {v}" for k, v in meta.get("rules", {}).items()) or "the defaults"
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
            "rotations share its cards, so they are averaged first."
            + (f" Assumed: {meta['assumption']}." if meta.get("assumption") else ""))


def _atomic_write(path: Path, data: bytes) -> None:
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)


def make_report(folder: str, baseline: str | None = None) -> Path:
    """Write report.md, report.html and the PNG figures into `folder`; returns the HTML path.
    The baseline of the paired differences is the run's (its spec) unless one is given. A grading
    run's folder gets the grading report (simkit.reports.grading)."""
    out = Path(folder)
    if not out.is_dir():
        raise SimkitError(f"{folder} is not a folder (give one that `simkit run`, `tune`, `field` or `grade` wrote)")
    from simkit.whos_the_ass.grading import is_grading

    if is_grading(out):
        from simkit.reports.grading import make_grading_report

        return make_grading_report(folder)
    from simkit.reports.tuning import is_tuning, make_tuning_report

    if is_tuning(out):
        return make_tuning_report(folder)
    from simkit.reports.field import is_field, make_field_report

    if is_field(out):  # the analysis redone from the stored payoff table, then its report
        from simkit.field.analysis import analyse

        analyse(out)
        return make_field_report(folder)
    path = out / "stats.parquet"
    if not path.is_file():
        raise SimkitError(f"{folder} holds no stats.parquet (run `simkit run` first)")
    stats = st.read(path)
    try:
        meta = json.loads((out / "meta.json").read_text()) if (out / "meta.json").is_file() else {}
        meta = dict(meta)
    except (OSError, ValueError, TypeError) as e:
        raise SimkitError(f"{out / 'meta.json'} is damaged and cannot be read ({e}); run `simkit run` again") from None
    meta = {**st.metadata(path).get("run", {}), **meta}
    baseline = _baseline(stats, meta, baseline)
    found = summary(stats, baseline)
    game_name = meta.get("game", games.DEFAULT)
    shown = {title: _marked(game_name, frame) for title, frame in found.items()}  # a ceiling marked where shown
    images = images_of(figures_for(stats, shown, baseline, game_name))
    name = str(meta.get("experiment", out.name))
    empty = (f"(none: {baseline} is not in the lineup)" if meta.get("seating", "rotate") == "rotate" else
             "(none: pairs on the same deal and seat need seating = \"rotate\")")
    constant = _constant_columns(stats)
    main = {title_of(found), "Seat position effect", "Parameter sweep"}  # tables of the main measure
    percent = {title: tables.is_share(stats) and (title in main or title.startswith("Paired")) for title in found}
    sections = [(_titled(title, frame), tables.markdown(_fmt(_without(frame, constant), percent[title])))
                if len(frame) else (title, empty) for title, frame in shown.items()]
    intro = _header(stats, meta)
    names = dict.fromkeys(key[3] for key in stats.layout.groups if key[0] == "strategy")
    short = [registry.marked_text(game_name, line, names) for line in findings(found, baseline)]
    sections.insert(0, ("In short", "\n".join(f"- {line}" for line in short)))
    sentence = registry.marked_text(game_name, answer(stats, baseline), names)
    means = found[title_of(found)]
    caption_of = captions(tables.measure(stats), int(means["n"].min()) if len(means) else 0, paired_table(found),
                          baseline, means)
    beside = _beside(found, sections, images)
    md = [f"# {name}", "", intro, "", f"**{sentence}**", ""]
    for n in beside.get("", []):
        md += [f"![{n}]({n})", "", f"*{caption_of[n]}*", ""]
    for title, body in sections:
        md += [f"## {title}", ""] + ([body, ""] if body else [])
        for n in beside.get(title, []):
            md += [f"![{n}]({n})", "", f"*{caption_of[n]}*", ""]
    markdown = "\n".join(md).encode()
    body = [f"<h1>{html.escape(name)}</h1>", f"<p>{html.escape(intro)}</p>",
            f"<p class='answer'><strong>{html.escape(sentence)}</strong></p>"]
    body += [figure_html(n, images[n], caption_of[n]) for n in beside.get("", [])]
    body.append("<nav><strong>Contents</strong><ol>" + "".join(
        f"<li><a href='#s{k}'>{html.escape(title)}</a></li>" for k, (title, _) in enumerate(sections)) + "</ol></nav>")
    for k, (title, text) in enumerate(sections):
        table = html_table(text) if text else ""
        figs = "".join(figure_html(n, images[n], caption_of[n]) for n in beside.get(title, []))
        inner = f"<div class='side'><div class='tbl'>{table}</div><div class='figs'>{figs}</div></div>" \
            if table and figs else table + figs
        body.append(f"<section id='s{k}'><h2>{html.escape(title)}</h2>{inner}</section>")
    write_all(out, {**images, "report.md": markdown, "report.html": page(name, body)})
    return out / "report.html"


def page(name: str, body: list[str]) -> bytes:
    """A report's self-contained HTML page: its title and its body's parts (figures embedded)."""
    return ("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'><title>" + html.escape(name)
            + "</title><style>" + _STYLE + "</style></head><body>" + "\n".join(body) + "</body></html>").encode()


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
        from simkit import registry

        label = str(registry.canonical(meta.get("game", games.DEFAULT), given))
    except (SimkitError, ValueError, KeyError):
        label = None
    if label in names or label == own:
        return label
    raise SimkitError(f"--baseline {given} is not a strategy of this run (its strategies: {', '.join(names)})")


def images_of(found: dict[str, plt.Figure]) -> dict[str, bytes]:
    """The figures as PNG bytes (and closed): written with the report's text, not before it."""
    images = {}
    try:
        for name, fig in found.items():
            buffer = io.BytesIO()
            fig.savefig(buffer, dpi=110, format="png")
            images[name] = buffer.getvalue()
    finally:
        for fig in found.values():
            plt.close(fig)
    return images


def write_all(out: Path, files: dict[str, bytes]) -> None:
    """Write the report's files, each through atomic_path, only once all of them are made: an error
    while making the report leaves the earlier report whole (report.html last, so that the HTML's
    figures are already the new ones when it is)."""
    for name, data in files.items():
        _atomic_write(out / name, data)


# each figure beside the table it draws ("": at the top, with the answer; MEANS: the main table)
MEANS = "the main table"
BESIDE = {"difference.png": "", "comparison.png": MEANS, "distribution.png": MEANS, "match-wins.png": "Match wins",
          "donkey.png": "Became the donkey (E-Z-E-L)", "loss-causes.png": "Rounds lost by cause",
          "first-signal.png": "Turn of the first signal", "head-to-head.png": "Head to head (tournament)",
          "sweep.png": "Parameter sweep", "hand-length.png": "Hand length"}


def _beside(found: dict, sections: list[tuple[str, str]], images: dict) -> dict[str, list[str]]:
    """Which figures go with which section (a figure of its own gets a section of its own)."""
    titles = {title for title, _ in sections}
    out: dict[str, list[str]] = {}
    for n in images:
        where = BESIDE.get(n, "Figures")
        where = title_of(found) if where == MEANS else where
        where = next((t for t in titles if t.startswith(f"{where}: ")), where)  # a title that says more
        if where and where not in titles:
            sections.append((where, ""))
            titles.add(where)
        out.setdefault(where, []).append(n)
    return out


_STYLE = (
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:86em;margin:auto;"
    "padding:0 1.5em 3em;color:#222;line-height:1.45}"
    "h1{margin:0.8em 0 0.3em}h2{border-bottom:1px solid #ddd;padding-bottom:0.2em;margin-top:1.8em}"
    ".answer{font-size:1.1em;background:#f3f6fa;padding:0.6em 0.8em;border-left:4px solid #3465a4}"
    "nav{background:#fafafa;border:1px solid #e3e3e3;padding:0.5em 1.2em;margin:1em 0}"
    "nav ol{margin:0.3em 0;padding-left:1.4em;columns:2 18em}nav a{color:#3465a4;text-decoration:none}"
    "table{border-collapse:collapse;font-size:0.92em}td,th{border:1px solid #ccc;padding:2px 8px}"
    "th{background:#f3f3f3}.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}"
    ".t{text-align:left}tr.decisive td{font-weight:bold}"
    ".side{display:flex;flex-wrap:wrap;gap:1.5em;align-items:flex-start}"
    ".side>.tbl{flex:1 1 32em;overflow-x:auto}.side>.figs{flex:1 1 30em;min-width:0}"
    "img{max-width:100%;height:auto}figure{margin:0.8em 0}figcaption{color:#444;font-size:0.9em}"
    "@media print{body{max-width:none;font-size:10pt}nav{display:none}"
    "section,figure,table,tr{break-inside:avoid}h2{break-after:avoid}}"
)


def figure_html(name: str, data: bytes, caption: str) -> str:
    return (f'<figure><img alt="{name}" src="data:image/png;base64,{base64.b64encode(data).decode()}">'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>")


def html_table(markdown: str) -> str:
    lines = [x for x in markdown.splitlines() if x.startswith("|") and not x.startswith("|---")]
    if markdown.startswith("- "):
        return "<ul>" + "".join(f"<li>{html.escape(x[2:])}</li>" for x in markdown.splitlines()) + "</ul>"
    if not lines:
        return f"<p>{html.escape(markdown)}</p>"
    cells = [[html.escape(c.strip()) for c in x.strip("|").split("|")] for x in lines]
    numeric = [all(_NUMBER.match(r[i]) for r in cells[1:]) for i in range(len(cells[0]))]
    head = "".join(f"<th class='{'n' if num else 't'}'>{c}</th>" for c, num in zip(cells[0], numeric))
    decisive = cells[0].index("decisive") if "decisive" in cells[0] else None
    rows = "".join(
        ("<tr class='decisive'>" if decisive is not None and r[decisive] == "yes" else "<tr>")
        + "".join(f"<td class='{'n' if num else 't'}'>{c}</td>" for c, num in zip(r, numeric)) + "</tr>"
        for r in cells[1:])
    return f"<table><tr>{head}</tr>{rows}</table>"


_NUMBER = re.compile(r"^[-+±\d.,%\[\] ]*$")  # numbers, intervals and shares: set right, text left
