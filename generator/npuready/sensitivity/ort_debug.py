"""onnxruntime's own per-tensor quantisation error (``onnxruntime.quantization.qdq_loss_debug``), for comparison.

``qdq_loss_errors(float_model, qdq, x)``: per quantised activation, ``xmodel_err`` (SQNR in dB of the QDQ
model's dequantised activation against the float model's) and ``qdq_err`` (the activation before vs after its
own QuantizeLinear/DequantizeLinear), as onnxruntime computes them over the images of ``x``. Measured.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import numpy as np
import onnx


def _reader(name: str, x: np.ndarray):
    from onnxruntime.quantization.calibrate import CalibrationDataReader

    class Reader(CalibrationDataReader):
        def __init__(self):
            self.i = 0

        def get_next(self):
            if self.i >= len(x):
                return None
            self.i += 1
            return {name: x[self.i - 1:self.i]}

        def rewind(self):
            self.i = 0

    return Reader()


def qdq_loss_errors(float_model: onnx.ModelProto, qdq: onnx.ModelProto, x: np.ndarray) -> dict[str, dict]:
    from onnxruntime.quantization import qdq_loss_debug as d

    from npuready.quant.quiet import captured_logs

    with tempfile.TemporaryDirectory() as tmp, captured_logs():
        paths = {k: Path(tmp) / f"{k}.onnx" for k in ("float", "qdq", "float_aug", "qdq_aug")}
        onnx.save(float_model, paths["float"])
        onnx.save(qdq, paths["qdq"])
        d.modify_model_output_intermediate_tensors(paths["float"], paths["float_aug"])
        d.modify_model_output_intermediate_tensors(paths["qdq"], paths["qdq_aug"])
        name = float_model.graph.input[0].name
        fa = d.collect_activations(str(paths["float_aug"]), _reader(name, x))
        qa = d.collect_activations(str(paths["qdq_aug"]), _reader(qdq.graph.input[0].name, x))
        errors = d.compute_activation_error(d.create_activation_matching(qa, fa))
    return {k: {e: float(v) for e, v in errs.items()} for k, errs in errors.items()}
