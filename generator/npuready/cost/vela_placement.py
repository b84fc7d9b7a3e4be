"""Which operators Vela left to the CPU: read from the ``*_vela.tflite`` it wrote.

Vela replaces every run of operators it compiles for the NPU by one ``ethos-u`` custom operator; each
operator left in the optimised file under its own builtin code runs on the host CPU (TFLite Micro's
reference kernel). Reading the file itself is the placement Vela decided, not a mirror of it.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from npuready.errors import InputError

NPU_CUSTOM_CODE = "ethos-u"


@dataclass(frozen=True)
class CpuOperator:
    op: str      # TFLite builtin name, e.g. GATHER
    output: str  # name of its first output tensor

    def to_dict(self) -> dict[str, str]:
        return {"op": self.op, "output": self.output}


def _builtin_names() -> dict[int, str]:
    from ai_edge_litert import schema_py_generated as fb

    return {v: k for k, v in vars(fb.BuiltinOperator).items() if not k.startswith("_") and isinstance(v, int)}


def placement(vela_tflite: Path) -> tuple[int, list[CpuOperator]]:
    """(NPU custom operators, operators left to the CPU) of Vela's optimised model."""
    from ai_edge_litert import schema_py_generated as fb

    try:
        model = fb.ModelT.InitFromObj(fb.Model.GetRootAsModel(Path(vela_tflite).read_bytes(), 0))
    except Exception as exc:  # the flatbuffer reader raises plain errors on a damaged file
        raise InputError(f"{vela_tflite}: not a TFLite model Vela wrote ({type(exc).__name__})") from exc
    names = _builtin_names()
    npu, cpu = 0, []
    for sub in model.subgraphs or []:
        for op in sub.operators or []:
            code = model.operatorCodes[op.opcodeIndex]
            builtin = max(code.builtinCode, code.deprecatedBuiltinCode)
            custom = code.customCode.decode() if isinstance(code.customCode, bytes) else (code.customCode or "")
            if builtin == fb.BuiltinOperator.CUSTOM and custom == NPU_CUSTOM_CODE:
                npu += 1
                continue
            out = sub.tensors[op.outputs[0]].name if op.outputs is not None and len(op.outputs) else b""
            cpu.append(CpuOperator(custom or names.get(builtin, str(builtin)),
                                   out.decode() if isinstance(out, bytes) else str(out)))
    return npu, cpu
