"""Every experiment stored in the repository has key figures, and every key figure resolves in its result."""
import json
import re

import pytest

from npuready.history.figures import KEY_FIGURES, KINDS, KIND_FIGURES, figures_for
from npuready.paths import experiments_dir
from npuready.history.select import concrete, select
from npuready.site.pointer import resolve

STORED = sorted(p.parent.name for p in experiments_dir().glob("*/result.json"))


def _doc(exp_id):
    return json.loads((experiments_dir() / exp_id / "result.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("exp_id", STORED)
def test_every_stored_experiment_has_key_figures_that_resolve_to_scalars(exp_id):
    doc = _doc(exp_id)
    figures = figures_for(exp_id, doc)
    assert figures, f"{exp_id}: no key figures; add them to npuready/history/figures.py"
    for fig in figures:
        assert concrete(doc, fig.pointer) is not None, (exp_id, fig.pointer)
        value = select(doc, fig.pointer)
        assert isinstance(value, (int, float, bool, str)), (exp_id, fig.pointer, value)
        assert fig.kind in KINDS
        if fig.kind == "verdict":
            assert isinstance(value, (bool, str)), (exp_id, fig.pointer)
        else:
            assert isinstance(value, (int, float)) and not isinstance(value, bool), (exp_id, fig.pointer)


@pytest.mark.parametrize("exp_id", sorted(KEY_FIGURES))
def test_a_figure_read_from_a_table_row_selects_the_row_its_label_names(exp_id):
    """Rows are selected by their fields (history.select), never by index: a reordered or grown table keeps
    every figure on its row, and the label names what the row is."""
    doc = _doc(exp_id)
    for fig in KEY_FIGURES[exp_id]:
        assert not re.search(r"/rows/\d+(/|$)", fig.pointer), f"{fig.pointer}: select the row by its fields"
        m = re.match(r"(.*/rows/\[[^]]*\])/", fig.pointer)
        if not m:
            continue
        row = resolve(doc, concrete(doc, m.group(1)))
        model = str(row["model"]).rsplit("/", 1)[-1].removesuffix(".onnx")
        assert fig.label.split(":")[0].split()[-1] in (model,) or fig.label.startswith(model), (fig.label, row["model"])
        if "target" in row and " on " in fig.label:
            assert f" on {row['target']}:" in fig.label, (fig.label, row["target"])
        if "method" in row:
            assert f" {row['method'].lower()}:" in fig.label.lower(), (fig.label, row["method"])


def test_labels_are_unique_per_experiment_and_kind_figures_cover_model_reports():
    for exp_id, figs in KEY_FIGURES.items():
        assert len({f.label for f in figs}) == len(figs), exp_id
    assert figures_for("mr-new", {"spec": {"kind": "model-report"}}) == KIND_FIGURES["model-report"]
    assert figures_for("unknown-experiment", {"spec": {}}) == ()
