"""A report's page: its title, a paragraph saying what was played, the answer in bold, then
sections, each a table (Markdown), a note and figures with their captions. One description gives
both files a report is read in, report.md and a self-contained report.html (figures embedded),
written together once everything is made, so that a failure leaves the earlier report whole."""

import base64
import html
import io
import re
from dataclasses import dataclass
from pathlib import Path

import matplotlib.pyplot as plt

from simkit.core.files import atomic_path


@dataclass(frozen=True)
class Section:
    """A section of a page: a Markdown table (or list, or paragraph), a note after it, and the
    figures (file names) drawn beside it."""

    title: str
    text: str = ""
    figures: tuple[str, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class Page:
    """A whole report. `top`: figures under the answer; `contents`: a list of the sections at the
    top of the HTML; `side`: each table and its figures side by side where the page is wide."""

    title: str
    intro: str
    answers: tuple[str, ...]
    sections: tuple[Section, ...]
    top: tuple[str, ...] = ()
    contents: bool = False
    side: bool = False
    question: str = ""  # what the run was asked, in its spec's words: the page opens with it


def markdown(page: Page, captions: dict[str, str]) -> bytes:
    """report.md: every figure as an image link with its caption in italics."""
    md = [f"# {page.title}", ""] + ([f"Question: *{page.question}*", ""] if page.question else []) + [page.intro, ""]
    for sentence in page.answers:
        md += [f"**{sentence}**", ""]
    md += _figures_md(page.top, captions)
    for s in page.sections:
        md += [f"## {s.title}", ""] + ([s.text, ""] if s.text else []) + ([s.note, ""] if s.note else [])
        md += _figures_md(s.figures, captions)
    return "\n".join(md).encode()


def _figures_md(names: tuple[str, ...], captions: dict[str, str]) -> list[str]:
    return [line for n in names for line in (f"![{n}]({n})", "", f"*{captions[n]}*", "")]


def html_page(page: Page, images: dict[str, bytes], captions: dict[str, str]) -> bytes:
    """report.html: one file, the figures embedded, readable on a phone and printable."""
    body = [f"<h1>{html.escape(page.title)}</h1>"]
    if page.question:
        body.append(f"<p class='question'>Question: <em>{html.escape(page.question)}</em></p>")
    body.append(f"<p>{html.escape(page.intro)}</p>")
    body += [answer_box(sentence) for sentence in page.answers]
    body += [figure_html(n, images[n], captions[n]) for n in page.top]
    if page.contents:
        body.append("<nav><strong>Contents</strong><ol>" + "".join(
            f"<li><a href='#s{k}'>{html.escape(s.title)}</a></li>" for k, s in enumerate(page.sections))
            + "</ol></nav>")
    for k, s in enumerate(page.sections):
        table = html_table(s.text) if s.text else ""
        note = f"<p>{html.escape(s.note)}</p>" if s.note else ""
        figs = "".join(figure_html(n, images[n], captions[n]) for n in s.figures)
        inner = (f"<div class='side'><div class='tbl'>{table}{note}</div><div class='figs'>{figs}</div></div>"
                 if page.side and table and figs else table + note + figs)
        body.append(f"<section id='s{k}'><h2>{html.escape(s.title)}</h2>{inner}</section>")
    return shell(page.title, body)


def answer_box(sentence: str) -> str:
    """The answer, set apart: what most readers stop at."""
    return f"<p class='answer'><strong>{html.escape(sentence.replace('**', ''))}</strong></p>"


def write(out: Path, page: Page, figures: dict[str, plt.Figure], captions: dict[str, str]) -> Path:
    """Draw the figures, then write them, report.md and report.html into `out`; returns the HTML's
    path. Nothing is written until all of it is made."""
    images = images_of(figures)
    write_all(out, {**images, "report.md": markdown(page, captions),
                    "report.html": html_page(page, images, captions)})
    return out / "report.html"


def shell(name: str, body: list[str]) -> bytes:
    """A report's self-contained HTML page: its title and its body's parts (figures embedded)."""
    return ("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'><title>" + html.escape(name)
            + "</title><style>" + _STYLE + "</style></head><body>" + "\n".join(body) + "</body></html>").encode()


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
        with atomic_path(out / name) as tmp:
            tmp.write_bytes(data)


_STYLE = (
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:86em;margin:auto;"
    "padding:0 1.5em 3em;color:#222;line-height:1.45}"
    "h1{margin:0.8em 0 0.3em}h2{border-bottom:1px solid #ddd;padding-bottom:0.2em;margin-top:1.8em}"
    ".answer{font-size:1.1em;background:#f3f6fa;padding:0.6em 0.8em;border-left:4px solid #3465a4}"
    ".question{font-size:1.1em;color:#333}"
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
    """A Markdown table (or list, or paragraph) as HTML: numbers set right, text left, decisive
    rows in bold."""
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
