"""The library-built architectures: an explicit registry of recipes (name -> Recipe).

Each recipe names a real architecture *as its own library defines it* (timm, torchvision, ultralytics).
It is built from code at run time, offline, with **random-initialised weights** (nothing is downloaded):
the graphs are real, the weights and therefore any accuracy are not. Building needs the ``corpus``
extra (``pip install 'npuready[corpus]'``); the core install does not.
"""
from __future__ import annotations

from dataclasses import dataclass

LIBRARIES = ("timm", "torchvision", "ultralytics")
TASKS = ("classify", "detect", "segment", "pose")


@dataclass(frozen=True)
class Recipe:
    """One architecture: how to build it and at what input shape it is exported by default.

    ``constructor`` is the library's own id: a ``timm.create_model`` name, a ``torchvision.models``
    builder name, or an ultralytics model yaml. ``fixed_size`` means the architecture bakes the image
    size into its definition (position embeddings, attention windows): a different size is passed to
    the constructor (timm ``img_size``) instead of only changing the example input.
    """

    name: str
    library: str
    constructor: str
    input_shape: tuple[int, int, int, int]
    task: str
    notes: str = ""
    reparameterize: bool = False
    fixed_size: bool = False

    def __post_init__(self) -> None:
        assert self.library in LIBRARIES, self.library
        assert self.task in TASKS, self.task
        assert len(self.input_shape) == 4 and self.input_shape[:2] == (1, 3), self.input_shape

    @property
    def image_size(self) -> int:
        return self.input_shape[2]


def _timm(name: str, constructor: str, size: int = 224, notes: str = "", **kw) -> Recipe:
    return Recipe(name, "timm", constructor, (1, 3, size, size), "classify", notes, **kw)


def _tv(name: str, constructor: str, notes: str = "") -> Recipe:
    return Recipe(name, "torchvision", constructor, (1, 3, 224, 224), "classify", notes)


def _yolo(name: str, yaml: str, task: str, notes: str) -> Recipe:
    return Recipe(name, "ultralytics", yaml, (1, 3, 640, 640), task,
                  notes + "; prepared as ultralytics' ONNX exporter prepares it (fused, eval, head export=True, "
                          "static shapes, no NMS in the graph: decode stays in, NMS is the CPU's job)")


_ALL = (
    _timm("resnet18", "resnet18", notes="residual CNN, BatchNorm folded at export"),
    _timm("resnet50", "resnet50", notes="bottleneck residual CNN"),
    _timm("mobilenetv2", "mobilenetv2_100", notes="inverted residuals, ReLU6"),
    _timm("mobilenetv3_large", "mobilenetv3_large_100", notes="squeeze-excite, hard-swish"),
    _timm("mobilenetv3_small", "mobilenetv3_small_100", notes="squeeze-excite, hard-swish"),
    _timm("efficientnet_b0", "efficientnet_b0", notes="MBConv, SiLU, squeeze-excite"),
    _timm("efficientnet_lite0", "efficientnet_lite0", notes="MBConv without squeeze-excite, ReLU6 (edge variant)"),
    _timm("regnety_200mf", "regnety_002", notes="RegNetY-200MF: grouped convs, squeeze-excite"),
    _timm("repvgg_a0", "repvgg_a0", notes="reparameterised to plain 3x3 convs (deploy form)", reparameterize=True),
    _timm("convnext_atto", "convnext_atto", notes="7x7 depthwise convs, LayerNorm, GELU"),
    _timm("deit_tiny", "deit_tiny_patch16_224", notes="vision transformer: LayerNorm, attention, GELU",
          fixed_size=True),
    _timm("vit_tiny", "vit_tiny_patch16_224", notes="vision transformer: LayerNorm, attention, GELU",
          fixed_size=True),
    _timm("mobilevit_xxs", "mobilevit_xxs", 256, notes="hybrid CNN + transformer blocks"),
    _timm("swin_tiny", "swin_tiny_patch4_window7_224", notes="shifted-window attention",
          fixed_size=True),
    _timm("densenet121", "densenet121", notes="dense concatenation, BatchNorm after Concat"),
    _tv("squeezenet1_1", "squeezenet1_1", notes="fire modules, ceil-mode MaxPool"),
    _tv("shufflenet_v2", "shufflenet_v2_x1_0", notes="channel shuffle (Reshape/Transpose), channel split"),
    _yolo("yolov8n", "yolov8n.yaml", "detect", "YOLOv8n detection"),
    _yolo("yolo11n", "yolo11n.yaml", "detect", "YOLO11n detection (C3k2, C2PSA attention)"),
    _yolo("yolov8n_seg", "yolov8n-seg.yaml", "segment", "YOLOv8n instance segmentation (mask protos)"),
    _yolo("yolov8n_pose", "yolov8n-pose.yaml", "pose", "YOLOv8n pose (17 keypoints)"),
)

RECIPES: dict[str, Recipe] = {r.name: r for r in _ALL}


def get_recipe(name: str) -> Recipe:
    from npuready.errors import InputError

    try:
        return RECIPES[name]
    except KeyError:
        raise InputError(f"unknown library model '{name}': known are {', '.join(RECIPES)} "
                         "(see 'npuready models list')") from None
