"""Renting a GPU that no cloud offer lists: the costs are unknown, never "the one-off move
alone". No cost rule reads a net value, and every view prints a dash."""

from __future__ import annotations

import pytest

from advisor.catalog.catalog import load_catalog, load_gpus
from advisor.cli import main
from advisor.costs.text import render_text
from advisor.profile import Profile
from advisor.verdict.recommendation import recommend


def _unlisted_gpu() -> str:
    catalog, gpus = load_catalog(), load_gpus()
    ids = list(gpus) if isinstance(gpus, dict) else [g.id for g in gpus]
    unlisted = [g for g in ids if catalog.cloud_price_per_gpu_hour(g, "USD") is None]
    if not unlisted:
        pytest.skip("every catalogued GPU has a cloud offer")
    return "l40s" if "l40s" in unlisted else unlisted[0]


def _profile(**economics) -> Profile:
    return Profile.model_validate(dict(
        schema_version=1, task="image_classification",
        model=dict(name="resnet50", params_millions=25.6),
        training=dict(single_gpu_hours=40, runs_per_month=8, batch_per_gpu=64, precision="amp"),
        hardware=dict(gpu=_unlisted_gpu(), gpus_per_node=4, intra_link="pcie4"),
        economics=dict(mode="cloud", **economics)))


def test_no_cost_rule_reads_an_unpriced_net_value():
    rec = recommend(_profile(), lang="en")
    assert not rec.costs.mode_priced
    fired = {t.rule for t in rec.trace}
    assert not fired & {"economics.time_saved_pays", "economics.time_saved_does_not_pay"}


def test_every_text_view_prints_a_dash(capsys, tmp_path):
    costs = recommend(_profile(), lang="en").costs
    text = render_text(costs, "en")
    assert "Best value: unknown (no cloud price for this GPU)" in text
    rows = [line.split() for line in text.splitlines() if line[:1].isdigit()]
    assert rows and all(r[2] == r[3] == r[5] == "—" for r in rows), rows
    assert "性价比最高：未知" in render_text(costs, "zh")
    path = tmp_path / "p.json"
    path.write_text(_profile().model_dump_json())
    assert main(["recommend", str(path), "--lang", "en"]) == 0
    assert "cost per run: unknown" in capsys.readouterr().out


def test_a_cloud_price_given_makes_it_priced_again():
    rec = recommend(_profile(currency="USD", cloud_price_per_gpu_hour=1.5), lang="en")
    assert rec.costs.mode_priced and rec.costs.cost_per_run[1] > 0
    assert {"economics.time_saved_pays", "economics.time_saved_does_not_pay"} & \
        {t.rule for t in rec.trace}


def test_the_pdf_summary_and_cost_pages_print_dashes():
    from datetime import datetime

    from ui.report.cost_section import costs_html
    from ui.report.summary_section import summary_html

    profile = _profile()
    rec = recommend(profile, lang="zh")
    summary = summary_html(rec, profile, "zh", datetime(2026, 11, 30))
    assert "每次成本" in summary and "¥12" not in summary and "$12" not in summary
    page = costs_html(rec, "zh", {}, "—", False)
    assert "性价比最高：未知" in page


def test_renting_never_talks_about_covering_electricity():
    """Review 4: "cloud rental. A day of revenue covers the extra electricity"."""
    profile = Profile.model_validate(dict(
        schema_version=1, task="image_classification",
        model=dict(name="ViT-S", params_millions=22),
        training=dict(single_gpu_hours=3, runs_per_week=5, batch_per_gpu=256, precision="bf16"),
        hardware=dict(gpu="h200_sxm", gpus_per_node=8, intra_link="nvswitch", cooling="server"),
        economics=dict(mode="cloud", currency="USD", time_value="revenue", value_per_day=500)))
    rec = recommend(profile, lang="en")
    assert "electricity" not in rec.verdict.headline.en
    assert all(t.rule != "economics.revenue_covers_electricity" for t in rec.trace)


def test_cards_already_owned_have_nothing_to_pay_back():
    """Review 4: gpu_price 0 (cards already owned) printed "owning pays off after 0.0 months"."""
    from datetime import datetime

    from ui.report.summary_section import summary_html

    profile = Profile.model_validate(dict(
        schema_version=1, task="nlp",
        model=dict(name="RoBERTa-large", params_millions=355, sequence_length=512),
        training=dict(single_gpu_hours=20, runs_per_week=4, batch_per_gpu=16, precision="amp",
                      horizon_months=2),
        hardware=dict(gpu="rtx3090", gpus_per_node=2, intra_link="pcie4"),
        economics=dict(mode="compare", currency="CNY", time_value="deadline",
                       value_per_day=800, deadline_days=10, gpu_price=0,
                       base_system_price=0)))
    rec = recommend(profile, lang="en")
    text = render_text(rec.costs, "en")
    assert rec.costs.buy_vs_rent.breakeven_months is not None  # both sides priced
    assert "0.0 months" not in text and "already paid for" in text
    assert "已经买好" in summary_html(rec, profile, "zh", datetime(2026, 11, 30))


@pytest.mark.parametrize("time_value", ["none", "revenue", "deadline"])
@pytest.mark.parametrize("hours,runs", [(1.0, 300), (100.0, 12), (30.0, 2)])
def test_every_unpriced_cloud_gpu_gets_a_verdict(time_value, hours, runs):
    """Review 5: with no cloud price no cost rule fires, and when no table row fired either
    the recommendation crashed ("no rule decided the rating")."""
    catalog, gpus = load_catalog(), load_gpus()
    ids = list(gpus) if isinstance(gpus, dict) else [g.id for g in gpus]
    unlisted = [g for g in ids if catalog.cloud_price_per_gpu_hour(g, "USD") is None]
    economics = {"mode": "cloud", "currency": "USD", "time_value": time_value}
    if time_value != "none":
        economics["value_per_day"] = 1000
    if time_value == "deadline":
        economics["deadline_days"] = 10
    for gpu in unlisted:
        rec = recommend(Profile.model_validate(dict(
            schema_version=1, task="object_detection", model=dict(name="DETR", params_millions=41),
            training=dict(single_gpu_hours=hours, runs_per_month=runs, batch_per_gpu=8,
                          precision="bf16"),
            hardware=dict(gpu=gpu, gpus_per_node=4, intra_link="pcie4"),
            economics=economics)), lang="en")
        assert rec.verdict.rating and not rec.costs.mode_priced, gpu
