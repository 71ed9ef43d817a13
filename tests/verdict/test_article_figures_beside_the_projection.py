"""The article's typical figures are quoted only beside the projection's own and say how they
relate (issue 19, item 2): "about 5x on 8 GPUs" is not printed under 6.6x on an NVSwitch
server, nor under a 256-GPU verdict; "> 3x on 4" is not printed under a projection below it."""

from __future__ import annotations

import re

from advisor.catalog.profile_check import load_profile
from advisor.profile import Profile
from advisor.verdict.recommendation import recommend
from tests.support.paths import PROFILES

H100 = PROFILES / "verdict" / "llm8b-8x-h100-nvswitch-usd.yaml"


def _advice(rec, topic="task_scaling"):
    return next((a for a in rec.advice if a.id == topic), None)


def _quoted_speedup(text: str) -> float:
    return float(re.search(r"\(([\d.]+)x on \d+\)", text).group(1))


def test_an_nvswitch_llm_is_said_to_scale_above_the_articles_figure():
    rec = recommend(load_profile(H100), lang="en")
    advice = _advice(rec)
    assert advice is not None
    assert "typically about 5x on 8 GPUs, as the projection" not in advice.text.en
    assert "projected higher" in advice.text.en and "NVSwitch" in advice.text.en
    at_8 = rec.projection.speedup[rec.projection.at(8)]
    assert abs(_quoted_speedup(advice.text.en) - at_8) < 0.01 and at_8 > 6


def test_past_sixteen_gpus_the_8_gpu_figure_is_not_quoted():
    data = load_profile(H100).model_dump(mode="json", exclude_none=True)
    data["model"].update(params_millions=70000, layers=80, hidden_size=8192)
    data["training"].update(single_gpu_hours=100000, batch_per_gpu=1)
    data["hardware"].update(nodes=64, inter_link="infiniband_ndr")
    data["economics"].update(value_per_day=50000)
    rec = recommend(Profile.model_validate(data), lang="en")
    assert rec.verdict.gpus > 16
    assert _advice(rec) is None or "5x on 8" not in _advice(rec).text.en


def test_image_tasks_quote_the_projection_at_four():
    profile = load_profile(PROFILES / "verdict" / "resnet-4x-l40s-cloud.yaml")
    # L40S rentals have a market price (issue 18): with time worth nothing, one GPU is the
    # verdict and no scaling advice is given; a day saved valued at $300 makes four pay
    economics = profile.economics.model_validate(
        {**profile.economics.model_dump(), "time_value": "revenue", "value_per_day": 300})
    rec = recommend(profile.model_copy(update={"economics": economics}), lang="en")
    assert rec.verdict.gpus == 4
    advice = _advice(rec)
    at_4 = rec.projection.speedup[rec.projection.at(4)]
    assert abs(_quoted_speedup(advice.text.en) - at_4) < 0.01
    if at_4 >= 3:
        assert "the projection agrees" in advice.text.en
    elif at_4 >= 2.5:
        assert "normal for this kind of task" in advice.text.en
    else:
        assert "projected below that" in advice.text.en
    default = recommend(Profile(), lang="en")  # 4 x RTX 4090 on PCIe: 2.9x on 4
    text = _advice(default).text.en
    assert "the projection agrees" not in text and "2.9" in text
