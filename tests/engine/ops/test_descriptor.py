"""Op descriptors: each op module declares its ONNX types, kinds, schema and C++ kernel once; the registries
(OPS, KERNELS, EMITS, cpp_engine.SIGNATURES) are built from the declarations."""
import importlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from npuready.engine import cpp_engine, ops
from npuready.engine.ops import prelu
from npuready.engine.ops.descriptor import CppKernel, OpDescriptor, as_params, int_fields, scalar_args


def test_every_kernel_module_is_registered():
    folder = Path(ops.__file__).parent
    kernel_modules = set()
    for path in folder.glob("*.py"):
        module = importlib.import_module(f"npuready.engine.ops.{path.stem}")
        if hasattr(module, "build") or hasattr(module, "run"):
            kernel_modules.add(module)
    assert kernel_modules == set(ops.MODULES)


def test_registries_follow_the_declarations():
    for module in ops.MODULES:
        d = module.DESCRIPTOR
        assert all(ops.OPS[t] is module for t in d.onnx_types) and (not d.onnx_types or hasattr(module, "build"))
        assert all(ops.KERNELS[k] is module for k in d.kinds) and (not d.kinds or hasattr(module, "run"))
    assert ops.OPS["MatMul"] is ops.gemm and ops.EMITS == {"MatMul": (ops.matmul,), "Split": (ops.slice,)}
    assert ops.OPS["Pow"] is ops.lut and all(ops.OPS[t] is ops.lut for t in ops.lut.OPS)


def test_a_type_declared_twice_is_refused(monkeypatch):
    monkeypatch.setattr(ops.mul, "DESCRIPTOR", OpDescriptor(("Add",), ("Mul",)))
    with pytest.raises(ValueError,
                       match="'Add' is declared by both npuready.engine.ops.add and npuready.engine.ops.mul"):
        ops._claims("onnx_types")


def test_prelu_cpp_arguments_come_from_its_schema():
    assert int_fields(prelu.Params) == ("alpha_zero_point", "input_zero_point", "output_zero_point",
                                        "identity_multiplier", "identity_shift", "alpha_multiplier", "alpha_shift",
                                        "act_min", "act_max")
    assert prelu.DESCRIPTOR.cpp.argtypes(prelu.Params) == ("i8*", "i8*", "int64") + ("int",) * 9 + ("int", "i8*")
    assert cpp_engine.SIGNATURES["npr_prelu"] == [cpp_engine.CTYPE[t] for t in prelu.DESCRIPTOR.cpp.argtypes(
        prelu.Params)]
    p = prelu.Params(np.zeros(1, np.int8), 1, 2, 3, 4, 5, 6, 7, -128, 127)
    assert list(as_params(p)) == ["alpha"] + list(int_fields(prelu.Params))
    assert scalar_args(prelu.Params, as_params(p)) == [1, 2, 3, 4, 5, 6, 7, -128, 127]


def test_a_cpp_kernel_needs_a_schema_and_known_types():
    @dataclass(frozen=True)
    class P:
        a: int

    with pytest.raises(ValueError, match="needs the parameter schema"):
        OpDescriptor(("X",), ("X",), cpp=CppKernel("npr_x", ("i8*",)))
    with pytest.raises(ValueError, match=r"C types \['u8\*'\]"):
        OpDescriptor(("X",), ("X",), params=P, cpp=CppKernel("npr_x", ("u8*",)))


def test_host_only_ints_are_not_cpp_arguments():
    from npuready.engine.ops import mean

    assert int_fields(mean.Params) == ("input_zero_point", "output_zero_point", "multiplier", "shift", "count",
                                       "act_min", "act_max")  # keepdims shapes the output in Python
    assert mean.DESCRIPTOR.cpp.argtypes(mean.Params) == ("i8*", "int64") + ("int",) * 8 + ("i8*",)
