"""The PDF keeps to what a reader acts on (issue 19, items 3 and 10): the summary fills page 1,
the rule trace is an appendix only when asked for, no axis labels touch, nothing is said twice
and nothing names hardware the profile does not have; a verdict that assumes the article's
valuation of time says so with the value of a day, not with a net value."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage, QPainter

from advisor.catalog.profile_check import load_profile
from advisor.profile import Profile
from advisor.verdict.recommendation import recommend
from tests.support.paths import PROFILES, ROOT
from tests.support.pdf import contains, flat, pages_text, without_comparison

WHEN = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
H100 = PROFILES / "verdict" / "llm8b-8x-h100-nvswitch-usd.yaml"
A6000 = PROFILES / "verdict" / "vit-4x-a6000-no-cooling-given.yaml"


def _export(tmp_path: Path, profile: Profile, lang: str, name: str, **kw) -> Path:
    from ui.report import export_pdf

    rec = recommend(profile, lang=lang)
    return export_pdf(rec, profile, tmp_path / f"{name}-{lang}.pdf", lang, generated=WHEN, **kw)


@pytest.fixture(scope="module")
def default_reports(tmp_path_factory) -> dict[str, Path]:
    """The wizard's defaults (what a day saved is worth not said), both languages."""
    out = tmp_path_factory.mktemp("default")
    return {lang: _export(out, Profile(), lang, "default") for lang in ("en", "zh")}


