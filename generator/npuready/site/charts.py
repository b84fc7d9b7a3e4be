"""Altair charts built from a list stored in the result JSON (the chart's one source).

The Vega-Lite spec is embedded in the page and drawn by the vendored vega-embed bundle.
A chart names its source (experiment id + JSON pointer of the rows); the page shows a raw-JSON
button for it. A missing source fails the build like any other figure.
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


def bar_chart(fig: Figures, exp_id: str, path: str, x: str, y: str, title: str,
              color: str | None = None, x_title: str | None = None, y_title: str | None = None,
              horizontal: bool = True) -> ChartView:
    rows = fig.value(exp_id, path)
    if not isinstance(rows, list) or not rows or not all(isinstance(r, dict) for r in rows):
        raise MissingSource(f"site: chart '{title}' needs a list of records at {exp_id}:{path}")
    fields = [f for f in (x, y, color) if f]
    missing = [f for f in fields if any(f not in r for r in rows)]
    if missing:
        raise MissingSource(f"site: chart '{title}': field(s) {missing} missing in rows at {exp_id}:{path}")
    frame = pd.DataFrame([{f: r[f] for f in fields} for r in rows])
    if horizontal:
        enc: dict[str, Any] = {"y": alt.Y(y, type="nominal", sort=None, title=y_title or y),
                               "x": alt.X(x, type="quantitative", title=x_title or x)}
    else:
        enc = {"x": alt.X(x, type="nominal", sort=None, title=x_title or x),
               "y": alt.Y(y, type="quantitative", title=y_title or y)}
    enc["tooltip"] = [alt.Tooltip(f) for f in fields]
    if color:
        enc["color"] = alt.Color(color, type="nominal", title=color)
    chart = alt.Chart(frame).mark_bar().encode(**enc).properties(
        width="container", height=max(120, 22 * len(frame)) if horizontal else 220)
    return _view(chart, exp_id, path, title, f"{path}|{x}|{y}")


def dict_bar_chart(fig: Figures, exp_id: str, path: str, key: str, value: str, title: str) -> ChartView:
    """A bar per entry of a stored ``{name: number}`` object (e.g. models per rule)."""
    mapping = fig.value(exp_id, path)
    if not isinstance(mapping, dict) or not mapping:
        raise MissingSource(f"site: chart '{title}' needs a non-empty object at {exp_id}:{path}")
    frame = pd.DataFrame({key: list(mapping), value: list(mapping.values())})
    chart = alt.Chart(frame).mark_bar().encode(
        y=alt.Y(key, type="nominal", sort=None, title=key), x=alt.X(value, type="quantitative", title=value),
        tooltip=[alt.Tooltip(key), alt.Tooltip(value)]).properties(width="container", height=max(60, 24 * len(frame)))
    return _view(chart, exp_id, path, title, f"{path}|{key}|{value}")


def grouped_bar_chart(fig: Figures, exp_id: str, path: str, value: str, category: str, group: str, title: str,
                      log: bool = False, value_title: str | None = None) -> ChartView:
    """Horizontal bars of ``value`` per ``category``, one bar per ``group`` side by side (rows at ``path``)."""
    rows = fig.value(exp_id, path)
    if not isinstance(rows, list) or not rows or any(not isinstance(r, dict) or not all(k in r for k in (value, category, group)) for r in rows):
        raise MissingSource(f"site: chart '{title}' needs records with {value}, {category}, {group} at {exp_id}:{path}")
    frame = pd.DataFrame([{category: r[category], group: r[group], value: r[value]} for r in rows])
    scale = alt.Scale(type="log") if log else alt.Undefined
    mark = alt.Chart(frame).mark_point(filled=True, size=70, opacity=1) if log else alt.Chart(frame).mark_bar()
    chart = mark.encode(
        y=alt.Y(category, type="nominal", sort=None, title=None),
        yOffset=alt.YOffset(group, type="nominal", sort=None),
        x=alt.X(value, type="quantitative", scale=scale, title=value_title or value),
        color=alt.Color(group, type="nominal", sort=None, title=group),
        tooltip=[alt.Tooltip(category), alt.Tooltip(group), alt.Tooltip(value)],
    ).properties(width="container", height=14 * len(frame) + 8 * frame[category].nunique())
    return _view(chart, exp_id, path, title, f"{path}|{value}|{category}|{group}")


def series_chart(fig: Figures, exp_id: str, path: str, x: str, ys: list[str], title: str,
                 y_title: str = "value", x_title: str | None = None) -> ChartView:
    """Lines (with points) of several stored fields over the rows at ``path`` in their stored order."""
    rows = fig.value(exp_id, path)
    if not isinstance(rows, list) or not rows or any(not isinstance(r, dict) or x not in r for r in rows):
        raise MissingSource(f"site: chart '{title}' needs records with '{x}' at {exp_id}:{path}")
    frame = pd.DataFrame([{"position": i, x: r[x], **{y: r.get(y) for y in ys}} for i, r in enumerate(rows)])
    chart = alt.Chart(frame).transform_fold(ys, as_=["series", "value"]).mark_line(point=True, strokeWidth=1.5).encode(
        x=alt.X("position", type="quantitative", title=x_title or f"{x} (stored order)",
                axis=alt.Axis(tickMinStep=1, format="d")),
        y=alt.Y("value", type="quantitative", title=y_title),
        color=alt.Color("series", type="nominal", title=None),
        tooltip=[alt.Tooltip(x), alt.Tooltip("series", type="nominal"), alt.Tooltip("value", type="quantitative")],
    ).properties(width="container", height=200)
    return _view(chart, exp_id, path, title, f"{path}|{x}|{'|'.join(ys)}")


def stages_chart(fig: Figures, exp_id: str, path: str, label_fields: list[str], stages: list[tuple[str, str]],
                 title: str, y_title: str) -> ChartView:
    """One line per stored row across named stages (e.g. before → after swap → after recovery)."""
    rows = fig.value(exp_id, path)
    if not isinstance(rows, list) or not rows or any(not isinstance(r, dict) for r in rows):
        raise MissingSource(f"site: chart '{title}' needs a list of records at {exp_id}:{path}")
    data = [{"row": " @ ".join(str(r[f]) for f in label_fields), "stage": label, "order": k, "value": r.get(field)}
            for r in rows for k, (field, label) in enumerate(stages) if r.get(field) is not None]
    frame = pd.DataFrame(data)
    chart = alt.Chart(frame).mark_line(point=True).encode(
        x=alt.X("stage", type="ordinal", sort=[label for _f, label in stages], title=None),
        y=alt.Y("value", type="quantitative", title=y_title, scale=alt.Scale(zero=False)),
        color=alt.Color("row", type="nominal", title=None),
        tooltip=[alt.Tooltip("row", type="nominal"), alt.Tooltip("stage", type="ordinal"),
                 alt.Tooltip("value", type="quantitative")],
    ).properties(width="container", height=220)
    return _view(chart, exp_id, path, title, f"{path}|stages|{'|'.join(f for f, _ in stages)}")


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
        x=alt.X("x", type="quantitative", title=x_title, axis=alt.Axis(format=fmt)),
        y=alt.Y("y", type="quantitative", title=y_title, axis=alt.Axis(format=fmt)),
        color=alt.Color(color, type="nominal", title=color), shape=alt.Shape(shape, type="nominal", title=shape),
        tooltip=tips)
    chart: Any = dots
    if diagonal:
        ends = [min(frame["x"].min(), frame["y"].min()), max(frame["x"].max(), frame["y"].max())]
        line = alt.Chart(pd.DataFrame({"x": ends, "y": ends})).mark_line(color="#999", strokeDash=[4, 4]).encode(
            x="x:Q", y="y:Q")
        chart = alt.layer(line, dots)
    return _view(chart.properties(width="container", height=260), exp_id, path, title,
                 f"{path}|scatter|{color}|{shape}")
