"""gpu-advisor compare: the table, JSON and Markdown, --option/--setup, --market/--currency,
and a clear exit 2 that names a bad option in both languages."""

from __future__ import annotations

import json

import pytest

from advisor.cli import main
from tests.support.paths import ROOT

MEDIUM = str(ROOT / "examples" / "medium-model-4gpu-worth-it.yaml")


def test_text_table_front_answers_and_verdicts(capsys):
    assert main(["--lang", "en", "compare", MEDIUM]) == 0
    out = capsys.readouterr().out
    # issue 29: it opens with recommend's answer, then the comparison
    assert out.startswith("The answer (the same as `gpu-advisor recommend`):\n  Do: ")
    assert "\nCompare setups (market CN, CNY)" in out
    for words in ("Your setup (4 × RTX 4090, own)", "★ front", "dominated by [",
                  "Answers:", "Best net value:", "Fastest:", "Cheapest a month:",
                  "Each option's verdict", "HGX H100 server", "prices older than 12 months"):
        assert words in out, words
    assert main(["--lang", "zh", "compare", MEDIUM]) == 0
    zh = capsys.readouterr().out
    for words in ("配置对比（市场 CN，CNY）", "你的配置（4 × RTX 4090，自建）", "★ 前沿", "劣于",
                  "结论：", "净收益最高", "各选项的结论"):
        assert words in zh, words


def test_named_options_and_setups_replace_the_catalogs(capsys):
    assert main(["compare", MEDIUM, "--option", "8x rtx4090 pcie4 own", "--option",
                 "2x4 rtx4090 ethernet_25g", "--setup", "hgx_8x_h100", "--format",
                 "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    # the named ones replace the catalog's; the answer's own setup stays beside them where
    # the answer rests on another (a user review)
    assert [o["id"] for o in data["options"] if o["id"] != "answer"] == [
        "yours", "setup:hgx_8x_h100", "spec:0", "spec:1"]
    spec = data["options"][2]
    assert spec["spec"] == "8x rtx4090 pcie4 own" and spec["gpus_per_node"] == 8
    assert data["front"] and all({"option", "gpus"} <= set(r) for r in data["front"])
    assert {a["key"] for a in data["answers"]} >= {"fastest", "cheapest", "net_value"}


def test_market_and_currency(capsys):
    # The example writes its prices in CNY: in the EU market they are converted, and the
    # report stays in the profile's currency unless --currency says otherwise.
    assert main(["compare", MEDIUM, "--option", "4x rtx4090 own", "--market", "eu",
                 "--format", "json"]) == 0
    eu = json.loads(capsys.readouterr().out)
    assert (eu["market"], eu["currency"]) == ("EU", "CNY")
    assert main(["compare", MEDIUM, "--option", "4x rtx4090 own", "--market", "EU",
                 "--currency", "EUR", "--format", "json"]) == 0
    euro = json.loads(capsys.readouterr().out)
    assert (euro["market"], euro["currency"]) == ("EU", "EUR")
    ratio = eu["options"][0]["points"][0]["cost_per_month"] / \
        euro["options"][0]["points"][0]["cost_per_month"]
    from advisor.catalog import load_catalog

    assert ratio == pytest.approx(load_catalog().convert(1, "EUR", "CNY"))
    assert main(["compare", MEDIUM, "--option", "4x rtx4090 own", "--format", "json"]) == 0
    china = json.loads(capsys.readouterr().out)
    assert china["market"] == "CN"  # the market of the profile's currency
    assert china["options"][0]["points"][0]["cost_per_month"] != \
        eu["options"][0]["points"][0]["cost_per_month"]


def test_markdown(capsys):
    assert main(["compare", MEDIUM, "--option", "4x rtx4090 own", "--format",
                 "markdown"]) == 0
    md = capsys.readouterr().out
    assert md.startswith("# Setups compared") and "| # | option | GPUs |" in md


@pytest.mark.parametrize("spec, en, zh", [
    ("4x rtx4099 own", "unknown GPU 'rtx4099'", "未知显卡 'rtx4099'"),
    ("4x rtx4090 pcie9 own", "unknown word 'pcie9'", "无法识别 'pcie9'"),
    ("rtx4090 own", "give a count", "请写明卡数"),
    ("4x rtx4090 nvswitch", "cannot use nvswitch", "不支持 nvswitch"),
    ("513x8 h100_sxm nvswitch", "at most 4096 GPUs", "最多比较 4096 张卡"),
    ("4x rtx4090 cloud=-3", "must be above 0", "必须大于 0"),
    ("4x rtx4090 cloud=nope", "not a price, spot, reserved or an offer id", "不是价格"),
    ("8x mi300x", "AMD Instinct MI300X is not modelled", "暂不支持建模"),
])
def test_a_bad_option_exits_2_naming_it_in_both_languages(capsys, spec, en, zh):
    assert main(["--lang", "en", "compare", MEDIUM, "--option", spec]) == 2
    err = capsys.readouterr().err
    assert f"--option: {spec!r}" in err and en in err and "Traceback" not in err
    assert main(["--lang", "zh", "compare", MEDIUM, "--option", spec]) == 2
    err = capsys.readouterr().err
    assert f"{spec!r}" in err and zh in err


def test_an_unknown_setup_exits_2_with_the_known_ones(capsys):
    assert main(["compare", MEDIUM, "--setup", "ws_9x"]) == 2
    err = capsys.readouterr().err
    assert "--setup 'ws_9x'" in err and "ws_4x_rtx4090" in err


def test_compare_and_costs_open_with_the_answer_recommend_gives(capsys):
    """Issue 29: one decision, presented everywhere: compare and costs name the setup that
    recommend names, in text and in JSON."""
    import json

    assert main(["--lang", "en", "recommend", MEDIUM]) == 0
    do = capsys.readouterr().out.splitlines()[0]
    assert do.startswith("Do: ")
    for command in ("compare", "costs"):
        assert main(["--lang", "en", command, MEDIUM]) == 0
        assert f"\n  {do}\n" in "\n" + capsys.readouterr().out
    assert main(["recommend", MEDIUM, "--format", "json"]) == 0
    verdict = json.loads(capsys.readouterr().out)["verdict"]
    for command in ("compare", "costs"):
        assert main([command, MEDIUM, "--format", "json"]) == 0
        said = json.loads(capsys.readouterr().out)["recommended"]
        assert (said["gpus"], said["rating"]) == (verdict["gpus"], verdict["rating"])
