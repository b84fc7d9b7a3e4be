# npuready — every target installs what it needs (make setup is idempotent).
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed
EXTRAS  := torch,validate,site,data,dev,corpus,sweep

.PHONY: setup quickstart test test-quick bench site walkthrough experiments docs scalesim-env qnn-env rknn-env clean-venv

setup: $(STAMP)

$(STAMP): pyproject.toml tools/install_system_deps.sh
	bash tools/install_system_deps.sh
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e ".[$(EXTRAS)]"
	touch $(STAMP)

quickstart: setup
	$(BIN)/python -m npuready.quickstart

test: setup qnn-env rknn-env
	$(BIN)/python -m pytest

test-quick: setup
	$(BIN)/python -m pytest -m "not slow" -q

bench: setup
	$(BIN)/python -m pytest benchmarks -o python_files="bench_*.py" --benchmark-only --benchmark-columns=min,median,max,rounds

clean-venv:
	rm -rf $(VENV)

experiments: setup
	$(BIN)/npuready run --all

docs: setup
	$(BIN)/npuready docs

site: docs
	$(BIN)/npuready site

walkthrough: site
	$(BIN)/python tools/ensure_browser.py
	$(BIN)/python tools/record_walkthrough.py

scalesim-env:
	bash tools/scalesim_env.sh

qnn-env:
	bash tools/qnn_env.sh

rknn-env:
	bash tools/rknn_env.sh
