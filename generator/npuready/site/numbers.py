"""The only way a number reaches the page: ``Figures.num(exp_id, json_pointer)``.

It looks the value up in the stored result JSON and emits it inside a drill-down button carrying one short
attribute, ``data-n``: an index into this build's reference table (``Figures.refs``, one ``(exp_id, pointer)``
per distinct target). The renderer renumbers each page file's references and ships their table beside its HTML
(:mod:`npuready.site.refs`); the browser resolves ``data-n`` to the experiment and JSON pointer it opens.
A pointer that does not resolve to a stored number raises :class:`MissingSource` and the build fails,
so no figure can appear on the site without a JSON source.
"""
from __future__ import annotations

import json
import re
from typing import Any, Mapping

from markupsafe import Markup, escape

from npuready.errors import InputError
from npuready.evidence import KINDS, Evidence
from npuready.site import pointer
from npuready.site.fmt import format_number, is_number
from npuready.site.source import Experiment


# a number standing alone in stored prose — "10,000" and "1,000-image" (thousands separators), "-3.5", "1e-4",
# "0.8808" — one token each (the atomic group: never a piece of one), not part of a name (resnet20, edge-10,
# 1x3x224x224), a version (1.32.0), a range (0..255) or a date (2026-01-01)
PROSE_NUMBER = re.compile(r"""
    (?<![\w.\-/+#@:])(?<!\d,)           # not inside a name, a version, or after a thousands group's comma
    (?>-?(?:\d{1,3}(?:,\d{3})+|\d+)      # sign (edge-10's hyphen is behind a letter), digits grouped or not
       (?:\.\d+)?(?:[eE][-+]?\d+)?)      # decimals, exponent
    (?![\w/]|-\d|\.[\w.]|,\d)           # not followed by more of a name, a date, a range, a longer group
""", re.X)


class MissingSource(InputError):
    """A template asked for a figure that is not in the stored JSON."""


