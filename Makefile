# Two commands do all the set-up: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
TSTAMP := $(VENV)/.installed-test
BSTAMP := $(VENV)/.installed-bundle

.PHONY: run test lint translations bench bundle bundle-check clean accuracy

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

$(BSTAMP): pyproject.toml $(TSTAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,nvml,bundle]'
	touch $@

# The suite, then the desktop bundle built and checked from its archive (tests/bundle).
test: $(TSTAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q
	$(MAKE) --no-print-directory bundle-check

# The desktop bundle for this OS (PyInstaller, desktop/gpu-advisor.spec): build/bundle/dist/
# gpu-scaling-advisor/ and its archive in dist/; prints its size and build time.
bundle: $(BSTAMP)
	$(BIN)/python scripts/build_bundle.py

# Unpack the archive outside the tree and run it with no Python on PATH.
bundle-check: bundle
	GPU_ADVISOR_BUNDLE_ARCHIVE="$$($(BIN)/python scripts/build_bundle.py --archive-path)" \
		QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -q tests/bundle

lint: $(TSTAMP)
	$(BIN)/ruff check advisor ui tests benchmarks scripts desktop

# Qt Linguist: refresh the .ts sources from the code, then build the .qm files that ship.
translations: $(STAMP)
	$(BIN)/pyside6-lupdate $$(find ui -name '*.py') -ts resources/i18n/advisor_zh_CN.ts -no-obsolete
	$(BIN)/pyside6-lrelease resources/i18n/advisor_zh_CN.ts -qm resources/i18n/advisor_zh_CN.qm

bench: $(TSTAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m benchmarks

# The projection's accuracy out of sample (leave one source / one family out, baselines, band
# coverage), what each modelling choice is worth, and the diagnosis refit (about 6 minutes).
accuracy: $(TSTAMP)
	$(BIN)/python -m benchmarks.projection_accuracy
	$(BIN)/python -m benchmarks.projection_ablations
	$(BIN)/python -m benchmarks.diagnosis_extrapolation

clean:
	rm -rf $(VENV) build dist
