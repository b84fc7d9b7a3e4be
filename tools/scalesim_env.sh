#!/usr/bin/env bash
# Create the isolated SCALE-Sim environment used only to validate the cost model.
# SCALE-Sim 3.0.0 crashes with numpy>=2.3, so it lives in its own venv (.venv-scalesim)
# with numpy<2.3, apart from the main .venv. Idempotent: does nothing when it already works.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${SCALESIM_VENV:-.venv-scalesim}"
PY="${PY:-python3}"
if [ -x "$VENV/bin/python" ] && "$VENV/bin/python" -c "import scalesim.scale_sim" 2>/dev/null; then
  echo "$VENV: scalesim already installed"
  exit 0
fi
test -x "$VENV/bin/python" || "$PY" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip
"$VENV/bin/python" -m pip install -q "scalesim==3.0.0" "numpy<2.3"
"$VENV/bin/python" -c "import scalesim.scale_sim; print('$VENV: scalesim ready')"
