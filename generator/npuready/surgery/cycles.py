"""Estimated NPU cycles and MACs of a torch model: export to ONNX in memory, run the cost model.

The cost model (``npuready.cost.estimate``) is the same one ``npuready cost`` uses; results are
simulated. A cache keyed by the model's parameter shapes makes greedy searches affordable.
"""
from __future__ import annotations


import onnx
from torch import nn

from npuready.targets import Target, load_target


def export(model: nn.Module, input_shape: tuple[int, ...]) -> onnx.ModelProto:
    """The model as the zoo exports it (``npuready.models.onnx_export``), parsed."""
    from npuready.models.onnx_export import export_bytes

    return onnx.load_from_string(export_bytes(model, input_shape, ["logits"]))


class CycleEstimator:
    """Callable ``model -> simulated cycles`` for one target and input shape (cached by shapes)."""

    def __init__(self, target: "str | Target", input_shape: tuple[int, ...]):
        self.target = load_target(target)
        self.input_shape = tuple(input_shape)
        self._cache: dict[tuple, dict] = {}

    def _key(self, model: nn.Module) -> tuple:
        return tuple((n, tuple(p.shape)) for n, p in model.state_dict().items())

    def report(self, model: nn.Module) -> dict:
        key = self._key(model)
        if key not in self._cache:
            from npuready.cost import estimate

            rep = estimate(export(model, self.input_shape), self.target)
            self._cache[key] = {"cycles": int(rep.cycles), "macs": int(rep.macs), "latency_s": float(rep.latency_s)}
        return self._cache[key]

    def __call__(self, model: nn.Module) -> float:
        return float(self.report(model)["cycles"])


class LayerCycleEstimator:
    """Fast ``model -> simulated cycles`` of the MAC layers only (Conv2d, Linear), for greedy search.

    Each layer is costed by the same cost model on a one-node ONNX graph with the layer's current
    channel counts and its traced spatial size; results are cached per layer configuration. The full
    model export (``CycleEstimator``) is still what experiments report.
    """

    def __init__(self, target: "str | Target", input_shape: tuple[int, ...], model: nn.Module):
        import torch.fx
        from torch.fx.passes.shape_prop import ShapeProp

        self.target = load_target(target)
        gm = torch.fx.symbolic_trace(model)
        ShapeProp(gm).propagate(torch.zeros(input_shape))
        self.spatial: dict[str, tuple[int, int]] = {}
        for node in gm.graph.nodes:
            if node.op == "call_module" and isinstance(gm.get_submodule(node.target), nn.Conv2d):
                shape = node.args[0].meta["tensor_meta"].shape
                self.spatial[node.target] = (int(shape[2]), int(shape[3]))
        self._cache: dict[tuple, int] = {}

    def _layer_cycles(self, key: tuple) -> int:
        if key not in self._cache:
            from onnx import TensorProto, helper

            from npuready.cost import estimate

            if key[0] == "conv":
                _, cin, cout, h, w, kh, kw, sh, sw, ph, pw, groups = key
                node = helper.make_node("Conv", ["x", "w"], ["y"], name="layer", kernel_shape=[kh, kw],
                                        strides=[sh, sw], pads=[ph, pw, ph, pw], group=groups)
                x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, cin, h, w])
                wt = helper.make_tensor("w", TensorProto.FLOAT, [cout, cin // groups, kh, kw],
                                        [0.0] * (cout * (cin // groups) * kh * kw))
                out_shape = [1, cout, (h + 2 * ph - kh) // sh + 1, (w + 2 * pw - kw) // sw + 1]
            else:
                _, fin, fout = key
                node = helper.make_node("Gemm", ["x", "w"], ["y"], name="layer", transB=1)
                x = helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, fin])
                wt = helper.make_tensor("w", TensorProto.FLOAT, [fout, fin], [0.0] * (fout * fin))
                out_shape = [1, fout]
            y = helper.make_tensor_value_info("y", TensorProto.FLOAT, out_shape)
            graph = helper.make_graph([node], "layer", [x], [y], initializer=[wt])
            m = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
            m.ir_version = 8
            self._cache[key] = int(estimate(m, self.target).cycles)
        return self._cache[key]

    def __call__(self, model: nn.Module) -> float:
        total = 0
        for name, m in model.named_modules():
            if isinstance(m, nn.Conv2d) and name in self.spatial:
                h, w = self.spatial[name]
                key = ("conv", m.in_channels, m.out_channels, h, w, *m.kernel_size, *m.stride, *m.padding, m.groups)
            elif isinstance(m, nn.Linear):
                key = ("gemm", m.in_features, m.out_features)
            else:
                continue
            total += self._layer_cycles(key)
        return float(total)
