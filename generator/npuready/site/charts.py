"""Altair charts built from a list stored in the result JSON (the chart's one source).

The Vega-Lite spec is embedded in the page and drawn by the vendored vega-embed bundle.
A chart names its source (experiment id + JSON pointer of the rows); the page shows a raw-JSON
button for it. A missing source fails the build like any other figure.

Honest axes, one rule per kind of value:
- a magnitude (cycles, a share, top-1, a drop) starts at zero: ``Scale(zero=True)``;
- a count (models, layers) gets whole-number ticks: ``Axis(tickMinStep=1, format="d")``;
- a zoomed axis is allowed only where the zoom is the point, and then its domain is stated in the axis title;
- a legend lists only series that are drawn (a row or field without a value is left out, not drawn as nothing);
- readable at 390 px: category labels are cut at ``LABEL_LIMIT`` px and legends sit below the plot.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import altair as alt
import pandas as pd

from npuready.site.embed import script_json
from npuready.site.fmt import is_number
from npuready.site.numbers import Figures, MissingSource


LABEL_LIMIT = 120  # px of a category label beside the plot (the rest shows in the tooltip)
LEGEND = alt.Legend(orient="bottom", direction="horizontal", columns=2, labelLimit=220)


def count_axis(**kw: Any) -> alt.Axis:
    """Whole-number ticks for a count (no 0.5 models)."""
    return alt.Axis(tickMinStep=1, format="d", **kw)


def category_axis() -> alt.Axis:
    return alt.Axis(labelLimit=LABEL_LIMIT)


def zero_scale(**kw: Any) -> alt.Scale:
    return alt.Scale(zero=True, **kw)


def legend(title: str | None) -> dict[str, Any]:
    return {"title": title, "legend": LEGEND}


@dataclass(frozen=True)
class ChartView:
    key: str  # DOM id suffix, unique per page
    exp_id: str
    path: str
    title: str
    spec_json: str


def _view(chart: Any, exp_id: str, path: str, title: str, key: str) -> ChartView:
    """The chart's Vega-Lite spec without its ``$schema`` URL (the vendored bundle knows its version), under
    a DOM key derived from the experiment and ``key`` (the chart's source and fields)."""
    spec = chart.to_dict()
    spec.pop("$schema", None)
    return ChartView(key=f"{exp_id}-" + hashlib.sha256(key.encode()).hexdigest()[:10], exp_id=exp_id, path=path,
                     title=title, spec_json=script_json(spec))


def dict_bar_chart(fig: Figures, exp_id: str, path: str, key: str, value: str, title: str,
                   count: bool = False) -> ChartView:
    """A bar per entry of a stored ``{name: number}`` object (e.g. models per rule: ``count=True``)."""
    mapping = fig.value(exp_id, path)
    if not isinstance(mapping, dict) or not mapping:
        raise MissingSource(f"site: chart '{title}' needs a non-empty object at {exp_id}:{path}")
    frame = pd.DataFrame({key: list(mapping), value: list(mapping.values())})
    chart = alt.Chart(frame).mark_bar().encode(
        y=alt.Y(key, type="nominal", sort=None, title=key, axis=category_axis()),
        x=alt.X(value, type="quantitative", title=value, scale=zero_scale(),
                axis=count_axis() if count else alt.Undefined),
        tooltip=[alt.Tooltip(key), alt.Tooltip(value)]).properties(width="container", height=max(60, 24 * len(frame)))
    return _view(chart, exp_id, path, title, f"{path}|{key}|{value}")


def grouped_bar_chart(fig: Figures, exp_id: str, path: str, value: str, category: str, group: str, title: str,
                      log: bool = False, value_title: str | None = None) -> ChartView:
    """Horizontal bars of ``value`` per ``category``, one bar per ``group`` side by side (rows at ``path``).
    Bars start at zero; ``log`` draws points on a log axis instead (a log axis has no zero, so no bars)."""
    rows = fig.value(exp_id, path)
    if not isinstance(rows, list) or not rows or any(
            not isinstance(r, dict) or not all(k in r for k in (value, category, group)) for r in rows):
        raise MissingSource(f"site: chart '{title}' needs records with {value}, {category}, {group} at {exp_id}:{path}")
    frame = pd.DataFrame([{category: r[category], group: r[group], value: r[value]} for r in rows])
    scale = alt.Scale(type="log") if log else zero_scale()
    mark = alt.Chart(frame).mark_point(filled=True, size=70, opacity=1) if log else alt.Chart(frame).mark_bar()
    chart = mark.encode(
        y=alt.Y(category, type="nominal", sort=None, title=None, axis=category_axis()),
        yOffset=alt.YOffset(group, type="nominal", sort=None),
        x=alt.X(value, type="quantitative", scale=scale, title=value_title or value),
        color=alt.Color(group, type="nominal", sort=None, **legend(group)),
        tooltip=[alt.Tooltip(category), alt.Tooltip(group), alt.Tooltip(value)],
    ).properties(width="container", height=14 * len(frame) + 8 * frame[category].nunique())
    return _view(chart, exp_id, path, title, f"{path}|{value}|{category}|{group}")


def series_chart(fig: Figures, exp_id: str, path: str, x: str, ys: list[str], title: str,
                 y_title: str = "value", x_title: str | None = None) -> ChartView:
    """Lines (with points) of several stored fields over the rows at ``path`` in their stored order, from zero.
    A field no row has a number for is left out (the legend lists only drawn lines)."""
    rows = fig.value(exp_id, path)
    if not isinstance(rows, list) or not rows or any(not isinstance(r, dict) or x not in r for r in rows):
        raise MissingSource(f"site: chart '{title}' needs records with '{x}' at {exp_id}:{path}")
    ys = [y for y in ys if any(is_number(r.get(y)) for r in rows)]
    if not ys:
        raise MissingSource(f"site: chart '{title}': no row at {exp_id}:{path} has a number to draw")
    frame = pd.DataFrame([{"position": i, x: r[x], **{y: r.get(y) for y in ys}} for i, r in enumerate(rows)])
    chart = alt.Chart(frame).transform_fold(ys, as_=["series", "value"]).mark_line(point=True, strokeWidth=1.5).encode(
        x=alt.X("position", type="quantitative", title=x_title or f"{x} (stored order)",
                axis=alt.Axis(tickMinStep=1, format="d")),
        y=alt.Y("value", type="quantitative", title=y_title, scale=zero_scale()),
        color=alt.Color("series", type="nominal", sort=ys, **legend(None)),
        tooltip=[alt.Tooltip(x), alt.Tooltip("series", type="nominal"), alt.Tooltip("value", type="quantitative")],
    ).properties(width="container", height=200)
    return _view(chart, exp_id, path, title, f"{path}|{x}|{'|'.join(ys)}")


def stages_chart(fig: Figures, exp_id: str, path: str, label_fields: list[str], stages: list[tuple[str, str]],
                 title: str, y_title: str, domain: tuple[float, float] | None = None) -> ChartView:
    """One line per stored row across named stages (e.g. before → after swap → after recovery).

    Only rows with a number at every stage are drawn (a row with one point is no line, and the legend would list
    it). The axis starts at zero, or spans ``domain`` (e.g. ``(0, 1)`` for top-1), stated in the axis title."""
    rows = fig.value(exp_id, path)
    if not isinstance(rows, list) or not rows or any(not isinstance(r, dict) for r in rows):
        raise MissingSource(f"site: chart '{title}' needs a list of records at {exp_id}:{path}")
    whole = [r for r in rows if all(is_number(r.get(field)) for field, _label in stages)]
    if not whole:
        raise MissingSource(f"site: chart '{title}': no row at {exp_id}:{path} has every stage")
    data = [{"row": " @ ".join(str(r[f]) for f in label_fields), "stage": label, "order": k, "value": r[field]}
            for r in whole for k, (field, label) in enumerate(stages)]
    frame = pd.DataFrame(data)
    scale = zero_scale() if domain is None else alt.Scale(domain=list(domain), zero=domain[0] <= 0 <= domain[1])
    axis_title = y_title if domain is None else f"{y_title} (axis {domain[0]:g}–{domain[1]:g})"
    chart = alt.Chart(frame).mark_line(point=True).encode(
        x=alt.X("stage", type="ordinal", sort=[label for _f, label in stages], title=None),
        y=alt.Y("value", type="quantitative", title=axis_title, scale=scale),
        color=alt.Color("row", type="nominal", **legend(None)),
        tooltip=[alt.Tooltip("row", type="nominal"), alt.Tooltip("stage", type="ordinal"),
                 alt.Tooltip("value", type="quantitative")],
    ).properties(width="container", height=220)
    return _view(chart, exp_id, path, title, f"{path}|stages|{'|'.join(f for f, _ in stages)}")


def band_strip_chart(fig: Figures, exp_id: str, path: str, items: str, value: str, label_fields: list[str],
                     centre: float, band: float, title: str, x_title: str) -> ChartView:
    """Every item (e.g. layer) of every stored row as a tick on one line per row, against a band
    ``centre ± band`` (e.g. the per-layer error goal around ratio 1; dashed line: the centre). The axis spans the
    band — the zoom is the point, and the axis title states it — widened only to keep every stored value inside."""
    rows = fig.value(exp_id, path)
    if not isinstance(rows, list) or not rows or any(not isinstance(r, dict) or not isinstance(r.get(items), list)
                                                     for r in rows):
        raise MissingSource(f"site: chart '{title}' needs records with a list '{items}' at {exp_id}:{path}")
    data = [{"row": " @ ".join(str(r[f]) for f in label_fields), value: it[value]}
            for r in rows for it in r[items] if isinstance(it, dict) and is_number(it.get(value))]
    if not data:
        raise MissingSource(f"site: chart '{title}': no '{value}' in the {items} at {exp_id}:{path}")
    frame = pd.DataFrame(data)
    low = min(centre - band, float(frame[value].min()))
    high = max(centre + band, float(frame[value].max()))
    scale = alt.Scale(domain=[low, high], zero=False, nice=False)
    line = alt.Chart(pd.DataFrame({value: [centre]})).mark_rule(color="#999", strokeDash=[4, 4]).encode(
        x=alt.X(value, type="quantitative", scale=scale))
    ticks = alt.Chart(frame).mark_tick(thickness=2, opacity=0.6).encode(
        x=alt.X(value, type="quantitative", scale=scale,
                title=f"{x_title} (axis {low:g}–{high:g}: {centre:g} ± {band:g})"),
        y=alt.Y("row", type="nominal", sort=None, title=None, axis=category_axis()),
        tooltip=[alt.Tooltip("row", type="nominal"), alt.Tooltip(value, type="quantitative")])
    chart = alt.layer(line, ticks).properties(width="container", height=16 * frame["row"].nunique() + 20)
    return _view(chart, exp_id, path, title, f"{path}|band|{items}|{value}")


@dataclass(frozen=True)
class Point:
    """One scatter point: x and y are JSON pointers to stored numbers; ``labels`` name the point
    (colour, shape, tooltip); ``extra`` are more pointers shown in the tooltip."""

    x: str
    y: str
    labels: dict[str, str]
    extra: dict[str, str]


def scatter_chart(fig: Figures, exp_id: str, path: str, points: list[Point], color: str, shape: str, title: str,
                  x_title: str, y_title: str, diagonal: bool = False, percent: bool = False) -> ChartView:
    """Points whose coordinates are stored numbers (each looked up by its own pointer under ``path``);
    ``diagonal`` draws y = x across the points' range, ``percent`` formats stored fractions as percentages."""
    if not points:
        raise MissingSource(f"site: chart '{title}' has no points at {exp_id}:{path}")
    data = []
    for p in points:
        row: dict[str, Any] = dict(p.labels)
        for name, at in (("x", p.x), ("y", p.y), *p.extra.items()):
            if at != path and not at.startswith(path.rstrip("/") + "/"):
                raise MissingSource(f"site: chart '{title}': {at} is outside its source {exp_id}:{path}")
            value = fig.value(exp_id, at)
            if name in ("x", "y") and not is_number(value):
                raise MissingSource(f"site: chart '{title}': {exp_id}:{at} is not a number")
            row[name] = value
        data.append(row)
    frame = pd.DataFrame(data)
    fmt = ".1%" if percent else alt.Undefined
    tips = [alt.Tooltip(k, type="nominal") for k in points[0].labels]
    tips += [alt.Tooltip("x", type="quantitative", title=x_title, format=fmt),
             alt.Tooltip("y", type="quantitative", title=y_title, format=fmt)]
    tips += [alt.Tooltip(k) for k in points[0].extra]
    dots = alt.Chart(frame).mark_point(filled=True, size=80, opacity=0.85).encode(
        x=alt.X("x", type="quantitative", title=x_title, axis=alt.Axis(format=fmt), scale=zero_scale()),
        y=alt.Y("y", type="quantitative", title=y_title, axis=alt.Axis(format=fmt), scale=zero_scale()),
        color=alt.Color(color, type="nominal", **legend(color)),
        shape=alt.Shape(shape, type="nominal", **legend(shape)),
        tooltip=tips)
    chart: Any = dots
    if diagonal:
        ends = [min(frame["x"].min(), frame["y"].min()), max(frame["x"].max(), frame["y"].max())]
        line = alt.Chart(pd.DataFrame({"x": ends, "y": ends})).mark_line(color="#999", strokeDash=[4, 4]).encode(
            x="x:Q", y="y:Q")
        chart = alt.layer(line, dots)
    return _view(chart.properties(width="container", height=260), exp_id, path, title,
                 f"{path}|scatter|{color}|{shape}")
