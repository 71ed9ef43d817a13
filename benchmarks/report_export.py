"""How long the PDF report takes to export (budget: under 2 s), in English and Chinese.

    .venv/bin/python -m benchmarks.report_export [--repeat 3]

Runs in a fresh process, headless. Recommendations come from ``advisor.verdict.recommendation.recommend``
for every ``examples/*.yaml`` when the rule base is installed; otherwise from the hand-built
fixtures in ``tests/fixtures/report`` (the export does the same work either way). Times the
import of ``ui.report``, the first export (it also starts the Qt application and looks up the
fonts) and every later one, and prints page counts and file sizes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from importlib.util import find_spec
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

ROOT = Path(__file__).resolve().parent.parent
BUDGET_S = 2.0


def cases() -> tuple[str, list[tuple[str, object, object]]]:
    from advisor.catalog.profile_check import load_profile
    from advisor.verdict.result import Recommendation

    if find_spec("advisor.verdict.recommendation") is not None:
        from advisor.verdict.recommendation import recommend

        found = []
        for path in sorted((ROOT / "examples").glob("*.yaml")):
            profile = load_profile(path)
            found.append((path.stem, recommend(profile), profile))
        return "advisor.verdict.recommendation.recommend(examples/*.yaml)", found
    found = []
    for path in sorted((ROOT / "tests" / "fixtures" / "report").glob("*.recommendation.json")):
        stem = path.name.removesuffix(".recommendation.json")
        rec = Recommendation.model_validate_json(path.read_text(encoding="utf-8"))
        found.append((stem, rec, load_profile(ROOT / "examples" / f"{stem}.yaml")))
    return "tests/fixtures/report (hand-built)", found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2, help="exports per case and language")
    args = parser.parse_args()
    source, found = cases()
    start = time.perf_counter()
    import pypdf

    from ui.report import export_pdf
    import_s = time.perf_counter() - start
    print(f"recommendations from: {source}")
    print(f"import ui.report: {import_s:.2f} s")
    times: list[float] = []
    first_s = None
    with tempfile.TemporaryDirectory() as folder:
        for stem, rec, profile in found:
            for lang in ("en", "zh"):
                path = Path(folder) / f"{stem}-{lang}.pdf"
                for _ in range(args.repeat):
                    t0 = time.perf_counter()
                    export_pdf(rec, profile, path, lang)
                    elapsed = time.perf_counter() - t0
                    if first_s is None:
                        first_s = elapsed
                    else:
                        times.append(elapsed)
                pages = len(pypdf.PdfReader(path).pages)
                size_kb = path.stat().st_size / 1024
                print(f"  {stem:40s} {lang}  {elapsed:5.2f} s  {pages:2d} pages  "
                      f"{size_kb:6.0f} KB")
    assert first_s is not None
    worst = max([first_s, *times])
    print(f"first export (starts Qt, finds fonts): {first_s:.2f} s")
    if times:
        print(f"later exports: median {statistics.median(times):.2f} s, max {max(times):.2f} s "
              f"({len(times)} exports)")
    verdict = "within" if worst < BUDGET_S else "OVER"
    print(f"slowest export {worst:.2f} s: {verdict} the {BUDGET_S:.0f} s budget")
    return 0 if worst < BUDGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
