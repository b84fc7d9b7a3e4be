"""Which nodes of a float model the integer engine and the INT8 TFLite exporter cannot run yet — known before
anyone quantizes (the intake report's ``integer-coverage`` risks, ``intake.risks.coverage_risks``;
``docs/ops.md`` lists what is covered). It reads both exporters' registries, so it sits above engine and tflite.

Read from the same registries the exporters use (``engine.ops.OPS`` and the lookup-table functions,
``tflite.ops.registry.CONVERTERS`` minus its float-only lowerings), after folding the static shape
arithmetic the exporters fold too. The TFLite column is skipped when ai-edge-litert is not installed.
"""
from __future__ import annotations

from dataclasses import dataclass

from npuready.errors import InputError

PASS_THROUGH = {"QuantizeLinear", "DequantizeLinear", "Constant", "Identity", "Dropout", "Relu", "Clip"}


@dataclass(frozen=True)
class Gap:
    """One node a path cannot run: ``engine``/``tflite`` say why (None: that path runs it)."""

    node: str
    op_type: str
    engine: str | None
    tflite: str | None


def _tflite_registry():
    try:
        from npuready.tflite.ops.registry import CONVERTERS, FLOAT_ONLY
    except ImportError:  # the 'validate' extra (ai-edge-litert) is not installed
        return None, None
    return CONVERTERS, FLOAT_ONLY


def gaps(graph) -> list[Gap]:
    """Nodes of ``graph`` (a float or QDQ ``npuready.graph.Graph``) missing an integer kernel or an int8 lowering."""
    from npuready.engine.ops import OPS, lut
    from npuready.engine.ops.resize import unsupported as resize_mode
    from npuready.engine.static_shapes import fold_static_shapes
    from npuready.graph import load

    if any(n.op_type in ("Shape", "Size") for n in graph.nodes):
        try:
            folded, n = fold_static_shapes(graph.model)
            graph = load(folded) if n else graph
        except InputError:
            pass  # shape arithmetic that does not fold: its nodes are reported below
    converters, float_only = _tflite_registry()
    out = []
    for node in graph.nodes:
        outs = [o for o in node.outputs if o]
        if node.op_type in PASS_THROUGH or (outs and all((graph.info(o).dtype or "") in ("int64", "int32", "bool")
                                                         for o in outs)):
            continue
        engine = tflite = None
        if node.op_type not in OPS and lut.unary_function(graph, node) is None:
            engine = f"op {node.op_type} has no integer kernel"
        elif node.op_type == "Resize":
            engine = resize_mode(node)
        if converters is not None:
            if node.op_type not in converters:
                tflite = f"op {node.op_type} has no TFLite lowering"
            elif node.op_type in float_only:
                tflite = f"op {node.op_type} is lowered to float TFLite only"
            elif node.op_type == "Resize":
                tflite = resize_mode(node)
        if engine or tflite:
            out.append(Gap(node.name, node.op_type, engine, tflite))
    return out
