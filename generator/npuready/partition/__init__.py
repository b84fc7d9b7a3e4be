"""CPU offload planner: place every node on the NPU or the CPU, cut the graph into a CPU head,
NPU body (or bodies) and CPU tail, report the crossings, and extract the parts as ONNX files."""
from npuready.partition.extract import extract, run_parts
from npuready.partition.plan import Crossing, PartitionPlan, Segment, plan_partition

__all__ = ["Crossing", "PartitionPlan", "Segment", "extract", "plan_partition", "run_parts"]
