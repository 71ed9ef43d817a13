"""Issue 32: clusters at their real scale. A 70B pre-training on 512 H100s over InfiniBand is
compared by default and with a reserved cluster named on the command line; a comparison reaches
4,096 GPUs; a run of more than 100,000 GPU-hours is a run like any other; machines joined by
InfiniBand or RoCE are rented only from offers of such clusters (a marketplace rents single
machines), and a cluster reservation only for a job of at least its fewest GPUs."""

from __future__ import annotations

import json

from advisor.catalog.profile_check import load_profile
from advisor.cli import main
from advisor.compare.compare import compare, options_for
from advisor.compare.option import MAX_TOTAL_GPUS
from tests.support.paths import EXAMPLES

PLAN_70B = EXAMPLES / "plan-70b-pretraining-from-tokens.yaml"  # 64 machines x 8 H100, NDR
RESERVED = "64x8 h100_sxm infiniband_ndr cloud=reserved"


def test_a_70b_pretraining_on_512_h100s_is_compared_by_default(capsys):
    assert main(["compare", str(PLAN_70B), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    yours = next(o for o in out["options"] if o["kind"] == "yours")
    assert max(p["gpus"] for p in yours["points"]) == 512
    # one run takes far more than 100,000 GPU-hours, and is priced
    biggest = max(yours["points"], key=lambda p: p["gpus"])
    assert biggest["gpus"] * biggest["run_hours"] > 100_000 and biggest["cost_per_run"] > 0


def test_a_reserved_cluster_of_512_h100s_is_compared_when_named(capsys):
    assert main(["compare", str(PLAN_70B), "--option", RESERVED, "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    named = next(o for o in out["options"] if o["kind"] == "spec")
    assert named["points"] and max(p["gpus"] for p in named["points"]) == 512
    assert all(p["fits"] for p in named["points"] if p["gpus"] >= 64)


def test_a_comparison_reaches_4096_gpus():
    assert MAX_TOTAL_GPUS == 4096
    profile = load_profile(PLAN_70B)
    option = options_for(profile, specs=["512x8 h100_sxm infiniband_ndr"])[-1]
    assert option.profile.hardware.total_gpus == 4096


def test_a_marketplace_offer_never_rents_an_infiniband_cluster():
    result = compare(load_profile(PLAN_70B), verdicts=False)
    rented = [o for o in result.options if o.id in ("rent_on_demand", "rent_spot")]
    assert not rented, [o.label.en for o in rented]
    reserved = next(o for o in result.options if o.id == "rent_reserved")
    assert any("cluster" in n.en.lower() or "infiniband" in n.en.lower()
               for n in reserved.notes), [n.en for n in reserved.notes]


def test_a_cluster_reservation_is_not_offered_to_a_single_gpu_job():
    from tests.support.verdict import ALL

    small = next(p for p in ALL if p.stem == "resnet-4x-l40s-cloud")
    profile = load_profile(small)
    hardware = profile.hardware.model_validate({**profile.hardware.model_dump(),
                                                "gpu": "h100_sxm", "gpus_per_node": 1,
                                                "intra_link": "nvswitch"})
    one = profile.model_copy(update={"hardware": hardware})
    result = compare(one, verdicts=False)
    for option in result.options:
        if option.id == "rent_reserved":
            assert not any("cluster" in n.en.lower() for n in option.notes), option.notes
