"""ONNX → TFLite export (float32, INT8 by TFLite's calibrator, INT8 from QDQ scales) and a LiteRT runner."""
from npuready.tflite.export import export_float, export_int8_calibrated, export_int8_from_qdq
from npuready.tflite.run import LiteRTRun, run_litert
from npuready.tflite.tensor_map import TensorMap, TensorRef, read_tensor_map

__all__ = ["export_float", "export_int8_calibrated", "export_int8_from_qdq", "run_litert", "LiteRTRun",
           "TensorMap", "TensorRef", "read_tensor_map"]
