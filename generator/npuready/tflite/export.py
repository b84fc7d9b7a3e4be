"""The three exporters: float, INT8 by TFLite's calibrator, INT8 from a QDQ ONNX model's own scales."""
from __future__ import annotations

import numpy as np
import onnx
from ai_edge_litert import schema_py_generated as fb
from ai_edge_litert.tools import flatbuffer_utils

from npuready.engine.static_shapes import fold_static_shapes
from npuready.errors import InputError
from npuready.graph import Graph, load
from npuready.tflite.convert import lower_graph
from npuready.tflite.quant_table import strip_qdq
from npuready.tflite.tensor_map import METADATA_KEY, map_buffer, read_tensor_map


def _graph(graph_or_path) -> Graph:
    """The graph with its static shape arithmetic folded (``engine.static_shapes``)."""
    g = graph_or_path if isinstance(graph_or_path, Graph) else load(graph_or_path)
    folded, n = fold_static_shapes(g.model)
    return load(folded) if n else g


def export_float(graph_or_path) -> bytes:
    """ONNX float model (path, ModelProto or Graph) → float32 .tflite bytes (NHWC inside, map embedded)."""
    g = _graph(graph_or_path)
    if any(n.op_type in ("QuantizeLinear", "DequantizeLinear") for n in g.nodes):
        raise InputError(f"{g.name}: is a QDQ model; use export_int8_from_qdq")
    return lower_graph(g)


def _batches(calibration_batches, input_names):
    for batch in calibration_batches:
        if isinstance(batch, dict):
            yield [np.asarray(batch[n], np.float32) for n in input_names]
        elif isinstance(batch, (list, tuple)):
            yield [np.asarray(b, np.float32) for b in batch]
        else:
            yield [np.asarray(batch, np.float32)]


def export_int8_calibrated(graph_or_path, calibration_batches) -> bytes:
    """Float .tflite + TFLite's post-training calibrator → full-integer INT8 .tflite (int8 in and out).

    ``calibration_batches``: iterable of arrays (single-input models), lists in input order, or dicts
    by ONNX input name, each in ONNX layout (NCHW) with batch 1. Weights become symmetric per-channel
    int8, activations asymmetric per-tensor int8, bias int32 (TFLite's quantizer conventions).
    """
    from ai_edge_litert import _pywrap_tensorflow_lite_calibration_wrapper as calib  # private; version pinned

    float_bytes = export_float(graph_or_path)
    mapping = read_tensor_map(float_bytes)
    wrapper = calib.CalibrationWrapper(float_bytes, [], [])
    fed = 0
    for arrays in _batches(calibration_batches, mapping.inputs):
        tfl = [mapping.tensors[n].to_tflite(a) for n, a in zip(mapping.inputs, arrays)]
        if fed == 0:
            wrapper.Prepare([list(a.shape) for a in tfl])
        wrapper.FeedTensor([np.ascontiguousarray(a) for a in tfl])
        fed += 1
    if fed == 0:
        raise InputError("calibration_batches: empty; give at least one input batch")
    i8, i32 = np.dtype(np.int8).num, np.dtype(np.int32).num
    quantized = bytes(wrapper.QuantizeModel(i8, i8, False, i8, i32, False, False))
    return _restore_metadata(quantized, float_bytes)


def _restore_metadata(quantized: bytes, float_bytes: bytes) -> bytes:
    """Keep the ONNX map in the quantized file (the quantizer may drop model metadata)."""
    model = flatbuffer_utils.convert_bytearray_to_object(bytearray(quantized))
    if map_buffer(model) is not None:
        return quantized
    src = flatbuffer_utils.convert_bytearray_to_object(bytearray(float_bytes))
    src_buf = map_buffer(src)
    if src_buf is not None:
        buf = fb.BufferT()
        buf.data = np.asarray(src.buffers[src_buf].data, dtype=np.uint8)
        model.buffers.append(buf)
        new = fb.MetadataT()
        new.name = METADATA_KEY
        new.buffer = len(model.buffers) - 1
        model.metadata = (model.metadata or []) + [new]
    return bytes(flatbuffer_utils.convert_object_to_bytearray(model))


def export_int8_from_qdq(qdq_graph_or_path) -> bytes:
    """QDQ ONNX model → INT8 .tflite using exactly its scales and zero points (no re-calibration)."""
    g = _graph(qdq_graph_or_path)
    model = onnx.ModelProto()
    model.CopyFrom(g.model)
    float_model, table = strip_qdq(model)
    if not table.act:
        raise InputError(f"{g.name}: has no QuantizeLinear nodes; not a QDQ model (use export_int8_calibrated)")
    return lower_graph(load(float_model, canonical=False), table)  # the QDQ model's own ops, as quantised
