"""Read librknnc's "Network Layer Information Table" from RKNN-Toolkit2's verbose log (2.5.0).

One row per compiled layer: ``ID OpType DataType Target InputShape OutputShape Cycles(DDR/NPU/Total)
RW(KB) FullName`` — Target is NPU or CPU; FullName is ``<ONNX op>:<ONNX node name>`` plus the suffix
of a fusion (``_ConvAddRelu``) or a lowering (``_2conv0``). Cycles are RKNN's own estimate for the
platform (a model, like npuready's: there is no device here).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

ROW = re.compile(r"\]\s+(?P<id>\d+)\s+(?P<op>\S+)\s+(?P<dtype>\S+)\s+(?P<target>NPU|CPU)\s+(?P<ins>\S+)\s+"
                 r"(?P<outs>\S+)\s+(?P<ddr>\d+)/(?P<npu>\d+)/(?P<total>\d+)\s+(?P<rw>\d+)\s+(?P<name>\S+)")


@dataclass(frozen=True)
class RknnLayer:
    id: int
    op_type: str
    target: str          # NPU | CPU
    ddr_cycles: int
    npu_cycles: int
    total_cycles: int
    rw_kb: int
    full_name: str       # <ONNX op>:<node name>[suffix]

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def parse(log: str) -> tuple[RknnLayer, ...]:
    """The last layer table in ``log`` (a build prints one)."""
    blocks, current, inside = [], [], False
    for line in log.splitlines():
        if "Network Layer Information Table" in line:
            current, inside = [], True
            continue
        if not inside:
            continue
        if m := ROW.search(line):
            current.append(RknnLayer(int(m["id"]), m["op"], m["target"], int(m["ddr"]), int(m["npu"]),
                                     int(m["total"]), int(m["rw"]), m["name"]))
        elif current and "------" in line:
            blocks.append(tuple(current))
            inside = False
    return blocks[-1] if blocks else ()
