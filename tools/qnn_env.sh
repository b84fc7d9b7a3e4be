#!/usr/bin/env bash
# Create the isolated environment of Qualcomm's HTP backend (onnxruntime-qnn 2.7.0, x86 simulator),
# used only to check npuready's QDQ models (npuready.vendor.qnn_htp). Its onnxruntime build must not
# replace the project's, so it lives in .venv-qnn. Idempotent: does nothing when it already works.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${NPUREADY_QNN_VENV:-.venv-qnn}"
PY="${PY:-python3}"
if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "import onnxruntime_qnn" 2>/dev/null; then
  echo "$VENV: onnxruntime-qnn already installed"
  exit 0
fi
test -x "$VENV/bin/python" || "$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip
"$VENV/bin/python" -m pip install -q "onnxruntime-qnn==2.7.0" "onnx==1.23.2"
"$VENV/bin/python" -c "import onnxruntime_qnn as q; print('$VENV: onnxruntime-qnn', q.__version__, 'ready')"
