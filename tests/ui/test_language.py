"""English and Simplified Chinese: chosen at start, switched while running; the money follows
the market, never the language."""

from __future__ import annotations

from advisor.catalog.profile_check import load_profile
from tests.support.paths import ROOT
from tests.support.ui import EXAMPLES, make_window
from ui.app.translation import tr_lang


def test_chinese_catalog_is_complete_and_uses_the_article_words():
    import xml.etree.ElementTree as ET

    from advisor.files.paths import resources_dir

    root = ET.parse(resources_dir() / "i18n" / "advisor_zh_CN.ts").getroot()
    messages = [m for c in root for m in c.findall("message")]
    assert len(messages) > 150
    unfinished = [m.find("source").text for m in messages
                  if m.find("translation").get("type") == "unfinished"
                  or not (m.find("translation").text or "").strip()]
    assert unfinished == []
    words = {tr_lang("zh", "Verdict", s) for s in ("Not worth it", "Optional (2 GPUs if you like)",
                                                   "Worth it", "Multi-GPU required")}
    assert words == {"不划算", "可选（2卡看心情）", "划算", "必须上多卡"}


def test_switching_language_retranslates_every_page_and_the_results(qtbot):
    window = make_window(qtbot, "en")
    with qtbot.waitSignal(window.resultsShown):
        window.recompute()
    model_page = window.pages[0]
    assert model_page.title_label.text() == "Task and model"
    params = model_page.editors["model.params_millions"]
    text = params.label.text()  # "P&arameters": its Alt+letter marked (issue 34)
    assert text.replace("&", "") == "Parameters"
    assert text[text.index("&") + 1].upper() == params.mnemonic
    assert window.results_page.card.rating_label.text() in {"Worth it", "Not worth it"}
    assert window.act_en.isChecked()
    with qtbot.waitSignal(window.resultsShown):
        window.act_zh.trigger()
    assert window.hub.lang == "zh" and window.act_zh.isChecked()
    assert model_page.title_label.text() == "任务与模型"
    assert params.label.text() == f"参数量(&{params.mnemonic})"
    assert window.steps.item(4).text() == "5. 结果"
    assert window.next_button.text() == "下一步(&N) >"
    assert window.results_page.card.rating_label.text() in {"划算", "不划算"}
    assert window.results_page.tabs.tabText(0) == "加速比"
    window.go_to(len(window.pages))  # the plots are drawn when their page is shown
    plot_title = window.results_page.speedup.getPlotItem().titleLabel.text
    assert "预计加速比" in plot_title
    hardware = next(p for p in window.pages if p.page.key == "hardware")
    assert hardware.editors["hardware.intra_link"].input.currentText() == "PCIe 4.0"
    assert hardware.editors["hardware.cooling"].input.currentText() == "开放式风扇（游戏卡）"
    with qtbot.waitSignal(window.resultsShown):
        window.act_en.trigger()
    assert model_page.title_label.text() == "Task and model"
    assert window.results_page.tabs.tabText(0) == "Speed-up"


def test_a_language_switch_changes_no_number(qtbot):
    """The issue: switching the GUI's language turned $618 into ¥3,982 (not the exchange
    rate). The market (this computer's: US in the tests) picks the prices; the language only
    translates."""
    window = make_window(qtbot, "en")
    assert window.answers.profile.economics.currency is None
    with qtbot.waitSignal(window.resultsShown):
        window.recompute()
    assert window.results.profile.economics.market.value == "US"
    english = window.results.recommendation.costs
    assert english.currency == "USD"
    card = window.results_page.card.values["cost_month"].text()
    prices = next(p for p in window.pages if p.page.key == "hardware")
    assert prices.editors["economics.gpu_price"].unit_label.text() == "USD"
    with qtbot.waitSignal(window.resultsShown):
        window.hub.set_language("zh")
    chinese = window.results.recommendation.costs
    assert chinese.currency == "USD" and chinese.market == "US"
    assert chinese.model_dump(exclude={"assumptions"}) == english.model_dump(
        exclude={"assumptions"})
    assert prices.editors["economics.gpu_price"].unit_label.text() == "美元"
    assert window.results_page.card.values["cost_month"].text() == card  # $…, same figure
    # Changing the market (the field on the prices page) is what changes the money.
    with qtbot.waitSignal(window.resultsShown):
        window.answers.set("economics.market", "CN")
    assert window.results.recommendation.costs.currency == "CNY"
    assert window.results.recommendation.costs.market == "CN"
    fixed = next(p for p in EXAMPLES if "large-model" in p.stem)  # fixes USD
    with qtbot.waitSignal(window.resultsShown):
        window.answers.load_profile(load_profile(fixed))
    assert window.results.recommendation.costs.currency == "USD"


def test_start_language_comes_from_the_system_locale(qtbot, monkeypatch):
    monkeypatch.delenv("GPU_ADVISOR_LANG", raising=False)
    monkeypatch.setenv("LANGUAGE", "zh_CN:zh")
    window = make_window(qtbot, lang=None)
    assert window.hub.lang == "zh"
    assert window.pages[0].title_label.text() == "任务与模型"
    window.hub.set_language("en")


def test_catalog_covers_every_string_in_the_wizard_source(tmp_path):
    """Every tr()/translate()/QT_TRANSLATE_NOOP string of ui/ is in the committed .ts file."""
    import subprocess
    import sys
    import xml.etree.ElementTree as ET
    from pathlib import Path

    from advisor.files.paths import resources_dir

    root = ROOT
    sources = sorted(str(p) for p in (root / "ui").rglob("*.py")
                     if "report" not in p.parts and "diagnosis" not in p.parts)
    assert str(root / "ui" / "dialogs" / "import_dialog.py") in sources
    lupdate = Path(sys.executable).with_name("pyside6-lupdate")
    fresh = tmp_path / "fresh.ts"
    subprocess.run([str(lupdate), *sources, "-ts", str(fresh)], check=True,
                   capture_output=True, timeout=60)

    def texts(path):
        return {(c.find("name").text, m.find("source").text)
                for c in ET.parse(path).getroot() for m in c.findall("message")}

    found = texts(fresh)
    assert ("ImportDialog", "Detect this machine") in found  # the dialog's strings are seen
    missing = found - texts(resources_dir() / "i18n" / "advisor_zh_CN.ts")
    assert missing == set()


def test_import_dialog_has_no_second_catalog():
    """Its Chinese comes from the Qt Linguist catalog only, never from a dict in the source."""
    import re

    source = (ROOT / "ui" / "dialogs" / "import_dialog.py").read_text(
        encoding="utf-8")
    assert re.search(r"[\u4e00-\u9fff]", source) is None
    assert tr_lang("zh", "ImportDialog", "Detect this machine") == "检测本机"
    assert tr_lang("zh", "ImportDialog", "Observations") != "Observations"
