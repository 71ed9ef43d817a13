"""Review 5: a vision transformer planned from its size ran at the image tasks' share of peak,
fitted on convolution networks (7 %): a ViT-L/16 on an L40S read 57 images/s, about 4 times
below what such a card trains it at. A catalog vision transformer runs at the language
models' shares (its matrix multiplies are theirs); a CNN keeps its own."""

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


def test_vit_large_on_an_l40s_trains_hundreds_of_images_a_second():
    rate = project(_profile("vit-l-16"), [1]).samples_per_s_per_gpu[0]  # images a second
    assert 200 <= rate <= 450, rate
    assert project(_profile("resnet-50"), [1]).samples_per_s_per_gpu[0] > rate  # far smaller