class Figures:
    """Per-build emitter of numbers and raw-JSON controls; remembers what it emitted."""

    def __init__(self, experiments: Mapping[str, Experiment]):
        self._experiments = experiments
        self.emitted: list[tuple[str, str]] = []
        self.raws: list[tuple[str, str]] = []  # raw-JSON controls emitted (not figures)
        self.refs: list[tuple[str, str]] = []  # data-n -> (exp_id, pointer)
        self._ref_index: dict[tuple[str, str], int] = {}

    def ref(self, exp_id: str, path: str) -> int:
        """The build-wide reference number of ``(exp_id, path)`` (a drill-down button's ``data-n``)."""
        key = (exp_id, path)
        if key not in self._ref_index:
            self._ref_index[key] = len(self.refs)
            self.refs.append(key)
        return self._ref_index[key]

    def has(self, exp_id: str, path: str = "") -> bool:
        exp = self._experiments.get(exp_id)
        return exp is not None and pointer.exists(exp.doc, path)

    def value(self, exp_id: str, path: str) -> Any:
        exp = self._experiments.get(exp_id)
        if exp is None:
            raise MissingSource(f"site: figure {exp_id}:{path} has no source; experiment '{exp_id}' has no "
                                f"result.json (run 'npuready run {exp_id}' or guard the view with has())")
        try:
            return pointer.resolve(exp.doc, path)
        except KeyError:
            raise MissingSource(f"site: figure {exp_id}:{path} has no source; that path is not in "
                                f"experiments/{exp_id}/result.json") from None

    def rows(self, exp_id: str, path: str) -> Any:
        """The stored list at ``path``, or ``[]`` when the experiment or that path is absent (an optional section)."""
        exp = self._experiments.get(exp_id)
        return [] if exp is None else pointer.resolve(exp.doc, path, [])

    def num(self, exp_id: str, path: str, pct: bool = False, digits: int | None = None, unit: str = "") -> Markup:
        value = self.value(exp_id, path)
        if not is_number(value):
            raise MissingSource(f"site: figure {exp_id}:{path} is not a number in the stored JSON "
                                f"(found {json.dumps(value)[:60]})")
        self.emitted.append((exp_id, path))
        shown = format_number(value, pct=pct, digits=digits) + (f"\u2009{unit}" if unit else "")
        attrs = ' data-scale="100"' if pct else ""
        return Markup('<button class="num" data-n="{n}"{a}>{v}</button>').format(
            n=self.ref(exp_id, path), a=Markup(attrs), v=shown)

    def evidence(self, kind: Any) -> Markup:
        """The badge of an evidence kind (``npuready.evidence.KINDS``); an unknown kind fails the build."""
        if kind not in KINDS:
            raise MissingSource(f"site: evidence kind {json.dumps(kind)} is not one of {', '.join(KINDS)} "
                                f"(npuready/evidence.py); label the results section with one of them")
        return Markup('<span class="ev ev-{k}" title="{t}">{k}</span>').format(k=kind, t=KINDS[kind].meaning)

    def prose(self, exp_id: str, path: str, value: Any = None) -> Markup:
        """A stored sentence (summary, basis, expected effect) with every number in it formatted like any figure
        and opening the record that holds the sentence (its raw JSON), the rest escaped."""
        value = self.value(exp_id, path) if value is None else value
        if not isinstance(value, str):
            return self.text(exp_id, path)
        out, last = [], 0
        for m in PROSE_NUMBER.finditer(value):
            token = m.group(0).replace(",", "")
            number: int | float = float(token) if any(c in token for c in ".eE") else int(token)
            out += [escape(value[last:m.start()]), Markup('<span class="prose-num">'),
                    self.raw(exp_id, path, label=format_number(number)), Markup("</span>")]
            last = m.end()
        out.append(escape(value[last:]))
        return Markup("").join(out)

    @staticmethod
    def evidence_kinds() -> list[Evidence]:
        """The vocabulary, in the order the site explains it."""
        return list(KINDS.values())

    def raw(self, exp_id: str, path: str = "", label: str = "raw JSON") -> Markup:
        """A control opening any JSON record (object, list, string) at ``path``."""
        self.value(exp_id, path)
        self.raws.append((exp_id, path))
        return Markup('<button class="raw" data-n="{n}">{l}</button>').format(n=self.ref(exp_id, path or ""), l=label)

    def raw_paths(self, exp_id: str) -> list[str]:
        return [p for e, p in self.raws if e == exp_id]

    def text(self, exp_id: str, path: str) -> Markup:
        """A stored string, escaped (untrusted: model names, node names, messages)."""
        value = self.value(exp_id, path)
        return escape(value if isinstance(value, str) else json.dumps(value, ensure_ascii=False))

    def at(self, exp_id: str, path: str) -> Markup:
        """Whatever is stored at ``path`` (must exist): a number, a string, null as text, or a raw-JSON control."""
        return self.cell(exp_id, path, self.value(exp_id, path))

    def cell(self, exp_id: str, path: str, value: Any) -> Markup:
        """Whatever sits at ``path``: a number gets num(), a string is escaped, a structure gets raw()."""
        if is_number(value):
            return self.num(exp_id, path)
        if isinstance(value, str):  # a sentence gets its numbers drillable; a name stays as it is
            return self.prose(exp_id, path, value) if " " in value else escape(value)
        if value is None:  # a stored null (e.g. "not applicable"): text, never drawn like a number
            return Markup('<span class="null" title="stored as null">null</span>')
        if isinstance(value, bool):
            return escape(json.dumps(value))
        if isinstance(value, list) and all(isinstance(v, str) for v in value) and sum(map(len, value)) <= 240:
            return escape(", ".join(value)) if value else Markup("<span class='dim'>none</span>")
        return self.raw(exp_id, path, label="[ … ]" if isinstance(value, list) else "{ … }")
