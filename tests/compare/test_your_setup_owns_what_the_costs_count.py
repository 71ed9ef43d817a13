"""Found by decision_policy's random profiles (drawn first since 2026-12-08): a profile that
weighs owning against renting (economics.mode compare) with no owned count and no card price
anywhere: recommend, the cards unpriced, rented ($0.77 a run); compare turned "your setup" into
own hardware whose cards were all owned, sunk at the electricity alone ($0.04 a run), and its
point beat the answer. Your setup owns what the profile's costs count as owned."""

from __future__ import annotations

from advisor.catalog import load_catalog
from advisor.catalog.profile_check import parse_profile_text
from advisor.compare.compare import compare
from advisor.compare.weighed import recommend
from advisor.costs.inputs import resolve_inputs

PROFILE = """schema_version: 1
task: image_classification
model: {name: ResNet-50, params_millions: 25.6}
training: {single_gpu_hours: 2, batch_per_gpu: 256, precision: amp, input_pipeline: tuned,
           runs_per_month: 20}
hardware: {gpu: a800_pcie_80gb, gpus_per_node: 4, intra_link: pcie4}
economics: {mode: compare, market: US, currency: USD, time_value: none%s}
"""


def test_no_owned_count_and_no_card_price_is_no_price_for_owning():
    profile = parse_profile_text(PROFILE % "")
    assert resolve_inputs(profile, load_catalog()).gpu_price is None  # the case holds
    yours = compare(profile, verdicts=False).option("yours")
    assert yours.deployment == "own" and not any(p.priced for p in yours.points)
    assert recommend(profile, lang="en").verdict.deployment == "cloud"


def test_cards_said_owned_are_sunk():
    profile = parse_profile_text(PROFILE % ", owned_gpus: 4")
    yours = compare(profile, verdicts=False).option("yours")
    assert all(p.priced for p in yours.points if p.fits)
