"""The PDF report's "Diagnosis of the measured run" (F30): in both languages, from a profile's
``measured`` section or a Diagnosis passed in; and the example profile that carries one, through
``gpu-advisor diagnose`` (JSON and --pdf) and ``gpu-advisor recommend --pdf``.

Numbers the tests name are arithmetic on the example's measurements (2045 / 1210 = 1.69×,
2180 / 1210 = 1.80×, Karp–Flatt 0.183 and 0.407); everything the refit and the suspects say
is read from the Diagnosis itself, so the tests do not move when the projection is retuned.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path

import pypdf
import pytest

from advisor.catalog.profile_check import load_profile
from advisor.cli import main
from advisor.diagnosis import Diagnosis, diagnose, from_measured_spec, from_points
from advisor.diagnosis.text_report import LEVEL_LABEL, PARAMETER_LABEL
from advisor.verdict.recommendation import recommend
from advisor.verdict.result import Recommendation
from tests.support.paths import ROOT
from tests.support.pdf import contains, flat, pages_text, pdf_images

ROOT = ROOT
EXAMPLE = ROOT / "examples" / "measured-4gpu-only-1.8x-diagnose.yaml"
FIXTURE = ROOT / "tests" / "fixtures" / "report" / "medium-model-4gpu-worth-it.recommendation.json"
WHEN = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
HEADING = {"en": "Diagnosis of the measured run", "zh": "实测诊断"}
SUSPECTS = {"en": "Suspects, most likely first", "zh": "可能原因（按可能性排序）"}
NEXT = {"en": "Costs", "zh": "成本"}


@pytest.fixture(scope="module")
def example():
    profile = load_profile(EXAMPLE)
    return recommend(profile), profile, diagnose(from_measured_spec(profile.measured), profile)


@pytest.fixture(scope="module")
def reports(example, tmp_path_factory) -> dict[str, Path]:
    """The example's report in both languages, its diagnosis taken from the profile."""
    from ui.report import export_pdf

    rec, profile, _ = example
    out = tmp_path_factory.mktemp("diagnosis-reports")
    return {lang: export_pdf(rec, profile, out / f"{lang}.pdf", lang, generated=WHEN)
            for lang in ("en", "zh")}


@pytest.fixture(scope="module")
def sections(reports) -> dict[str, tuple[list[str], int, int]]:
    """Text extraction is the slow part: once per language."""
    return {lang: section(path, lang) for lang, path in reports.items()}


def undouble(text: str) -> str:
    """Without the doubled runs of a bold Chinese heading (a synthetic bold is painted twice,
    so the text is extracted twice)."""
    return re.sub(r"(.+?)\1", r"\1", flat(text))


def section(path: Path, lang: str) -> tuple[list[str], int, int]:
    """All page texts, and the pages where the diagnosis starts and the costs start."""
    texts = pages_text(path)
    starts = [i for i, t in enumerate(texts) if flat(t).startswith(flat(HEADING[lang]))]
    assert len(starts) == 1, f"the diagnosis heading should open exactly one page: {starts}"
    end = next(i for i, t in enumerate(texts) if flat(t).startswith(flat(NEXT[lang])))
    return texts, starts[0], end


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_section_sits_between_the_projection_and_the_costs(sections, lang):
    texts, start, end = sections[lang]
    projection = "Projected speed-up" if lang == "en" else "预计加速比"
    # The projection may share a page with the measured data before it (no sparse pages).
    assert any(flat(projection) in flat(t) for t in texts[:start])
    assert start < end
    suspects = "".join(texts[start:end])
    contains(suspects, SUSPECTS[lang])


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_measured_speedup_efficiency_grade_and_karp_flatt(sections, example, lang):
    texts, start, end = sections[lang]
    text = "".join(texts[start:end])
    d: Diagnosis = example[2]
    assert d.measured.gpus == [1, 2, 4] and d.grade is not None
    contains(text, "1,210", "2,045", "2,180", "1.69×", "1.80×", "84 %", "45 %", "0.183", "0.407",
             LEVEL_LABEL["poor"].get(lang), d.grade.message.get(lang),
             d.measured.trend_meaning.get(lang), "F30")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_refitted_parameters_extrapolation_and_band(sections, example, lang):
    texts, start, end = sections[lang]
    text = "".join(texts[start:end])
    fit = example[2].fit
    assert fit is not None and max(fit.gpus) > 4
    for name, value in fit.parameters.items():
        contains(text, name, PARAMETER_LABEL[name].get(lang), f"{value:.4g}")
    for name, value in fit.shipped_parameters.items():
        contains(text, name, f"{value:.4g}")
    for i, n in enumerate(fit.gpus):  # one table row per count: GPUs, fit, band, Amdahl
        contains(text, f"{n} {fit.speedup[i]:.2f}× {fit.speedup_low[i]:.2f}–"
                       f"{fit.speedup_high[i]:.2f} {fit.amdahl_speedup[i]:.2f}×")
    contains(text, f"{fit.amdahl_serial_fraction:.4f}", "extrapolated" if lang == "en" else "外推")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_suspect_with_its_evidence_and_remedy_in_rank_order(sections, example, lang):
    texts, start, end = sections[lang]
    text = flat("".join(texts[start:end]))
    headings = undouble(text)
    suspects = example[2].suspects
    assert suspects
    positions = []
    for rank, s in enumerate(suspects, start=1):
        title = undouble(f"{rank}. {s.title.get(lang)}")
        assert title in headings, title
        contains(text, s.remedy.get(lang), *(e.get(lang) for e in s.evidence))
        assert f" {s.id} " not in f" {text} "  # titles for people, ids only in the JSON
        positions.append(headings.index(title))
    assert positions == sorted(positions)


