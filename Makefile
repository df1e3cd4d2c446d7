# The course's two entry points (see README "Quickstart"):
#   make lab   — set everything up, then open the course in JupyterLab (offline model)
#   make test  — set everything up, then run ruff, the unit tests and every notebook (strict nbval)
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: lab test setup bench clean-cache

setup: $(VENV)/.installed

# torch first and pinned: an unpinned torch pulls a multi-GB CUDA build.
$(VENV)/.installed: requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet torch==2.13.0 $(TORCH_INDEX)
	$(BIN)/pip install --quiet -r requirements.txt
	$(BIN)/pip install --quiet --no-deps -e .
	touch $@

lab: setup
	$(BIN)/jupyter lab $(if $(filter 0,$(shell id -u)),--allow-root) notebooks/01_minimal_rag.ipynb

test: setup
	$(BIN)/ruff check ragcourse tests
	$(BIN)/pytest -rs tests notebooks --nbval --nbval-sanitize-with notebooks/sanitize.cfg

bench: setup
	$(BIN)/python -m ragcourse bench

clean-cache:
	rm -rf .cache
