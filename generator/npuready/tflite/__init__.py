"""ONNX → TFLite export without TensorFlow, and a LiteRT runner that returns every tensor.

Built on ai-edge-litert 2.3.0 (pinned): the flatbuffer object API (``schema_py_generated``),
``tools.flatbuffer_utils`` and TFLite's own post-training calibrator
(``_pywrap_tensorflow_lite_calibration_wrapper.CalibrationWrapper``, a private module).

Public functions
----------------
``export_float(graph_or_path) -> bytes``
    ONNX float model (path, ModelProto or ``npuready.graph.Graph``; static shapes, batch 1,
    float32 inputs) → float32 .tflite.
``export_int8_calibrated(graph_or_path, calibration_batches) -> bytes``
    The float .tflite calibrated and quantized by TFLite's own quantizer: full integer, int8
    inputs and outputs (what Vela needs), int8 weights symmetric per-channel, int8 activations
    asymmetric per-tensor, int32 bias. Batches are NCHW arrays (or lists/dicts per input).
``export_int8_from_qdq(qdq_graph_or_path) -> bytes``
    A QDQ ONNX model (onnxruntime ``quantize_static`` QDQ format: int8 activations asymmetric,
    int8 weights symmetric per-channel, int32 bias) → INT8 .tflite with exactly its scales, zero
    points and integer weights/biases. No re-calibration.
``run_litert(tflite_bytes, inputs, reference=True, input_rounding="half_away") -> LiteRTRun``
    LiteRT Interpreter with BUILTIN_REF kernels and ``experimental_preserve_all_tensors``;
    ``.tflite`` every tensor by TFLite name, ``.onnx`` every mapped ONNX tensor in ONNX layout,
    ``.qparams``, ``.mapping``, ``.dequantized(name)``.
``read_tensor_map(tflite_bytes) -> TensorMap``
    The ONNX ↔ TFLite map embedded in every exported file (metadata ``npuready.onnx_map``).

Layout
------
TFLite is channels-last. **Rank-4 graph inputs become NHWC TFLite inputs** (no Transpose op at
the front, so Vela maps the whole graph to the NPU); ``run_litert`` transposes NCHW arrays for
you. Inside, every 4-D activation is NHWC; the exporter tracks each tensor's axis order as a
``perm`` (TFLite axis i holds ONNX axis perm[i]) and inserts TRANSPOSE only where an op needs ONNX
memory order (Reshape/Flatten of a tensor whose H·W > 1 and C > 1, MatMul/FC, LayerNorm). ONNX
Transpose ops become free relabellings. Graph outputs stay in their stored order; the map says
which. Every ONNX tensor that exists in the TFLite graph is in ``TensorMap.tensors``; tensors
folded into a neighbour (Conv→BatchNormalization, Conv/Gemm/Add→Relu/Clip, the exact-GELU chain)
are in ``TensorMap.fused``; in QDQ exports the QuantizeLinear/DequantizeLinear output names are
aliases of the float tensor they quantize.

Ops (ONNX default domain)
-------------------------
Conv 2-D (regular → CONV_2D; depthwise incl. depth multiplier → DEPTHWISE_CONV_2D; other groups →
SPLIT + CONV_2D + CONCATENATION), dilations, any pads (TF SAME, VALID, or explicit PAD); ConvTranspose 2-D
(group 1, no dilation) → TRANSPOSE_CONV (VALID, full output) + STRIDED_SLICE cropping ONNX's pads;
Gemm / MatMul with constant B → FULLY_CONNECTED (keep_num_dims for rank > 2), run-time B →
BATCH_MATMUL; Add, Sub, Mul, Div, Max, Min with NumPy broadcasting; BatchNormalization (float: folded
into the preceding Conv, else MUL + ADD; int8: the integer engine's per-channel multiply-add as a 1×1
DEPTHWISE_CONV_2D); MaxPool, AveragePool (count_include_pad
honoured), GlobalAveragePool / ReduceMean → MEAN, GlobalMaxPool / ReduceMax → REDUCE_MAX;
Relu, Clip (0..6 / 0..inf / -1..1 → RELU6/RELU/RELU_N1_TO_1, fused into Conv/Gemm/Add/Sub/Mul
when it is their only consumer; other bounds → MAXIMUM/MINIMUM, float only), Sigmoid, Tanh,
HardSwish, LeakyRelu, Gelu, Softmax (any axis: moved last in the stored order); Reshape, Flatten, Squeeze,
Unsqueeze → RESHAPE; Transpose; Concat; Gather (constant indices); Slice (constant, positive
steps) → STRIDED_SLICE; Split → one STRIDED_SLICE per output; Pad (constant) → PAD/PADV2; Resize (nearest,
asymmetric, floor) → RESIZE_NEAREST_NEIGHBOR; PRelu → PRELU; int8 Div by a constant scalar → MUL by its
reciprocal; int8 HardSigmoid/Erf/Elu and Div → Erf chains → the integer engine's 256-entry table (CAST +
ADD + GATHER); float HardSigmoid → relu6(6αx + 6β)/6 ([MUL] + ADD with fused RELU6 + MUL, as a converter
lowers Keras' hard_sigmoid, so TFLite's calibrator quantises it); Identity, Dropout; LayerNormalization (decomposed into
MEAN/SUB/MUL/RSQRT/ADD; float only); Div→Erf→Add→Mul→Mul (exact GELU) → GELU. Nodes with only constant inputs,
and Shape of static tensors, are folded at export. Static shape arithmetic (Shape → Gather → Div → Slice …) is folded
first (``engine.static_shapes``). Anything else → ``InputError`` naming the node and the op.

Quantization conventions (int8 exports)
---------------------------------------
real = scale · (q − zero_point). Activations int8 per-tensor (uint8 QDQ activations are shifted
exactly by −128); weights int8 symmetric (zero point 0), per-channel along the output channel:
CONV_2D ``[O,kh,kw,I]`` quantized_dimension 0, DEPTHWISE ``[1,kh,kw,O]`` dimension 3,
FULLY_CONNECTED ``[N,K]`` dimension 0; bias int32, zero point 0, scale input_scale ·
weight_scale[c] (the QDQ integers are used as-is when the QDQ bias scale equals that product,
else the bias is re-quantized and the change is listed in ``TensorMap.adjustments``). TFLite
kernel constraints the QDQ model may violate, and what the exporter does (each listed in
``adjustments``): LOGISTIC/SOFTMAX output must be 1/256, −128 and TANH 1/128, 0 → the op writes
that and a QUANTIZE requantizes to the QDQ scale; MAX/AVERAGE_POOL, RESHAPE, TRANSPOSE, GATHER,
STRIDED_SLICE, REDUCE_MAX keep the input scale → QUANTIZE after when the QDQ output differs;
CONCATENATION inputs must share the output scale → QUANTIZE on differing inputs. A Relu/Clip is
fused only when its input and output share scale and zero point. Refused with ``InputError``:
activations without a Q/DQ pair (onnxruntime leaves e.g. HardSwish, ReduceMean, LayerNorm in
float), uint8 or asymmetric weights, per-input-channel FC
weights, int8 Div / LayerNorm / generic Clip.
"""
from npuready.tflite.export import export_float, export_int8_calibrated, export_int8_from_qdq
from npuready.tflite.run import LiteRTRun, run_litert
from npuready.tflite.tensor_map import TensorMap, TensorRef, read_tensor_map

__all__ = ["export_float", "export_int8_calibrated", "export_int8_from_qdq", "run_litert", "LiteRTRun",
           "TensorMap", "TensorRef", "read_tensor_map"]
