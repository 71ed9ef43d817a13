"""gpu-advisor catalog: what is known, by market, with dates; old and undated prices marked;
the GPUs the projection cannot represent listed with why."""

from __future__ import annotations

import json

from advisor.cli import main


def test_gpus_by_market_with_dates(capsys, monkeypatch):
    monkeypatch.setenv("GPU_ADVISOR_TODAY", "2026-12-01")
    assert main(["catalog", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert set(data["markets"]) == {"CN", "US", "EU"}
    us = {row["gpu"]: row for row in data["markets"]["US"]["gpus"]}
    cn = {row["gpu"]: row for row in data["markets"]["CN"]["gpus"]}
    assert data["markets"]["CN"]["currency"] == "CNY"
    # a card price with the market's tax, and its date
    assert us["rtx4090"]["card_price"] == 1775 * 1.0752
    assert cn["rtx4090"]["card_price"] == 14500
    assert us["rtx4090"]["card_as_of"] == "2026"
    # the L40S has cloud offers now, the 4060 Ti a price from comparable cards' offers
    assert us["l40s"]["offers_in_market"] and us["l40s"]["cloud_per_gpu_hour"] > 0
    assert cn["rtx4060ti_16gb"]["cloud_per_gpu_hour"] is not None
    for market in data["markets"].values():
        assert market["tax"]["rate"] > 0 and market["electricity"]
        assert any(row["default"] for row in market["electricity"])
    assert [row["id"] for row in data["not_modelled"]] == ["mi300x"]


def test_text_marks_old_prices_in_both_languages(capsys, monkeypatch):
    monkeypatch.setenv("GPU_ADVISOR_TODAY", "2026-12-01")
    assert main(["--lang", "en", "catalog", "--market", "us"]) == 0
    out = capsys.readouterr().out
    assert "== Market US (USD) ==" in out and "(old)" in out
    assert "electricity us_residential" in out and "tax on purchases: 7.52%" in out
    assert "setup hgx_8x_h100" in out and "Not modelled: AMD Instinct MI300X" in out
    assert main(["--lang", "zh", "catalog", "--market", "CN", "--section", "electricity"]) == 0
    zh = capsys.readouterr().out
    assert "== 市场 CN（CNY）==" in zh and "（已过期）" in zh and "电价 cn_household" in zh


def test_one_gpu_and_a_currency(capsys):
    assert main(["catalog", "--market", "EU", "--currency", "USD", "--gpu", "RTX 4090",
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    rows = data["markets"]["EU"]["gpus"]
    assert [r["gpu"] for r in rows] == ["rtx4090"]
    assert data["markets"]["EU"]["currency"] == "USD"


def test_an_unknown_gpu_exits_2(capsys):
    assert main(["catalog", "--gpu", "rtx4099"]) == 2
    assert "unknown GPU" in capsys.readouterr().err