def test_the_diagnosis_plot_is_embedded_at_print_resolution(reports, sections):
    from ui.report.plot_images import DOC_WIDTH_PX

    for lang, path in reports.items():
        _, start, _ = sections[lang]
        images = pdf_images(path)
        assert len(images) == 5, lang  # speed-up, diagnosis, cost, buy vs rent, setups compared
        diagnosis_pages = [page for page, _, _ in images if page - 1 == start]
        assert diagnosis_pages, f"{lang}: no plot on the diagnosis page"
        for _page, width, _height in images:
            assert width / (DOC_WIDTH_PX / 96) >= 200
        assert path.stat().st_size < 1_000_000, lang


def test_a_diagnosis_passed_in_is_shown_for_a_profile_without_measurements(tmp_path):
    """render_pdf_bytes(..., diagnosis=d): a CSV's series with the profile of the run."""
    from ui.report import render_pdf_bytes

    rec = Recommendation.model_validate_json(FIXTURE.read_text())
    profile = load_profile(ROOT / "examples" / "medium-model-4gpu-worth-it.yaml")
    assert profile.measured is None
    d = diagnose(from_points([1, 2, 4, 8], [400, 780, 1480, 2600], unit="images/s"), profile)
    data, _ = render_pdf_bytes(rec, profile, "zh", generated=WHEN, diagnosis=d)
    path = tmp_path / "zh.pdf"
    path.write_bytes(data)
    texts, start, end = section(path, "zh")
    contains("".join(texts[start:end]), "400", "2,600", "8", d.grade.message.zh)


def test_without_a_fit_or_suspects_the_section_says_so(example):
    from ui.report.diagnosis_section import diagnosis_html

    bare = example[2].model_copy(update={"fit": None, "grade": None, "suspects": []})
    for lang, no_fit, none in (("en", "could not be refitted", "Nothing in the data points"),
                               ("zh", "无法按实测数据重新拟合", "数据中没有指向瓶颈的线索")):
        html = diagnosis_html(bare, lang, {})
        assert no_fit in html and none in html and "<img" not in html
    assert diagnosis_html(None, "en", {}) == ""


# The example profile through the command line.

def test_the_example_diagnoses_as_the_faq_describes(capsys):
    assert main(["diagnose", str(EXAMPLE), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    m = data["measured"]
    assert m["gpus"] == [1, 2, 4] and m["unit"] == "images/s"
    assert m["speedup"][1:] == [pytest.approx(2045 / 1210, abs=1e-3),
                                pytest.approx(2180 / 1210, abs=1e-3)]
    assert m["efficiency"][2] < 0.5 and m["karp_flatt_trend"] == "rising"
    assert data["grade"] == {**data["grade"], "gpus": 4, "level": "poor"}  # F30: < 2× on 4
    fit = data["fit"]
    assert {8, 16} <= set(fit["gpus"]) and fit["parameters"]
    assert all(lo <= s <= hi for lo, s, hi in zip(fit["speedup_low"], fit["speedup"],
                                                  fit["speedup_high"], strict=True))
    # PCIe without NVLink and two loader workers for four GPUs: the link and the pipeline lead.
    assert {s["id"] for s in data["suspects"][:2]} == {"interconnect", "input_pipeline"}


def test_diagnose_pdf_needs_a_profile(tmp_path, capsys):
    csv = tmp_path / "measured.csv"
    csv.write_text("gpus,throughput\n1,100\n2,170\n4,180\n", encoding="utf-8")
    target = tmp_path / "report.pdf"
    assert main(["diagnose", str(csv), "--pdf", str(target)]) == 2
    err = capsys.readouterr().err
    assert "needs a profile" in err and "--profile" in err
    assert main(["diagnose", str(csv), "--pdf", str(target), "--lang", "zh"]) == 2
    assert "需要一份配置" in capsys.readouterr().err
    assert not target.exists()


def test_diagnose_pdf_writes_the_report_with_the_diagnosis(tmp_path, capsys):
    target = tmp_path / "report.pdf"
    assert main(["diagnose", str(EXAMPLE), "--pdf", str(target), "--lang", "zh"]) == 0
    assert "实测扩展性" in capsys.readouterr().out  # the text diagnosis is still printed
    texts, start, end = section(target, "zh")
    contains("".join(texts[start:end]), "1.80×", LEVEL_LABEL["poor"].zh)
    assert len(pypdf.PdfReader(target).pages) == len(texts)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_title_page_gives_the_measured_grade_and_the_first_suspect(sections, example, lang):
    texts, _, _ = sections[lang]
    d = example[2]
    measured = "Measured: 1.80× on 4 GPUs, poor" if lang == "en" else "实测：4 卡为 1.80×"
    contains(texts[0], measured, d.suspects[0].title.get(lang))
