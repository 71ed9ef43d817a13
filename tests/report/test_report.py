"""The PDF report: pages, text in both languages, embedded fonts, print-resolution plots."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pypdf
import pytest

from advisor.catalog.profile_check import load_profile
from advisor.profile import Profile, field_meta
from advisor.rulebase.article_facts import fact_text
from advisor.verdict.result import Recommendation
from tests.support.paths import ROOT
from tests.support.pdf import contains, flat, pages_text, pdf_images

ROOT = ROOT
FIXTURES = ROOT / "tests" / "fixtures" / "report"
WHEN = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
# pages that open a section: title, workload, projection, costs, break-even (with the pitfalls
# and the set-up after it; no rule appendix unless asked for)
SECTIONS = 5


def case(name: str) -> tuple[Recommendation, Profile]:
    rec = Recommendation.model_validate_json((FIXTURES / f"{name}.recommendation.json").read_text())
    return rec, load_profile(ROOT / "examples" / f"{name}.yaml")


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[tuple[str, str], Path]:
    """Both fixtures in both languages, exported once for the module."""
    from ui.report import export_pdf

    out = tmp_path_factory.mktemp("reports")
    paths = {}
    for name in ("medium-model-4gpu-worth-it", "large-model-8plus-gpus-required"):
        rec, profile = case(name)
        for lang in ("en", "zh"):
            paths[name, lang] = export_pdf(rec, profile, out / f"{name}-{lang}.pdf", lang,
                                           generated=WHEN)
    return paths


@pytest.fixture(scope="module")
def with_appendix(tmp_path_factory) -> dict[str, Path]:
    """The medium fixture with the rule appendix (``--appendix``), in both languages."""
    from ui.report import export_pdf

    out = tmp_path_factory.mktemp("appendix")
    rec, profile = case("medium-model-4gpu-worth-it")
    return {lang: export_pdf(rec, profile, out / f"{lang}.pdf", lang, generated=WHEN,
                             appendix=True) for lang in ("en", "zh")}


MEDIUM_EN, MEDIUM_ZH = ("medium-model-4gpu-worth-it", "en"), ("medium-model-4gpu-worth-it", "zh")
LARGE_EN, LARGE_ZH = ("large-model-8plus-gpus-required", "en"), \
    ("large-model-8plus-gpus-required", "zh")


def test_page_count_and_footers(reports):
    for key, path in reports.items():
        reader = pypdf.PdfReader(path)
        assert path.read_bytes().startswith(b"%PDF-")
        assert SECTIONS <= len(reader.pages) <= SECTIONS + 4, key
        texts = pages_text(path)
        lang = key[1]
        assert flat(f"{len(texts)}") in flat(texts[-1])  # footer: page n of n
        for i, text in enumerate(texts, start=1):
            footer = f"page {i} of {len(texts)}" if lang == "en" else f"第 {i} 页，共 {len(texts)} 页"
            contains(text, footer)


HEADINGS = {"en": ["The workload", "Projected speed-up", "Costs", "Buy vs rent break-even"],
            "zh": ["训练任务", "预计加速比", "成本", "自建与租用回本点"]}
PITFALLS = {"en": "Pitfalls and remedies", "zh": "注意事项与对策"}
APPENDIX = {"en": "Appendix: the rules that fired", "zh": "附录：触发的规则"}


def _starts(texts: list[str], headings: list[str]) -> list[int | None]:
    """The page each section opens, or the page it follows a longer table's short tail on
    (document.fill_sparse_pages moves it up instead of leaving that page nearly empty: the
    Chinese workload table runs a few rows past one page)."""
    return [next((i for i, t in enumerate(texts) if t.startswith(flat(h))), None)
            or next((i for i, t in enumerate(texts) if i > 0 and k > 0 and flat(h) in t
                     and not t.startswith(flat(h))
                     and texts[i - 1].startswith(flat(headings[k - 1]))), None)
            for k, h in enumerate(headings)]


def test_each_section_opens_its_page_in_order(reports, with_appendix):
    for lang, path in ((lang, reports[MEDIUM_EN if lang == "en" else MEDIUM_ZH])
                       for lang in ("en", "zh")):
        texts = [flat(t) for t in pages_text(path)]
        assert "recommendationreport" in texts[0] or "推荐报告" in texts[0]
        starts = _starts(texts, HEADINGS[lang])
        assert None not in starts, dict(zip(HEADINGS[lang], starts, strict=True))
        assert starts == sorted(starts) and starts[0] == 1, starts
        # what to watch out for follows the money on the break-even's page, then the set-up
        whole = "".join(texts)
        set_up = flat("Setting it up" if lang == "en" else "配置建议")
        assert flat(PITFALLS[lang]) in texts[starts[-1]]
        assert whole.index(flat(PITFALLS[lang])) < whole.index(set_up)
        # the rule trace is an appendix a reader asks for (--appendix), not the report's end
        assert flat(APPENDIX[lang]) not in "".join(texts)
        appended = [flat(t) for t in pages_text(with_appendix[lang])]
        start = _starts(appended, [*HEADINGS[lang], APPENDIX[lang]])  # the appendix: own page
        assert None not in start and start == sorted(start), start
        assert len(appended) > len(texts)


def test_english_text_holds_verdict_gpu_count_and_key_numbers(reports):
    text = "".join(pages_text(reports[MEDIUM_EN]))
    contains(text, "Worth it", "4 GPUs on 1 machine",
             "4 GPUs finish a run in 15.7 h instead of 48 h (3.05×): worth it.",
             "3.05×", "(2.70× – 3.30×)", "15.7 h", "2.0 days (48 h)",  # speed-up, run times
             "¥112", "¥1,216", "¥44,300",  # per run, per month, net value at 4 GPUs
             "Owning wins above 410 training hours a month.",  # break-even (F31)
             "Four open-air cards will throttle", "Remedy: Run a heat soak test",
             "PyTorch DDP")


def test_chinese_text_holds_verdict_gpu_count_and_key_numbers(reports):
    text = "".join(pages_text(reports[MEDIUM_ZH]))
    contains(text, "推荐报告", "划算", "1 台机器共 4 卡",
             "4卡跑一次 15.7 小时，单卡要 48 小时（3.05 倍）：划算。",
             "3.05×", "15.7 小时", "2.0 天（48 小时）", "¥112", "¥1,216",
             "每月训练超过 410 小时则自建更划算。", "四张开放式散热卡会热降频",
             "对策：装机后做升温测试", "第 1 页，共")
    assert "Worth it" not in text


def test_required_verdict_in_both_languages(reports):
    en = "".join(pages_text(reports[LARGE_EN]))
    zh = "".join(pages_text(reports[LARGE_ZH]))
    contains(en, "Multi-GPU required", "16 GPUs on 2 machines", "12.90×", "[Critical]",
             "The model does not fit one GPU", "Fewest GPUs that meet the deadline: 8.",
             "pays for itself after 38.8 months", "does not fit")
    contains(zh, "必须上多卡", "2 台机器共 16 卡", "12.90×", "[严重]", "单卡放不下模型",
             "满足截止时间的最少卡数：8。", "38.8 个月后回本", "放不下")


def test_workload_lists_every_input_given_with_its_title(reports):
    en = flat("".join(pages_text(reports[MEDIUM_EN])))
    zh = flat("".join(pages_text(reports[MEDIUM_ZH])))
    from ui.report.workload_section import TRANSFORMER_INPUTS

    profile = case("medium-model-4gpu-worth-it")[1]
    assert profile.task.value not in ("llm", "nlp")
    for section in ("model", "training", "hardware", "economics"):
        model = type(getattr(profile, section))
        for name in model.model_fields:
            meta = field_meta(model, name)
            key = flat(f"{section}.{name}")
            if getattr(getattr(profile, section), name) is None:  # left empty: not listed
                assert key not in en, key
                continue
            if f"{section}.{name}" in TRANSFORMER_INPUTS:  # fine-tuning inputs at defaults
                assert getattr(getattr(profile, section), name) == model.model_fields[name].default
                assert key not in en, key
                continue
            assert flat(meta["title"]) in en, meta["title"]
            assert flat(meta["title_zh"]) in zh, meta["title_zh"]
            assert key in en
    assert flat("not given") not in en and flat("未填写的输入不列出") in zh
    contains("".join(pages_text(reports[MEDIUM_EN])), "48 h", "10.83 runs/month", "8 samples",
             "3,000 CNY/day")
    contains("".join(pages_text(reports[MEDIUM_ZH])), "48 小时", "10.83 次/月", "3,000 CNY/天")


def test_appendix_quotes_the_article_facts_each_fired_rule_rests_on(with_appendix):
    rec = case("medium-model-4gpu-worth-it")[0]
    for lang in ("en", "zh"):
        texts = pages_text(with_appendix[lang])
        start = next(i for i, t in enumerate(texts) if flat(t).startswith(flat(APPENDIX[lang])))
        appendix = "".join(texts[start:])
        for entry in rec.trace:
            contains(appendix, entry.rule)
            for fact_id in entry.sources:
                contains(appendix, fact_id, fact_text(fact_id, lang, gist=True)[:40])


def _fonts(path: Path) -> dict[str, dict]:
    """Every font on every page: its base name and whether it carries glyphs and ToUnicode."""
    found = {}
    for page in pypdf.PdfReader(path).pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            descendant = font["/DescendantFonts"][0].get_object()
            descriptor = descendant["/FontDescriptor"].get_object()
            program = next((descriptor[k] for k in ("/FontFile2", "/FontFile3", "/FontFile")
                            if k in descriptor), None)
            found[str(font["/BaseFont"])] = {
                "bytes": len(program.get_object().get_data()) if program is not None else 0,
                "to_unicode": "/ToUnicode" in font}
    return found


def test_fonts_are_embedded_with_unicode_maps(reports):
    from ui.report.fonts import report_fonts

    cjk = report_fonts().cjk.replace(" ", "")
    for key, path in reports.items():
        fonts = _fonts(path)
        assert fonts, key
        for name, info in fonts.items():
            assert info["bytes"] > 0, f"{key}: {name} is not embedded"
            assert info["to_unicode"], f"{key}: {name} has no ToUnicode map"
        if key[1] == "zh":
            assert any(cjk in name for name in fonts), (key, list(fonts))


def test_the_plots_are_embedded_at_print_resolution(reports):
    from ui.report.plot_images import DOC_WIDTH_PX

    shown_inches = DOC_WIDTH_PX / 96
    for key, path in reports.items():
        images = pdf_images(path)
        assert len(images) == 4, key  # speed-up, cost, buy vs rent, setups compared
        for _page, width, height in images:
            assert width / shown_inches >= 200, f"{key}: {width} px is under 200 dpi"
            assert 0.4 < height / width < 0.7
        assert path.stat().st_size < 1_000_000, key


def test_samples_in_docs_are_small_pdfs():
    """docs/sample-report-*.pdf (scripts/render_report_pages.sh): small, whole, in language."""
    ratings = {"en": ("Not worth it", "Optional", "Worth it", "Multi-GPU required"),
               "zh": ("不划算", "可选", "划算", "必须上多卡")}
    for lang in ("en", "zh"):
        sample = ROOT / "docs" / f"sample-report-{lang}.pdf"
        assert sample.stat().st_size < 1_000_000
        reader = pypdf.PdfReader(sample)
        assert len(reader.pages) >= SECTIONS
        first = flat(reader.pages[0].extract_text())
        assert any(flat(word) in first for word in ratings[lang])


def test_a_real_recommendation_renders_every_pitfall_and_rule(tmp_path):
    """The rule base's own output (not a fixture): nothing it produces is dropped."""
    from advisor.verdict.recommendation import recommend
    from ui.report import export_pdf
    from ui.report.labels import RATING

    profile = load_profile(ROOT / "examples" / "research-deadline-worth-it.yaml")
    rec = recommend(profile)
    path = export_pdf(rec, profile, tmp_path / "zh.pdf", "zh", generated=WHEN, appendix=True)
    text = "".join(pages_text(path))
    contains(text, RATING[rec.verdict.rating].zh, f"{rec.verdict.gpus} 卡",
             rec.verdict.headline.zh, *(p.title.zh for p in rec.pitfalls),
             *(p.remedy.zh for p in rec.pitfalls), *(a.text.zh for a in rec.advice),
             *(entry.rule for entry in rec.trace))
    # The appendix quotes every fired rule's message as it fired (TraceEntry.message), also
    # those whose placeholders need facts the rule did not match on.
    start = flat(text).index(flat("附录：触发的规则"))
    contains(flat(text)[start:], *(entry.message.zh for entry in rec.trace))


def test_no_diagnosis_section_without_measurements(reports):
    """The fixtures' profiles have no `measured` section and no Diagnosis is passed."""
    for (_name, lang), path in reports.items():
        text = flat("".join(pages_text(path)))
        assert flat("Diagnosis of the measured run" if lang == "en" else "实测诊断") not in text
