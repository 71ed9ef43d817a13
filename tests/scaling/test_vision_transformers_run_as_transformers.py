"""Review 5: a vision transformer planned from its size ran at the image tasks' share of peak,
fitted on convolution networks (7 %): a ViT-L/16 on an L40S read 57 images/s, about 4 times
below what such a card trains it at. A catalog vision transformer runs at the language
models' shares (its matrix multiplies are theirs) on the FLOPs it does (twice the
multiply-adds its FLOPs are counted in: test_flops_counted_as_multiply_adds.py); a CNN keeps
its own."""

from __future__ import annotations

from advisor.catalog.profile_check import parse_profile_text
from advisor.profile import Task
from advisor.scaling import project
from advisor.scaling.inputs import efficiency_task

HEAD = """schema_version: 1
task: image_classification
model: {id: %s}
training: {dataset_samples: 1281167, epochs: 1, batch_per_gpu: 64, precision: bf16,
           input_pipeline: tuned}
hardware: {gpu: l40s, gpus_per_node: 1, intra_link: pcie4}
economics: {mode: cloud, currency: USD}
"""


def _profile(model_id: str):
    return parse_profile_text(HEAD % model_id)


def test_a_vision_transformer_runs_at_the_transformers_share():
    assert efficiency_task(_profile("vit-l-16")) == Task.nlp
    assert efficiency_task(_profile("resnet-50")) == Task.image_classification


def test_vit_large_on_an_rtx_3090_trains_near_timms_published_rate():
    """timm's ViT-L/16 on one RTX 3090 (AMP, batch 64): 117 images a second
    (benchmarks/data/timm_train_rtx3090.csv). At the image tasks' share it was planned about
    4 times too slow, at the language models' share with its multiply-adds taken for FLOPs
    34 % too fast; counted as the FLOPs it does, 32 % under, as the card's CNNs are (ResNets
    16-36 % under on the same card, benchmarks/vision_single_gpu.py)."""
    p = parse_profile_text((HEAD % "vit-l-16").replace("l40s", "rtx3090"))
    rate = project(p, [1]).samples_per_s_per_gpu[0]  # images a second
    assert 117.08 / 1.5 <= rate <= 117.08, rate
    assert project(_profile("resnet-50"), [1]).samples_per_s_per_gpu[0] > \
        project(_profile("vit-l-16"), [1]).samples_per_s_per_gpu[0]  # far smaller
