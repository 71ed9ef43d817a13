"""Helper review (2026-12-06): a user who owns four RTX 4090 and says a ViT-L/16 run takes
240 h on one of them, at batch 64, was told the cards cannot hold the job and to buy an L40S
server. The run time says the batch ran on one card (``advisor.scaling.measured_memory``):
the answer is the user's own cards, costing their electricity."""

from __future__ import annotations

from advisor.catalog.profile_check import parse_profile_text
from advisor.compare.weighed import recommend

VIT = """
task: image_classification
model: {id: vit-l-16, name: ViT-L/16}
training: {single_gpu_hours: 240, runs_per_month: 1, batch_per_gpu: 64, precision: bf16,
           input_pipeline: tuned}
hardware: {gpu: rtx4090, gpus_per_node: 4, intra_link: pcie4}
economics: {mode: own, currency: USD, market: US, owned_gpus: 4, time_value: none}
"""


def test_four_owned_cards_that_ran_the_batch_are_the_answer_not_a_server_to_buy():
    rec = recommend(parse_profile_text(VIT), lang="en")
    assert all(rec.projection.fits)  # every count of the user's cards holds the batch
    v = rec.verdict
    assert v.deployment == "own" and v.runnable
    assert not any(o.applied and o.kind in ("buy_setup", "rent_offer") for o in rec.setups)
    i = rec.costs.gpus.index(v.gpus)
    assert rec.costs.capex[i] == 0  # the cards are owned: only their electricity
    # how many of them: time is worth nothing here, and four cards cost 5 % more electricity
    # a run than one (a ViT-L's step is short next to its gradient exchange over PCIe without
    # peer-to-peer): the rules' one card stands, and the cards hold the batch at every count
    assert rec.projection.run_hours[i] <= 240
