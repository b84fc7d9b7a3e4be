"""CONVERTERS is built from each lowering module's LOWERS declaration; an op type lowered twice is refused."""
import importlib
from pathlib import Path

import pytest

pytest.importorskip("ai_edge_litert")

from npuready.tflite.ops import registry  # noqa: E402


def test_every_declaring_module_is_listed():
    folder = Path(registry.__file__).parent
    declaring = {m for m in (importlib.import_module(f"npuready.tflite.ops.{p.stem}") for p in folder.glob("*.py"))
                 if hasattr(m, "LOWERS")}
    assert declaring == set(registry.MODULES)


def test_converters_are_the_declarations():
    assert registry.CONVERTERS == {t: f for m in registry.MODULES for t, f in m.LOWERS.items()}
    assert registry.CONVERTERS["PRelu"].__module__ == "npuready.tflite.ops.activation"
    assert registry.FLOAT_ONLY == {"LayerNormalization"}


def test_an_op_lowered_twice_is_refused():
    from types import SimpleNamespace

    from npuready.tflite.ops import conv

    fake = SimpleNamespace(__name__="fake.lowering", LOWERS={"Conv": lambda ctx, node: None})
    with pytest.raises(ValueError, match="op 'Conv' is lowered by both npuready.tflite.ops.conv and fake.lowering"):
        registry._converters((conv, fake))
