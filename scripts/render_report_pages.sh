#!/usr/bin/env bash
# Write the sample reports docs/sample-report-{en,zh}.pdf from an example profile and render
# every page to PNG (pdftoppm, poppler-utils) so a person can look at them before a release.
#
#   scripts/render_report_pages.sh [PROFILE] [PNG_FOLDER]
#
# PROFILE defaults to examples/measured-4gpu-only-1.8x-diagnose.yaml (a 4-GPU workstation
# with a `measured` section, so the samples also show the "Diagnosis of the measured run"
# section, F30); the pages go to build/report-pages/ (sample-report-en-01.png, ...).
# Headless: no display needed. Each PDF must stay under 1 MB (tests/report/test_report.py).
set -euo pipefail
cd "$(dirname "$0")/.."
PROFILE=${1:-examples/measured-4gpu-only-1.8x-diagnose.yaml}
PAGES=${2:-build/report-pages}
PYTHON=${PYTHON:-.venv/bin/python}
export QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen}

"$PYTHON" - "$PROFILE" <<'PY'
import sys
from pathlib import Path

from advisor.catalog.profile_check import load_profile
from advisor.verdict.recommendation import recommend
from ui.report import export_pdf

profile = load_profile(sys.argv[1])
for lang in ("en", "zh"):
    rec = recommend(profile, lang=lang)  # the report a reader gets: no rule appendix
    path = export_pdf(rec, profile, Path("docs") / f"sample-report-{lang}.pdf", lang)
    print(f"{path}: {path.stat().st_size // 1024} KB")
PY

mkdir -p "$PAGES"
rm -f "$PAGES"/sample-report-*.png
for lang in en zh; do
    pdftoppm -r 60 -png "docs/sample-report-$lang.pdf" "$PAGES/sample-report-$lang"
done
ls "$PAGES"
