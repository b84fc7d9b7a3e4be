#!/usr/bin/env bash
# System packages npuready's tests and site tooling use. Installs with apt when run as root;
# otherwise prints the command to run. Safe to run repeatedly.
set -euo pipefail
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v ffmpeg >/dev/null 2>&1 || need+=(ffmpeg)
[ -f /usr/share/datasets/fashion-mnist/t10k-labels-idx1-ubyte.gz ] || need+=(dataset-fashion-mnist)
if [ ${#need[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing system packages: ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq "${need[@]}" >/dev/null
else
  echo "note: missing system packages ${need[*]}; run: sudo apt-get install -y ${need[*]}" >&2
  echo "      (tests that need them are skipped with that reason; the committed data subset still works)" >&2
fi
