"""One probe per activation op (every activation any target may allow needs a passing probe here)."""
from __future__ import annotations

import numpy as np

from npuready.probes.build import f32, single
from npuready.probes.probe import Probe

C = 16


def _p(op: str, description: str, **kw) -> Probe:
    return Probe(name=op, group="activation", op_types=(op,), description=description, build=lambda: single(op, **kw))


ACTIVATION_PROBES: tuple[Probe, ...] = (
    _p("Relu", "max(x, 0)"),
    _p("LeakyRelu", "leaky ReLU, alpha 0.1", attrs={"alpha": 0.1}),
    _p("PRelu", "per-channel learned slope", extra=[("slope", np.full((C, 1, 1), 0.25, np.float32))]),
    _p("Clip", "ReLU6 as Clip(0, 6)", extra=[("lo", f32(0.0).reshape(())), ("hi", f32(6.0).reshape(()))]),
    _p("Sigmoid", "logistic sigmoid (detector objectness/class scores)"),
    _p("HardSigmoid", "piecewise-linear sigmoid, alpha 1/6, beta 0.5", attrs={"alpha": 1 / 6, "beta": 0.5}),
    _p("HardSwish", "x * HardSigmoid(x) (MobileNetV3)", opset=14),
    _p("Tanh", "hyperbolic tangent"),
    _p("Gelu", "GELU, exact (erf) form", opset=20),
    _p("Erf", "error function (inside exported GELU)"),
    _p("Softmax", "softmax over channels", attrs={"axis": 1}),
    _p("LogSoftmax", "log-softmax over channels", attrs={"axis": 1}),
    _p("Hardmax", "one-hot of the channel maximum", attrs={"axis": 1}),
    _p("Elu", "ELU, alpha 1"),
    _p("Selu", "SELU"),
    _p("Celu", "CELU, alpha 1", opset=12),
    _p("Softplus", "log(1 + exp(x))"),
    _p("Softsign", "x / (1 + |x|)"),
    _p("Mish", "x * tanh(softplus(x))", opset=18),
    _p("ThresholdedRelu", "x if x > 1 else 0"),
    _p("Shrink", "soft shrink, lambd 0.5", attrs={"lambd": 0.5, "bias": 0.5}),
    _p("Exp", "exponential (softmax/box decoding)"),
    _p("Swish", "x * sigmoid(alpha x) as one op (opset 24)", opset=24),
)
