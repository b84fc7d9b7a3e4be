"""ONNX op → TFLite converters, one concept per file; ``registry.CONVERTERS`` maps op types to them."""
