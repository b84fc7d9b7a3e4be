"""Post-training quantisation of ONNX float models to QDQ ONNX (observers, PTQ, onnxruntime baseline)."""
