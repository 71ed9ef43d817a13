"""The typical rate a GPU-hour is a median of the market's offers; where the answer rents at
it a machine no offer of the market rents (more cards than any instance holds, or machines
joined by InfiniBand or RoCE that no cluster offer joins), the answer says so (a user review:
"Rent 8 × RTX 4090 (typical price)" in China, where every offer rents one card an
instance; 4 × 8 A100 over RoCE at the median of single machines' offers)."""

from __future__ import annotations

from advisor.catalog.profile_check import load_profile, parse_profile_text
from advisor.compare.weighed import recommend
from tests.support.paths import EXAMPLES


def _warning(rec):
    return next((p for p in rec.pitfalls if p.id == "shape_not_offered"), None)


def test_eight_cards_rented_where_every_offer_rents_one_are_said_to_have_no_offer():
    rec = recommend(load_profile(EXAMPLES / "research-deadline-worth-it.yaml"), lang="en")
    assert rec.summary[0].text.en.startswith("Rent 8 × GeForce RTX 4090 (typical price)")
    note = _warning(rec)
    assert note is not None and note.severity == "warning"
    assert "rents 8 of these cards in one machine" in note.title.en
    assert "单机 8 张" in note.title.zh
    assert "economics.cloud_price_per_gpu_hour" in note.remedy.en


def test_machines_joined_by_rdma_with_no_cluster_offer_are_said_so():
    rec = recommend(load_profile(EXAMPLES / "large-model-8plus-gpus-required.yaml"), lang="en")
    assert rec.verdict.nodes > 1 and rec.verdict.deployment == "cloud"
    note = _warning(rec)
    assert note is not None and "joined by InfiniBand or RoCE" in note.title.en


def test_a_machine_an_offer_rents_whole_or_a_price_of_ones_own_is_not_warned():
    text = """
task: image_classification
model: {name: ResNet-50, params_millions: 25.6}
training: {single_gpu_hours: 24, runs_per_month: 8, batch_per_gpu: 128, precision: amp,
           input_pipeline: tuned, dataloader_workers: 8}
hardware: {gpu: rtx4090, gpus_per_node: 8, intra_link: pcie4}
economics: {mode: cloud, currency: USD, market: US, time_value: revenue, value_per_day: 500}
"""
    rec = recommend(parse_profile_text(text), lang="en")
    assert rec.verdict.gpus > 1 and _warning(rec) is None  # RunPod rents 8 RTX 4090s whole
    cn = text.replace("currency: USD, market: US", "currency: CNY, market: CN").replace(
        "value_per_day: 500", "value_per_day: 3500")
    rec = recommend(parse_profile_text(cn), lang="en")
    assert rec.verdict.gpus > 1 and _warning(rec) is not None
    quoted = cn.replace("market: CN,", "market: CN, cloud_price_per_gpu_hour: 2.5,")
    assert _warning(recommend(parse_profile_text(quoted), lang="en")) is None
