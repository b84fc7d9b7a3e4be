"""What left the NPU graph: every CPU-placed node, the computation it performs, and what implements it
on the CPU: an ``npuready.runtime`` function, plain NumPy, or onnxruntime running the extracted CPU part
(``npuready partition --extract`` writes head/cpu_<k>/tail as ONNX files). A node is flagged as missing
(``cpu_function is None``) only when it needs hand-written CPU code before the model can ship ("what
leaves the graph must exist on the CPU"): a custom operator no runtime knows, or data-dependent
post-processing (NMS, top-k, decode loops, ...) without an ``npuready.runtime`` function. A standard layer
placed on the CPU (Conv, LayerNormalization, Resize, ...) runs in onnxruntime and is not missing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from npuready.graph import Graph, Node, families

NUMPY = "numpy (builtin)"
RT = "npuready.runtime."
ONNXRUNTIME = "onnxruntime (the extracted CPU part)"

# op_type -> (computation, implementation) when the context does not matter
_FIXED: dict[str, tuple[str, str]] = {
    "Sigmoid": ("sigmoid on scores / logits", RT + "activations.sigmoid"),
    "Softmax": ("softmax", RT + "activations.softmax"),
    "Relu": ("relu", RT + "activations.relu"),
    "ArgMax": ("argmax (class decoding)", RT + "select.argmax"),
    "TopK": ("top-k selection", RT + "select.topk"),
    "ReduceMax": ("max over classes", RT + "select.reduce_max"),
    "NonMaxSuppression": ("non-maximum suppression", RT + "nms.nms_onnx"),
}
_DATA_MOVEMENT = families.DATA_MOVEMENT
_ARITH = families.ARITHMETIC
# element-wise math and reductions with a one-line NumPy equivalent
_NUMPY_MATH = frozenset({"Sum", "Max", "Min", "Mean", "Neg", "Abs", "Floor", "Ceil", "Round", "Exp", "Log", "Sqrt",
                         "Pow", "Clip", "Where", "Equal", "Greater", "Less", "Not", "And", "Or", "ReduceSum",
                         "ReduceMean", "ReduceMin"})
# data-dependent post-processing: output sizes or control flow depend on the values, so a deployment
# writes it by hand for its CPU; missing unless _FIXED names an npuready.runtime function for it
_HAND_WRITTEN = frozenset({"NonMaxSuppression", "TopK", "NonZero", "Unique", "Loop", "Scan", "If", "RoiAlign",
                           "Compress", "SequenceConstruct", "SequenceInsert", "SequenceAt", "ConcatFromSequence",
                           "SplitToSequence"})


@dataclass(frozen=True)
class InventoryItem:
    part: str  # head | cpu_<k> | tail | cpu
    node: str
    op_type: str
    computation: str
    cpu_function: str | None  # dotted name in npuready.runtime, "numpy (builtin)", or None = missing

    def to_dict(self) -> dict[str, Any]:
        return {"part": self.part, "node": self.node, "op_type": self.op_type, "computation": self.computation,
                "cpu_function": self.cpu_function, "missing": self.cpu_function is None}


def build_inventory(graph: Graph, segments: Iterable) -> list[InventoryItem]:
    by_name = {n.name: n for n in graph.nodes}
    items = []
    for seg in segments:
        if seg.device != "cpu":
            continue
        members = set(seg.nodes)
        for name in seg.nodes:
            node = by_name[name]
            computation, fn = classify(graph, node, seg.name, members)
            items.append(InventoryItem(seg.name, name, node.op_type, computation, fn))
    return items


def classify(graph: Graph, node: Node, part: str, members: set[str]) -> tuple[str, str | None]:
    op = node.op_type
    if not node.is_standard:
        return f"custom operator {node.domain}:{op}", None
    if op in _FIXED:
        return _FIXED[op]
    if op == "Cast":
        src = graph.info(node.inputs[0]).dtype if node.inputs else None
        if src in ("uint8", "int8"):
            return f"{src}→float conversion", RT + "preprocess.to_float"
        return "type conversion", NUMPY
    if op == "Transpose":
        if list(node.attr("perm", [])) == [0, 3, 1, 2]:
            return "layout change NHWC→NCHW", RT + "preprocess.nhwc_to_nchw"
        return "transpose", NUMPY
    if op in _ARITH:
        if part == "head":
            return "input scaling / mean-std normalisation", RT + "preprocess.normalize"
        if _near_box_decode(graph, node, members):
            return "box decoding (dist2bbox-style)", RT + "decode.dist2bbox"
        return "element-wise arithmetic", NUMPY
    if op in _DATA_MOVEMENT:
        return "reshape / indexing", NUMPY
    if op in _NUMPY_MATH:
        return f"element-wise / reduction math ({op})", NUMPY
    if op in _HAND_WRITTEN:
        return f"data-dependent post-processing ({op}): needs hand-written CPU code", None
    return f"{op} layer", ONNXRUNTIME


def _near_box_decode(graph: Graph, node: Node, members: set[str]) -> bool:
    """Arithmetic fed by a Split or feeding a Concat inside the same CPU part: the dist2bbox pattern."""
    for i in node.inputs:
        p = graph.producers.get(i)
        if p is not None and p.name in members and p.op_type == "Split":
            return True
    for o in node.outputs:
        for c in graph.consumers.get(o, ()):
            if c.name in members and c.op_type == "Concat":
                return True
    return False
