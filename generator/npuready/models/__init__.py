"""The model zoo (torch extra): definitions, training, export, and ``load(name)``.

Zoo names: "resnet20", "mobilenetv2", "vit_tiny", "tinycnn", "detector", and the library-defined
architectures trained through the ``fashion_mnist_64_rgb`` preset: "mobilenetv3_small_050_fm64",
"mobilenetv2_050_fm64", "squeezenet1_1_fm64". Files live in ``zoo/``:
``<name>.pt`` (state_dict), ``<name>.onnx`` (opset 17, static batch 1) and ``zoo.json``.
"""
from npuready.models.load import checkpoint_path, load, onnx_path
from npuready.models.zoo import FASHION_MEAN, FASHION_STD, ZOO

__all__ = ["FASHION_MEAN", "FASHION_STD", "ZOO", "checkpoint_path", "load", "onnx_path"]
