"""A layer's weight stream on the Ethos-U mirrors (npuready.cost.weight_stream): LiteRT's int8 values, Vela's
weight order, and the encoded size Vela 5.2.0 itself reports per layer (its debug database)."""
import csv
import dataclasses
import io
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest
from onnx import helper, numpy_helper

from npuready.cost import estimate
from npuready.cost.lowering import lower
from npuready.cost.model import shram, streamed_weight_bytes, ublock
from npuready.cost.weight_stream import DEPTH_FIRST, encoded_weight_bytes, tflite_int8, weight_order
from npuready.cost.workload import workload
from npuready.graph import load
from npuready.targets import load_target

from .conftest import make_model, vi


def _conv(w: np.ndarray, size: int = 8, group: int = 1, name: str = "conv"):
    cout, cin_g, kh, kw = w.shape
    nodes = [helper.make_node("Conv", ["x", "w"], ["y"], name=name, kernel_shape=[kh, kw],
                              pads=[kh // 2, kw // 2, kh // 2, kw // 2], group=group)]
    return load(make_model(nodes, [vi("x", [1, cin_g * group, size, size])], [vi("y", [1, cout, size, size])],
                           [numpy_helper.from_array(w.astype(np.float32), "w")]))


def _tflite_int8_formula(weights: np.ndarray) -> np.ndarray:
    """LiteRT's symmetric per-channel int8 values as the docstring of weight_stream spells them (the
    straightforward NumPy form tflite_int8 computes in place)."""
    w = np.asarray(weights, dtype=np.float32)
    scale = np.abs(w.reshape(w.shape[0], -1)).max(axis=1).astype(np.float64) / 127.0
    inverse = np.divide(1.0, scale, out=np.zeros_like(scale), where=scale > 0).astype(np.float32)
    with np.errstate(over="ignore", invalid="ignore"):
        x = np.nan_to_num(w * inverse.reshape(-1, *([1] * (w.ndim - 1))), nan=0.0)
    return np.clip(np.sign(x) * np.floor(np.abs(x) + np.float32(0.5)), -127, 127).astype(np.int8)


def test_tflite_int8_equals_the_formula_on_edge_values():
    rng = np.random.default_rng(12)
    w = rng.laplace(0, 0.05, (40, 7, 3, 3)).astype(np.float32)
    w[0] = 0.0                                        # an all-zero channel: scale 0, values 0
    w[1, 0, 0, 0] = np.float32(1e-44)                 # a subnormal peak: 1/scale overflows to inf
    w[1, 1:] = np.float32(-1e-45)
    w[2] = np.linspace(-1, 1, w[2].size).reshape(w[2].shape)  # exact ties at +-0.5 steps
    w[3] = np.float32(-0.0)
    w[4, 0, 0, 0] = np.inf                           # inf peak: inf * 0 -> nan -> 0
    w[5, 0, 1, 1] = np.nan
    w[6] = (np.arange(w[6].size).reshape(w[6].shape) - 31.5) / 63 * 127 / 127  # many halves
    got, want = tflite_int8(w), _tflite_int8_formula(w)
    assert got.dtype == np.int8 and np.array_equal(got, want)
    dense = rng.standard_normal((64, 200)).astype(np.float32)
    assert np.array_equal(tflite_int8(dense), _tflite_int8_formula(dense))


def test_depth_first_order_walks_ofm_then_ifm_micro_blocks_padded_to_the_ifm_block():
    w = np.arange(1, 7, dtype=np.int8).reshape(2, 1, 1, 3)  # 2 output channels, 3 input channels, 1 x 1
    seq = weight_order(w, 16, DEPTH_FIRST)
    # one OFM block; IFM block of 32 channels = 4 micro-blocks of 8; each micro-block: 8 OFM x 8 IFM values
    assert len(seq) == 4 * 8 * 8
    assert list(seq[:16]) == [1, 2, 3, 0, 0, 0, 0, 0, 4, 5, 6, 0, 0, 0, 0, 0]
    assert not seq[16:].any()


def test_all_zero_output_channels_cost_little_on_the_mirrors():
    w = np.random.default_rng(0).standard_normal((16, 32, 3, 3))  # 32 input channels: no IFM-block padding
    sparse = w.copy()
    sparse[:8] = 0.0  # timm zero-initialises the last BatchNorm of a residual block: it folds into such a conv
    for target in ("ethos-u55-128", "ethos-u65-256"):
        t = load_target(target)
        dense_bytes, sparse_bytes = (streamed_weight_bytes(workload(g, g.nodes[0]), t)
                                     for g in (_conv(w), _conv(sparse)))
        # the zeros go into runs; every other weight then also carries a (short) run-length symbol
        assert sparse_bytes < dense_bytes * 0.7
    t = load_target("edge-10")  # no weight codec: one byte per weight
    assert streamed_weight_bytes(workload(_conv(sparse), _conv(sparse).nodes[0]), t) == 16 * 32 * 9


def test_a_grouped_conv_streams_each_group_s_own_weights():
    w = np.random.default_rng(2).standard_normal((8, 2, 3, 3))
    w[:4] = 0.0  # group 0 all zero, group 1 not
    g = _conv(w, group=2)
    t = load_target("ethos-u55-128")
    convs = [s.work for s in lower(g, g.nodes[0], t) if s.vela_op == "Conv2D"]
    assert [c.weights.ohwi.shape for c in convs] == [(4, 3, 3, 2), (4, 3, 3, 2)]
    zero, other = (streamed_weight_bytes(c, t) for c in convs)
    assert zero < other


def test_a_codec_free_copy_of_the_mirror_counts_every_byte():
    g = _conv(np.random.default_rng(3).standard_normal((16, 8, 3, 3)))
    t = dataclasses.replace(load_target("ethos-u55-128"), weight_codec="")
    assert streamed_weight_bytes(workload(g, g.nodes[0]), t) == 16 * 8 * 9


# ---- against LiteRT and Vela themselves (validate extra) ----

def _model():
    """Layers of each weight traversal: part-kernel-first (3 input channels), depth-first, a depthwise conv, a
    conv of more than one 128 Ki-value section, a peaked weight distribution (palette), half-zero channels
    (zero runs) and a fully connected layer."""
    rng = np.random.default_rng(7)
    inits, nodes = [], []

    def conv(x, y, shape, group=1, scale=None):
        w = rng.standard_normal(shape) if scale is None else rng.laplace(0, scale, shape)
        inits.append(numpy_helper.from_array(w.astype(np.float32), f"{y}_w"))
        inits.append(numpy_helper.from_array(rng.standard_normal(shape[0]).astype(np.float32), f"{y}_b"))
        k = shape[2]
        nodes.append(helper.make_node("Conv", [x, f"{y}_w", f"{y}_b"], [y], name=y, kernel_shape=[k, k],
                                      pads=[k // 2] * 4, group=group))
        return w

    conv("x", "c1", (32, 3, 3, 3))
    conv("c1", "c2", (64, 32, 3, 3))
    conv("c2", "dw", (64, 1, 3, 3), group=64)
    conv("dw", "c3", (256, 64, 3, 3), scale=0.02)  # 147,456 weights: two sections
    w = conv("c3", "c4", (128, 256, 1, 1))
    inits[-2] = numpy_helper.from_array(np.where(np.arange(128)[:, None, None, None] % 2, w, 0).astype(np.float32),
                                        "c4_w")
    nodes.append(helper.make_node("GlobalAveragePool", ["c4"], ["gap"], name="gap"))
    nodes.append(helper.make_node("Flatten", ["gap"], ["flat"], name="flat"))
    inits.append(numpy_helper.from_array(rng.standard_normal((128, 100)).astype(np.float32), "fc_w"))
    nodes.append(helper.make_node("MatMul", ["flat", "fc_w"], ["y"], name="fc"))
    return make_model(nodes, [vi("x", [1, 3, 8, 8])], [vi("y", [1, 100])], inits)


def _vela_weight_rows(tflite, out, accelerator):
    subprocess.run([sys.executable, "-m", "ethosu.vela", str(tflite), "--accelerator-config", accelerator,
                    "--enable-debug-db", "--output-dir", str(out)], check=True, capture_output=True)
    root = ET.parse(next(out.glob("*_debug.xml"))).getroot()
    for table in root.iter("table"):
        if table.get("name") == "perf_debug":
            text = (table.text or "") + "".join(c.text or "" for c in table)
            rows = list(csv.DictReader(io.StringIO(text.strip())))
            return [r for r in rows if r["weight_total_bytes"] and r["weight_distinct"] != "1"]  # not Mean's ones
    raise AssertionError("no perf_debug table")


@pytest.mark.parametrize("target", ["ethos-u55-128", "ethos-u65-256"])
def test_encoded_weight_bytes_equal_vela_s_per_layer(tmp_path, target):
    pytest.importorskip("ethosu.vela")
    pytest.importorskip("ai_edge_litert")
    from npuready.tflite import export_int8_calibrated

    g = load(_model())
    data = [np.random.default_rng(i).standard_normal((1, 3, 8, 8)).astype(np.float32) for i in range(2)]
    tfl = tmp_path / "m.tflite"
    tfl.write_bytes(export_int8_calibrated(g, data))
    vela_rows = _vela_weight_rows(tfl, tmp_path / "out", target)
    t = load_target(target)
    ours = [encoded_weight_bytes(lw, ublock(t), shram(t)) for lw in (workload(g, n).weights for n in g.nodes)
            if lw is not None]
    one_stream = [int(r["weight_total_bytes"]) for r in vela_rows if r["ofm_depth_slices"].count("|") == 1]
    assert len(vela_rows) == len(ours) == 6
    assert len(one_stream) >= 5  # Vela may slice a layer's OFM depth into streams (not modelled)
    assert [o for o, r in zip(ours, vela_rows) if r["ofm_depth_slices"].count("|") == 1] == one_stream


def test_int8_values_equal_the_ones_litert_writes(tmp_path):
    pytest.importorskip("ai_edge_litert")
    from ai_edge_litert.interpreter import Interpreter

    from npuready.tflite import export_int8_calibrated

    g = load(_model())
    data = [np.random.default_rng(0).standard_normal((1, 3, 8, 8)).astype(np.float32)]
    interpreter = Interpreter(model_content=export_int8_calibrated(g, data))
    interpreter.allocate_tensors()
    filters = [interpreter.get_tensor(op["inputs"][1]) for op in interpreter._get_ops_details()
               if op["op_name"] in ("CONV_2D", "DEPTHWISE_CONV_2D", "FULLY_CONNECTED")]
    ours = [workload(g, n).weights for n in g.nodes if workload(g, n).weights is not None]
    assert len(filters) == len(ours) == 6
    for lw, tf in zip(ours, filters):
        q = tflite_int8(lw.ohwi)
        expected = tf.transpose(3, 1, 2, 0) if lw.op.kind == "depthwise" else tf.reshape(q.shape)
        assert np.array_equal(q, expected)


def test_the_mirror_charges_the_encoded_stream_in_its_memory_cycles():
    g = _conv(np.random.default_rng(4).laplace(0, 0.01, (64, 64, 3, 3)), size=4)
    t = dataclasses.replace(load_target("ethos-u55-128"), shram_banks=0)
    raw = dataclasses.replace(t, weight_codec="")
    encoded, plain = (estimate(g, x).layers[0] for x in (t, raw))
    w = workload(g, g.nodes[0])
    assert plain.dram_bytes == w.weight_bytes
    assert encoded.dram_bytes == streamed_weight_bytes(w, t) < w.weight_bytes
