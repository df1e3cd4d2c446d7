# The course's two entry points (see README "Quickstart"):
#   make lab   — set everything up, then open the course in JupyterLab (offline model)
#   make test  — set everything up, then run ruff, the unit tests and every notebook (strict nbval)
# Both install the small CPU build of torch; `make lab GPU=1` installs the default (on Linux: CUDA) build instead.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

TORCH_VERSION   := 2.13.0
#: PyTorch's CPU wheel index; override it to use a mirror.
TORCH_CPU_INDEX ?= https://download.pytorch.org/whl/cpu
#: GPU=1: torch from the default index (on Linux the multi-GB CUDA build with its NVIDIA libraries).
GPU             ?= 0
#: The pip command that installs torch (the tests swap in a dry run).
TORCH_PIP       ?= $(BIN)/pip install --quiet

.PHONY: lab test setup install-torch bench clean-cache

setup: $(VENV)/.installed

# torch first and pinned: an unpinned torch, or torch from the default index, pulls a multi-GB CUDA build.
# The seconds the whole setup took are kept in $(VENV)/.install-seconds for `python -m ragcourse bench`.
$(VENV)/.installed: requirements.txt pyproject.toml
	@date +%s > $(VENV).started
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	@$(MAKE) --no-print-directory install-torch
	$(BIN)/pip install --quiet -r requirements.txt
	$(BIN)/pip install --quiet --no-deps -e .
	@echo $$(( $$(date +%s) - $$(cat $(VENV).started) )) > $(VENV)/.install-seconds && rm -f $(VENV).started
	touch $@

# The CPU build from PyTorch's CPU index when that index answers within 5 s; otherwise (offline mirror, firewall)
# a one-line note and the default index, where pip finds whatever build is available (on Linux: CUDA).
install-torch:
ifeq ($(GPU),1)
	$(TORCH_PIP) torch==$(TORCH_VERSION)
else
	@if $(PYTHON) -c "import sys, urllib.request; urllib.request.urlopen(sys.argv[1].rstrip('/') + '/torch/', timeout=5)" \
	    "$(TORCH_CPU_INDEX)" 2>/dev/null; then \
	  echo "$(TORCH_PIP) torch==$(TORCH_VERSION) --index-url $(TORCH_CPU_INDEX)"; \
	  $(TORCH_PIP) torch==$(TORCH_VERSION) --index-url $(TORCH_CPU_INDEX); \
	else \
	  echo "note: the CPU wheel index $(TORCH_CPU_INDEX) cannot be reached; installing torch from the default index"; \
	  $(TORCH_PIP) torch==$(TORCH_VERSION); \
	fi
endif

lab: setup
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) notebooks/01_minimal_rag.ipynb

test: setup
	$(BIN)/ruff check ragcourse tests
	$(BIN)/pytest -rs tests notebooks --nbval --nbval-sanitize-with notebooks/sanitize.cfg

bench: setup
	$(BIN)/python -m ragcourse bench

clean-cache:
	rm -rf .cache
