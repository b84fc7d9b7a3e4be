"""A library-defined architecture with a fresh N-class head, ready to be *trained* (not the random-weight
export of ``build``): ``classifier("timm", "mobilenetv3_small_050")`` builds the library's own module with
``num_classes=10``, random-initialised, train mode. The zoo's ``*_fm64`` entries use it; needs the
``corpus`` extra (timm/torchvision, built offline from code).
"""
from __future__ import annotations

from functools import partial
from typing import Callable

from npuready.errors import InputError
from npuready.models.library.build import EXTRA_HINT

LIBRARIES = ("timm", "torchvision")


def build_classifier(library: str, constructor: str, classes: int = 10):
    """The module ``constructor`` of ``library`` with a ``classes``-way head and random weights."""
    import importlib.util

    if library not in LIBRARIES:
        raise InputError(f"library {library!r}: trainable classifiers come from {', '.join(LIBRARIES)}")
    missing = [m for m in ("torchvision", library) if importlib.util.find_spec(m) is None]
    if missing:
        raise InputError(f"{library} model '{constructor}' needs {', '.join(sorted(set(missing)))} "
                         f"(the corpus extra): {EXTRA_HINT}")
    from npuready.models.library.stubs import prepare_torchvision

    prepare_torchvision()
    if library == "timm":
        import timm

        return timm.create_model(constructor, pretrained=False, num_classes=classes)
    import torchvision

    return getattr(torchvision.models, constructor)(weights=None, num_classes=classes)


def classifier(library: str, constructor: str, classes: int = 10) -> Callable:
    """A zero-argument builder (what ``ZooSpec.build`` takes) for ``build_classifier``."""
    return partial(build_classifier, library, constructor, classes)
