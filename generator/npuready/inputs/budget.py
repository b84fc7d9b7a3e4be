"""The size budget every input loader enforces before it allocates (one place to read and change it)."""
from __future__ import annotations

MAX_ARRAY_BYTES = 1 << 30        # one .npy / .npz member, decoded: 1 GiB
MAX_ARRAY_ELEMENTS = 1 << 28     # 268 M elements in one array
MAX_ZIP_RATIO = 200              # uncompressed / compressed size of one .npz member (zip bombs)
MAX_MANIFEST_BYTES = 16 << 20    # a calibration manifest: 16 MiB of JSON
MAX_SAMPLES = 1_000_000          # entries in one manifest
MAX_IMAGE_PIXELS = 64_000_000    # one decoded image (PIL's own default bomb limit is 89.5 M)
MAX_LABEL = (1 << 31) - 1        # class labels are int32 class indices
MAX_IMAGE_SIDE = 8192            # resize / crop / letterbox sizes in a preprocessing spec
MAX_NESTING = 64                 # arrays/tables inside each other in one JSON or TOML document
MAX_CONFIG_BYTES = 1 << 20       # npuready.toml / pyproject.toml / a --target TOML: 1 MiB
MAX_BASELINE_BYTES = 64 << 20    # a lint baseline: 64 MiB of JSON
MAX_RESULT_BYTES = 256 << 20     # one experiment result.json (current or historical): 256 MiB
MAX_REGISTRY_INDEX_BYTES = 256 << 20  # a deploy registry's index.json: 256 MiB
MAX_MODEL_BYTES = 2 << 30        # one .onnx file read whole (protobuf's own limit is 2 GiB)
MAX_CONSTANT_BYTES = 512 << 20     # one compile-time value folding/shape inference materialise (--max-constant-bytes)
MAX_REPORT_NODES = 5_000          # graph nodes (or edges, inputs, outputs) a model report lists in full
                                  # (--max-report-nodes)
