import re

import pytest

from npuready.site.numbers import Figures, MissingSource
from npuready.site.source import Experiment

EXP = Experiment(id="e1", doc={"id": "e1", "results": {"s": {"evidence": "measured", "n": 1234, "f": 0.5,
                                                             "t": "<b>x</b>", "flag": True, "rows": [{"a": 1}]}}})


def test_num_emits_button_with_exp_and_pointer():
    fig = Figures({"e1": EXP})
    html = str(fig.num("e1", "/results/s/n"))
    assert html == '<button class="num" data-n="0">1,234</button>'
    assert fig.emitted == [("e1", "/results/s/n")] and fig.refs == [("e1", "/results/s/n")]
    assert str(fig.raw("e1", "/results/s")) == '<button class="raw" data-n="1">raw JSON</button>'
    assert str(fig.num("e1", "/results/s/n")) == html  # one reference per distinct target
    assert fig.refs == [("e1", "/results/s/n"), ("e1", "/results/s")]


def test_pct_marks_scale():
    html = str(Figures({"e1": EXP}).num("e1", "/results/s/f", pct=True))
    assert 'data-scale="100"' in html and ">50.0%<" in html


def test_number_without_source_fails_the_build():
    fig = Figures({"e1": EXP})
    with pytest.raises(MissingSource, match="e1:/results/s/missing"):
        fig.num("e1", "/results/s/missing")
    with pytest.raises(MissingSource, match="experiment 'nope' has no result.json"):
        fig.num("nope", "/results/s/n")
    with pytest.raises(MissingSource, match="not a number"):
        fig.num("e1", "/results/s/t")
    with pytest.raises(MissingSource, match="not a number"):
        fig.num("e1", "/results/s/flag")
    assert fig.emitted == []


def test_text_is_escaped_and_cell_dispatches():
    fig = Figures({"e1": EXP})
    assert str(fig.text("e1", "/results/s/t")) == "&lt;b&gt;x&lt;/b&gt;"
    assert 'class="raw"' in str(fig.cell("e1", "/results/s/rows", EXP.doc["results"]["s"]["rows"]))
    assert str(fig.cell("e1", "/results/s/flag", True)) == "true"


def test_prose_numbers_are_formatted_and_open_the_sentence_record():
    from npuready.site.numbers import Figures
    from npuready.site.source import Experiment

    doc = {"results": {"a": {"evidence": "analysis",
                             "expected": "NPU segments 17 → 1, cycles 5087698 → 2155538 (0.5 of 1e-05); resnet20 on "
                                         "edge-10, 1x3x224x224, onnx 1.32.0, 0..255, <b>8.2%</b>."}}}
    fig = Figures({"x": Experiment(id="x", doc=doc)})
    html = str(fig.prose("x", "/results/a/expected"))

    def b(label):
        return f'<span class="prose-num"><button class="raw" data-n="0">{label}</button></span>'  # one reference

    assert html == (f"NPU segments {b(17)} → {b(1)}, cycles {b('5,087,698')} → {b('2,155,538')} ({b(0.5)} of "
                    f"{b('1.000e-05')}); resnet20 on edge-10, 1x3x224x224, onnx 1.32.0, 0..255, "
                    f"&lt;b&gt;{b(8.2)}%&lt;/b&gt;.")
    assert fig.refs == [("x", "/results/a/expected")]
    assert fig.raws.count(("x", "/results/a/expected")) == 7


@pytest.mark.parametrize("sentence, chips", [
    ("Fashion-MNIST test set (10,000 images).", ["10,000"]),
    ("on a 1,000-image test subset", ["1,000"]),
    ("the logit moved by -3.5 on average", ["-3.5"]),
    ("learning rate 1e-4, then 1E+3 steps", ["0.0001", "1000"]),
    ("top-1 0.8808 after PTQ", ["0.8808"]),
    ("12,345,678 cycles and 5,087,698.5 bytes", ["12,345,678", "5,087,698"]),
    ("8-bit weights, (1, 3, 224, 224) input", ["8", "1", "3", "224", "224"]),
    ("resnet-50 on edge-10, 1x3x224x224, onnx 1.32.0, 0..255, 2026-01-01, 1,3,224,224, a - b, 1,0000", []),
])
def test_prose_corpus_keeps_each_number_one_chip(sentence, chips):
    from npuready.site.fmt import format_number
    from npuready.site.numbers import PROSE_NUMBER

    doc = {"results": {"a": {"evidence": "analysis", "s": sentence}}}
    fig = Figures({"x": Experiment(id="x", doc=doc)})
    html = str(fig.prose("x", "/results/a/s"))
    shown = re.findall(r'<button class="raw" data-n="0">([^<]*)</button>', html)
    assert shown == chips
    tokens = [m.group(0) for m in PROSE_NUMBER.finditer(sentence)]
    assert [format_number(float(t.replace(",", "")) if any(c in t for c in ".eE") else int(t.replace(",", "")))
            for t in tokens] == chips
    text = re.sub(r"<[^>]+>", "", html)  # nothing of the sentence is lost or split
    for token, chip in zip(tokens, chips):
        text = text.replace(chip, token, 1)
    assert text == sentence


def test_a_stored_null_is_text_not_a_number_chip():
    fig = Figures({"e1": Experiment(id="e1", doc={"id": "e1", "results": {"s": {"v": None}}})})
    assert str(fig.at("e1", "/results/s/v")) == '<span class="null" title="stored as null">null</span>'
    assert fig.emitted == [] and fig.raws == []
