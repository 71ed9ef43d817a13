# Two commands do all the set-up: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TSTAMP := $(VENV)/.installed-test

.PHONY: run test lint translations bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Reinstall only when the project's metadata changed (editable install: code changes need none).
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(TSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test,nvml]'
	touch $(STAMP) $@

run: $(STAMP)
	$(BIN)/python -m ui.app.launch

test: $(TSTAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q

lint: $(TSTAMP)
	$(BIN)/ruff check advisor ui tests benchmarks

# Qt Linguist: refresh the .ts sources from the code, then build the .qm files that ship.
translations: $(STAMP)
	$(BIN)/pyside6-lupdate $$(find ui -name '*.py') -ts resources/i18n/advisor_zh_CN.ts -no-obsolete
	$(BIN)/pyside6-lrelease resources/i18n/advisor_zh_CN.ts -qm resources/i18n/advisor_zh_CN.qm

bench: $(TSTAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m benchmarks

clean:
	rm -rf $(VENV) build dist
