#!/usr/bin/env bash
# Create the isolated environment of Rockchip's RKNN-Toolkit2 2.5.0 (offline compiler + simulator), used only
# to check npuready's verdicts (npuready.vendor.rknn_toolkit). Its pins (numpy<=1.26.4, onnx<=1.18, protobuf<=4.25.4,
# torch<=2.4.0) clash with the project's, so it lives in .venv-rknn. A plain install pulls a CUDA torch
# (5.6 GB): the toolkit is installed without its dependencies, which are then installed by hand with the
# local CPU build of torch (torch==2.13.0; the toolkit's ONNX path runs with it). Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${NPUREADY_RKNN_VENV:-.venv-rknn}"
PY="${PY:-python3}"
if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "from rknn.api import RKNN" 2>/dev/null; then
  echo "$VENV: rknn-toolkit2 already installed"
  exit 0
fi
test -x "$VENV/bin/python" || "$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --no-deps "rknn-toolkit2==2.5.0"
"$VENV/bin/python" -m pip install -q "numpy==1.26.4" "onnx==1.18.0" "onnxruntime==1.18.0" "protobuf==4.25.4" \
  fast-histogram opencv-python-headless psutil ruamel.yaml scipy tqdm "torch==2.13.0"
"$VENV/bin/python" -m pip install -q "setuptools<70"  # rknn imports pkg_resources
"$VENV/bin/python" -c "from rknn.api import RKNN; print('$VENV: rknn-toolkit2 ready')"
