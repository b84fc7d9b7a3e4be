"""CPU post/pre-processing that runs beside an NPU body (NumPy only, no torch).

What leaves the ONNX graph (sigmoid, argmax, box decoding, NMS, letterbox inverse, uint8 scaling,
layout change) must exist as CPU code; these functions are that code, each tested against the
matching onnxruntime operator where one exists.
"""
from npuready.runtime.activations import relu, sigmoid, softmax
from npuready.runtime.detect import Detections, postprocess
from npuready.runtime.decode import decode_landmarks, dist2bbox, make_anchors
from npuready.runtime.letterbox import Letterbox, letterbox_inverse, letterbox_params
from npuready.runtime.nms import nms, nms_onnx
from npuready.runtime.preprocess import nhwc_to_nchw, normalize, to_float
from npuready.runtime.select import argmax, reduce_max, topk

__all__ = ["Detections", "Letterbox", "postprocess", "argmax", "decode_landmarks", "dist2bbox", "letterbox_inverse",
           "letterbox_params", "make_anchors", "nhwc_to_nchw", "nms", "nms_onnx", "normalize", "reduce_max", "relu",
           "sigmoid", "softmax", "to_float", "topk"]
