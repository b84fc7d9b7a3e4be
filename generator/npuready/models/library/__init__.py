"""Real architectures built offline by the libraries that define them (timm, torchvision, ultralytics),
with random-initialised weights, exported to ONNX. Needs the ``corpus`` extra.

- ``recipes``: the registry (``RECIPES``, ``get_recipe``)
- ``stubs``: makes torchvision importable beside the local torch build (its compiled ops stay unusable)
- ``build``: recipe -> torch module (eval; YOLO prepared as ultralytics' ONNX exporter prepares it)
- ``export``: ``export_onnx``, ``cached_onnx``
- ``macs``: an independent MAC count (torch's FlopCounterMode)

Importing this package imports no heavy library; torch/timm load only when a model is built.
"""
from npuready.models.library.recipes import RECIPES, Recipe, get_recipe

__all__ = ["RECIPES", "Recipe", "get_recipe", "export_onnx", "cached_onnx", "count_macs"]


def __getattr__(name: str):
    if name in ("export_onnx", "cached_onnx"):
        from npuready.models.library import export

        return getattr(export, name)
    if name == "count_macs":
        from npuready.models.library.macs import count_macs

        return count_macs
    raise AttributeError(name)