@pytest.fixture(scope="module")
def h100_reports(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("h100")
    profile = load_profile(H100)
    return {lang: _export(out, profile, lang, "h100", appendix=True) for lang in ("en", "zh")}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_one_holds_the_whole_summary(default_reports, lang):
    pages = [flat(t) for t in pages_text(default_reports[lang])]
    first = pages[0]
    for words in (("Rating", "Recommended", "Key numbers at the recommended setup",
                   "Watch out for", "Generated") if lang == "en" else
                  ("评价", "推荐配置", "推荐配置下的关键数字", "注意", "生成于")):
        assert flat(words) in first, words
    assert pages[1].startswith(flat("The workload" if lang == "en" else "训练任务"))
    rest, compared = without_comparison(default_reports[lang], lang)
    assert len(rest) <= 7  # title, workload, projection, costs, break-even, pitfalls, set-up
    assert 1 <= len(compared) <= 2  # then the setups compared: the chart, the table, answers


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_not_said_shows_the_extra_cost_and_the_value_of_a_day(default_reports, lang):
    first = pages_text(default_reports[lang])[0]
    if lang == "en":
        contains(first, "Extra cost per month vs one GPU", "Pays for itself if a day saved is "
                 "worth", "(you have not said what a day is worth)")
        assert flat("Net value per month") not in flat(first)
    else:
        contains(first, "相对单卡每月多花", "省下一天值多少才回本", "你还没有说明省下一天值多少")
        assert flat("每月净收益") not in flat(first)
    costs = "".join(pages_text(default_reports[lang]))
    contains(costs, "Cheapest, with the time saved not valued: 1 GPU" if lang == "en"
             else "不给时间定价时最省钱：1 卡")


def test_the_rule_trace_is_an_appendix_only_when_asked_for(default_reports, h100_reports):
    plain = flat("".join(pages_text(default_reports["en"])))
    assert flat("Appendix: the rules that fired") not in plain
    assert flat("decision_table.medium_model_training") not in plain
    asked = flat("".join(pages_text(h100_reports["en"])))
    assert flat("Appendix: the rules that fired") in asked


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_usd_h100_report_quotes_no_4060_workstation(h100_reports, lang):
    # the setups compared list the market's ready setups (the article's 4060 Ti build among
    # them) as options beside the user's: the rest of the report names only the user's
    rest, compared = without_comparison(h100_reports[lang], lang)
    text = "".join(rest)
    assert compared and text.count("F31")  # the section is there, the appendix outside it
    assert "4060" not in text and "15,000" not in text and "1.5万" not in text
    contains(text, "F31")  # the fact is still cited, by its gist
    contains(text, "training hours a month" if lang == "en" else "每月训练小时数")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_does_not_fit_one_gpu_note_is_said_once(h100_reports, lang):
    from ui.report import labels as L

    text = flat("".join(pages_text(h100_reports[lang])))
    assert text.count(flat(L.SINGLE_GPU_DOES_NOT_FIT.get(lang))) == 0
    note = "The model does not fit one GPU: the speed-up is over" if lang == "en" else \
        "单卡放不下该模型：加速比相对于"
    assert text.count(flat(note)) == 1  # the projection's own note (its layouts' reference)


def test_either_deployment_reads_once(tmp_path):
    from ui.report import export_pdf
    from ui.report import labels as L

    profile = load_profile(ROOT / "examples" / "medium-model-4gpu-worth-it.yaml")
    rec = recommend(profile, lang="en")
    rec = rec.model_copy(update={"verdict": rec.verdict.model_copy(update={"deployment":
                                                                           "either"})})
    path = export_pdf(rec, profile, tmp_path / "either.pdf", "en", generated=WHEN)
    first = flat(pages_text(path)[0])
    assert flat("Own or rent") + flat(L.DEPLOYMENT["either"].en) in first
    assert flat("own or rent: either") not in first
    assert flat("own or rent") not in flat(L.DEPLOYMENT["either"].en)


def test_a_blower_card_is_listed_with_its_own_cooling(tmp_path):
    path = _export(tmp_path, load_profile(A6000), "en", "a6000")
    workload = "".join(pages_text(path)[1:3])
    contains(workload, "Blower (turbo cards)", "the card's usual cooling")
    assert flat("Open-air (gaming coolers)") not in flat(workload)


def test_the_workload_lists_what_was_given(default_reports):
    workload = flat(pages_text(default_reports["en"])[1])
    assert flat("not given") not in workload
    assert flat("Not said yet (the article's table rates it)") in workload  # time_value
    assert flat("economics.gpu_price") not in workload  # left empty: not listed


def _x_label_boxes(plot, size):
    from ui.report.qt_app import ensure_app

    ensure_app()
    plot.setAttribute(Qt.WidgetAttribute.WA_DontShowOnScreen, True)
    plot.resize(*size)
    plot.show()
    plot.grab()
    image = QImage(8, 8, QImage.Format.Format_RGB32)
    painter = QPainter(image)
    try:
        texts = plot.getPlotItem().getAxis("bottom").generateDrawSpecs(painter)[2]
    finally:
        painter.end()
        plot.hide()
    return sorted((rect.left(), rect.right(), text) for rect, _flags, text in texts)


@pytest.mark.parametrize("name", ["large-model-8plus-gpus-required", "h100-64", "h100-512"])
def test_no_two_x_axis_labels_touch(qtbot, name):
    from ui import plots
    from ui.report.plot_images import PLOT_SIZE_PX

    if name.startswith("h100"):
        data = load_profile(H100).model_dump(mode="json", exclude_none=True)
        data["hardware"].update(nodes=int(name.split("-")[1]) // 8, inter_link="infiniband_ndr")
        profile = Profile.model_validate(data)
    else:
        profile = load_profile(ROOT / "examples" / f"{name}.yaml")
    rec = recommend(profile, lang="en")
    for build in (plots.speedup_plot, plots.cost_plot):
        for size in (PLOT_SIZE_PX, (300, 180)):  # the report's, the live preview's smallest
            boxes = _x_label_boxes(build(rec, profile, "en"), size)
            assert len(boxes) >= 2
            for (_, right, a), (left, _, b) in zip(boxes, boxes[1:], strict=False):
                assert left - right >= 4, (name, size, a, b, boxes)


def test_the_appendix_explains_the_decision_policys_step(recs):
    """Issue 29: a moved answer's Why list holds policy.best_candidate; the appendix gives
    its message as it fired and what the step does, as for the count guard."""
    from ui.report.appendix_section import rule_text

    rec = recs["starved-pipeline-rtx4090"]
    step = next(t for t in rec.trace if t.rule == "policy.best_candidate")
    for lang, words in (("en", "decision policy"), ("zh", "决策策略")):
        message, why = rule_text(step, lang)
        assert message == step.message.get(lang) and words in why
