"""A run's statistics as a file: stats.parquet (and a chunk's file while a run is under way), one
long table of exact decimal integers, a row per nonzero moment or histogram bin, with the layout
in its metadata. Written beside its place and renamed into it; a damaged file is one error line."""

import json
from dataclasses import asdict
from decimal import Decimal
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from simkit import games
from simkit.core.errors import SimkitError
from simkit.core.files import atomic_path
from simkit.experiments.statistics import Layout, Statistics
from simkit.stats.by_deal import By
from simkit.stats.deal_groups import DealGroups
from simkit.stats.moments import Moments, compact

FORMAT = 2  # 2: the shares' moments (their intervals over deals)


def _column_int(values: np.ndarray) -> pa.Array:
    """Exact integers of any size: decimal128 holds 38 digits."""

    values = compact(values)
    if values.dtype == np.int64:
        return pa.array(values).cast(pa.decimal128(38, 0))
    return pa.array([Decimal(int(v)) for v in values], pa.decimal128(38, 0))


_KINDS = ("seat", "table", "pair", "seat-histogram", "table-histogram", "table-pair", "by")
_MOMENTS = ("present", "total", "gram", "cross", "count", "deals")


def _part(kind: str, moment: str, values: np.ndarray, groups: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Rows of one kind and moment: every nonzero entry of values[group, a(, b)] (a file holds
    no zeros: most products are not asked for; `groups` names the rows of values, default 0..);
    kind and moment as their codes."""
    values = compact(np.asarray(values))
    index = np.nonzero(values)
    group, a = index[0], index[1]
    b = index[2] if values.ndim == 3 else np.full(len(group), -1)
    return {"kind": np.full(len(group), _KINDS.index(kind), np.int8),
            "group": group if groups is None else groups[group],
            "moment": np.full(len(group), _MOMENTS.index(moment), np.int8), "a": a, "b": b,
            "value": values[tuple(index)]}


def _histograms(kind: str, hist: dict[int, np.ndarray]) -> dict[str, np.ndarray]:
    """One kind of histogram's rows: its groups' counts laid in one matrix, its nonzero bins."""
    groups = np.array(sorted(hist), np.int64)
    width = max((len(hist[g]) for g in hist), default=0)
    wide = any(np.asarray(c).dtype == object for c in hist.values())  # Python integers (`_part` compacts)
    counts = np.zeros((len(groups), width), object if wide else np.int64)
    for row, g in enumerate(groups):
        counts[row, :len(hist[g])] = hist[g]
    return _part(kind, "count", counts, groups=groups)


def _coded(codes: np.ndarray, names: tuple[str, ...]) -> pa.Array:
    return pa.DictionaryArray.from_arrays(pa.array(codes, pa.int8()), pa.array(names))


def to_table(stats: Statistics, extra: dict | None = None) -> pa.Table:
    """One long table: a row per (kind, group, moment, measure, measure) or histogram bin that is
    not zero (the deals present only for the measures counted, see Layout); `extra` joins the
    metadata."""
    lay = stats.layout
    parts = []
    for kind, moments, counted in (("seat", stats.seat, lay.seat_counted), ("table", stats.table, lay.table_counted)):
        present = _part(kind, "present", np.asarray(moments.present)[:, list(counted)])
        present["a"] = np.array(counted, np.int64)[present["a"]]
        parts += [present, _part(kind, "total", moments.total), _part(kind, "gram", moments.gram)]
    parts.append(_part("pair", "cross", stats.seat.cross))
    parts.append(_part("table-pair", "cross", stats.table.cross))
    parts += [_histograms("seat-histogram", stats.seat_histograms),
              _histograms("table-histogram", stats.table_histograms)]
    for ci, grouped in enumerate(stats.by):  # a cell's moments by the deal: `by` rows, its cell as the group
        cell = np.array([ci], np.int64)
        parts += [_part("by", "deals", np.array([[grouped.deals]], object), groups=cell),
                  _part("by", "total", np.asarray(grouped.first)[None, :], groups=cell),
                  _part("by", "gram", np.asarray(grouped.second)[None, :, :], groups=cell)]
    cols = {k: np.concatenate([part[k] for part in parts]) for k in parts[0]}
    table = pa.table({"kind": _coded(cols["kind"], _KINDS),
                      "group": pa.array(cols["group"].astype(np.int32)),
                      "moment": _coded(cols["moment"], _MOMENTS),
                      "a": pa.array(cols["a"].astype(np.int64)), "b": pa.array(cols["b"].astype(np.int32)),
                      "value": _column_int(cols["value"])})
    meta = {"format": FORMAT, "groups": lay.groups, "pairs": lay.pairs, "table_pairs": lay.table_pairs,
            "cells": lay.cells,
            "measures": {"seat": lay.seat_measures, "table": lay.table_measures, "main": lay.measures.main,
                         "per": lay.measures.per, "seat_histogram": lay.measures.seat_histogram,
                         "table_histogram": lay.measures.table_histogram, "scale": lay.measures.scale,
                         "game_table": lay.measures.table, "many_rows": lay.measures.many_rows,
                         "shares": lay.measures.shares, "table_shares": lay.measures.table_shares,
                         "means": lay.measures.means, "table_means": lay.measures.table_means,
                         "words": asdict(lay.measures.words) if lay.measures.words else None,
                         "sections": lay.measures.sections, "fair": lay.measures.fair},
            "by": asdict(lay.by) if lay.by else None}
    return table.replace_schema_metadata({"simkit": json.dumps({**meta, **(extra or {})})})


def write(stats: Statistics, path: Path, extra: dict | None = None) -> None:
    table = to_table(stats, extra)
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")


# what reading a damaged or foreign file can raise: pyarrow's errors (ArrowInvalid is a ValueError, ArrowIOError an
# OSError), a missing key or column, metadata that is absent (None) or of the wrong kind, bad JSON, a short column
_DAMAGED = (OSError, KeyError, ValueError, TypeError, IndexError, AttributeError, EOFError, pa.ArrowException)


def _why(e: BaseException) -> str:
    text = str(e).strip()
    return f"{type(e).__name__}: {text.splitlines()[0]}" if text else type(e).__name__


def read(path: Path) -> Statistics:
    """Statistics from a file `write` made; any other file (empty, cut short, not simkit's) is one
    SimkitError naming it."""
    try:
        table = pq.read_table(path)
        meta = json.loads((table.schema.metadata or {})[b"simkit"])
        if not isinstance(meta, dict):
            raise TypeError("its simkit metadata is not a table")
    except _DAMAGED as e:
        raise SimkitError(f"{path} is not a simkit statistics file ({_why(e)})") from None
    if meta.get("format") != FORMAT:
        raise SimkitError(f"{path} was written by another version of simkit (statistics format "
                          f"{meta.get('format')}, this one reads {FORMAT}): run the experiment again")
    try:
        return _decode(table, meta)
    except _DAMAGED as e:
        raise SimkitError(f"{path} is a damaged simkit statistics file ({_why(e)}): run the experiment again") \
            from None


def _decode(table: pa.Table, meta: dict) -> Statistics:
    m = meta["measures"]
    measures = games.Measures(tuple(m["seat"]), tuple(m["game_table"]), m["main"], m["per"], m["seat_histogram"],
                              m["table_histogram"], m["scale"], m["many_rows"],
                              tuple(map(tuple, m["shares"])), tuple(map(tuple, m["table_shares"])),
                              tuple(map(tuple, m.get("means", ()))), tuple(map(tuple, m.get("table_means", ()))),
                              words=_words(m["words"]) if m.get("words") else _described(meta, "words"),
                              fair=tuple(m["fair"]) if "fair" in m else _described(meta, "fair") or (),
                              sections=tuple(m["sections"]) if "sections" in m else _described(meta, "sections") or ())
    by = meta.get("by")
    lay = Layout(tuple(tuple(g) for g in meta["groups"]), tuple(tuple(p) for p in meta["pairs"]), measures,
                 tuple(meta["cells"]), tuple(tuple(p) for p in meta.get("table_pairs", ())),
                 By(by["game"], *(tuple(by[k]) for k in ("names", "columns", "tops"))) if by else None)
    grouped = [DealGroups(0, np.zeros(2 * lay.by_groups(ci), object),
                          np.zeros((2 * lay.by_groups(ci),) * 2, object)) for ci in range(len(lay.cells))] \
        if lay.by else []
    seat = Moments.zeros(len(lay.groups), len(lay.seat_measures), len(lay.pairs), object)
    tab = Moments.zeros(len(lay.cells), len(lay.table_measures), len(lay.table_pairs), object)
    seat_hist: dict[int, dict[int, int]] = {}
    table_hist: dict[int, dict[int, int]] = {}
    columns = {k: table.column(k).to_pylist() for k in ("kind", "group", "moment", "a", "b", "value")}
    for kind, g, moment, a, b, value in zip(*columns.values()):
        value = int(value)
        if kind == "by":
            if moment == "deals":
                grouped[g].deals = value
            elif moment == "total":
                grouped[g].first[a] = value
            else:
                grouped[g].second[a, b] = value
        elif kind in ("pair", "table-pair"):
            (seat if kind == "pair" else tab).cross[g, a, b] = value
        elif kind in ("seat", "table"):
            target = seat if kind == "seat" else tab
            if moment in ("present", "total"):
                getattr(target, moment)[g, a] = value
            else:
                getattr(target, moment)[g, a, b] = value
        else:
            (seat_hist if kind == "seat-histogram" else table_hist).setdefault(g, {})[a] = value
    return Statistics(lay, seat, tab, _dense(seat_hist), _dense(table_hist), tuple(grouped))


def _words(said: dict) -> games.Words:
    """A game's words as stored (JSON has no tuples: its labels come back as lists)."""
    return games.Words(**{**said, "labels": tuple(tuple(pair) for pair in said.get("labels", ()))})


def _described(meta: dict, field: str):
    """What a file written before the statistics kept it holds of its game's description
    (Measures.words, fair, sections): its game's, as described now."""
    run = meta.get("run", {})
    try:
        return getattr(games.get(run["game"]).measures(run["match"]["mode"]), field)
    except (KeyError, TypeError, SimkitError):
        return None


def _dense(sparse: dict[int, dict[int, int]]) -> dict[int, np.ndarray]:
    out = {}
    for g, bins in sparse.items():
        counts = np.zeros(max(bins) + 1, object)
        for value, count in bins.items():
            counts[value] = count
        out[g] = counts
    return out


def write_chunk(stats: Statistics, path: Path) -> None:
    """A chunk's statistics as they are, int64 (a chunk is small), in one flat array: every
    moment, then each kind of histogram as its count of groups and (group, width, counts...)
    each. What a resume reads back."""
    parts = [np.asarray(a, np.int64).ravel() for m in (stats.seat, stats.table) for a in m.parts()]
    for hist in (stats.seat_histograms, stats.table_histograms):
        parts.append(np.array([len(hist)], np.int64))
        for g, counts in sorted(hist.items()):
            parts += [np.array([g, len(counts)], np.int64), np.asarray(counts, np.int64)]
    for grouped in stats.by:  # each cell's, as many as the layout says
        parts += [np.array([grouped.deals], np.int64), np.asarray(grouped.first, np.int64),
                  np.asarray(grouped.second, np.int64).ravel()]
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as f:
            np.save(f, np.concatenate(parts))


def read_chunk(path: Path, lay: Layout) -> Statistics:
    """A chunk's statistics as `write_chunk` wrote them; a file that is not one whole (cut short,
    another run's layout) is one SimkitError naming it."""
    try:
        return _read_chunk(path, lay)
    except _DAMAGED as e:
        raise SimkitError(f"{Path(path).name}: not a whole chunk statistics file ({_why(e)})") from None


def _read_chunk(path: Path, lay: Layout) -> Statistics:
    flat = np.load(path)
    if flat.ndim != 1 or flat.dtype != np.int64:
        raise ValueError(f"an array of {flat.dtype} {flat.shape}, not a flat int64 one")
    at = 0

    def take(*shape: int) -> np.ndarray:
        nonlocal at
        size = int(np.prod(shape))
        if size < 0 or at + size > len(flat):
            raise ValueError(f"it ends after {len(flat):,} numbers, short of its layout's")
        at += size
        return flat[at - size:at].reshape(shape)

    moments = []
    for groups, measures, pairs in ((len(lay.groups), len(lay.seat_measures), len(lay.pairs)),
                                    (len(lay.cells), len(lay.table_measures), len(lay.table_pairs))):
        moments.append(Moments(take(groups, measures), take(groups, measures), take(groups, measures, measures),
                               take(pairs, measures, measures)))
    hists = []
    for _ in range(2):
        hist = {}
        for _ in range(int(take(1)[0])):
            g, width = take(2)
            hist[int(g)] = take(int(width))
        hists.append(hist)
    grouped = []
    for ci in range(len(lay.cells) if lay.by else 0):
        size = 2 * lay.by_groups(ci)
        grouped.append(DealGroups(int(take(1)[0]), take(size).copy(), take(size, size).copy()))
    if at != len(flat):
        raise ValueError(f"it holds {len(flat) - at:,} numbers more than its layout's")
    return Statistics(lay, *moments, *hists, tuple(grouped))


def metadata(path: Path) -> dict:
    """The extra entries `write` stored (the run's description)."""
    try:
        return json.loads((pq.read_schema(path).metadata or {})[b"simkit"])
    except _DAMAGED as e:
        raise SimkitError(f"{path} is not a simkit statistics file ({_why(e)})") from None
