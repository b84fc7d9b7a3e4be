"""Safe ONNX loading and the read-only Graph view shared by every stage."""
from npuready.graph.load import load, read_model
from npuready.graph.view import Graph, Node, TensorInfo

__all__ = ["Graph", "Node", "TensorInfo", "load", "read_model"]
