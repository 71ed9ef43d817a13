"""Models by name (issue 32, part 1): the catalog of models people train and fine-tune, each
validated with its source and date and self-consistent (its parameters agree with its shape);
a profile naming one by ``model: {id: ...}`` is filled from it, the profile's own fields
winning; an unknown id is an input error at its line with the closest ids."""

from __future__ import annotations

import datetime as dt

import pytest
from pydantic import ValidationError

from advisor.catalog.model_shapes import parameter_counts
from advisor.catalog.models import (
    ModelEntry,
    entry_profile_fields,
    find_model,
    load_models,
    model_ids,
    resolve_model,
)
from advisor.catalog.profile_check import catalog_problems, parse_profile_text
from advisor.files.errors import InputError
from advisor.profile import ModelSpec, Profile, Task
from advisor.scaling.layouts.shape import shape_of
from tests.support.profiles import problems

MODELS = load_models()
BY_ID = {m.id: m for m in MODELS}
TRAINING = "training: {dataset_tokens: 2.0e+9, fine_tuning: true, precision: bf16}\n"
HARDWARE = "hardware: {gpu: h100_sxm, gpus_per_node: 8, intra_link: nvswitch}\n"


def profile_text(model: str, task: str | None = None, training: str = TRAINING) -> str:
    return ("schema_version: 1\n" + (f"task: {task}\n" if task else "") + f"model: {model}\n"
            + training + HARDWARE)


# --- the catalog ---------------------------------------------------------------------------

def test_at_least_sixty_models_and_the_ones_people_train_today():
    assert len(MODELS) >= 60
    wanted = {
        "llama-3.2-1b", "llama-3.2-3b", "llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b",
        "llama-3.3-70b", "qwen2.5-0.5b", "qwen2.5-1.5b", "qwen2.5-3b", "qwen2.5-7b",
        "qwen2.5-14b", "qwen2.5-32b", "qwen2.5-72b", "qwen3-0.6b", "qwen3-1.7b", "qwen3-4b",
        "qwen3-8b", "qwen3-14b", "qwen3-32b", "qwen3-30b-a3b", "qwen3-235b-a22b",
        "deepseek-v3", "mistral-7b", "mixtral-8x7b", "mixtral-8x22b", "gemma-2-9b",
        "gemma-3-27b", "phi-3-mini", "phi-4", "gpt2", "gpt2-medium", "gpt2-large", "gpt2-xl",
        "bert-base", "bert-large", "roberta-base", "t5-base", "t5-large", "t5-3b", "t5-11b",
        "vit-b-16", "vit-l-16", "vit-h-14", "resnet-50", "resnet-101", "resnet-152",
        "yolov8n", "yolov8s", "yolov8m", "yolov8l", "yolov8x", "yolo11n", "whisper-small",
        "whisper-medium", "whisper-large-v3", "sd-1.5", "sdxl", "sd3-medium", "flux.1-dev"}
    assert wanted <= set(model_ids()), sorted(wanted - set(model_ids()))
    assert len(model_ids()) == len(set(model_ids()))


@pytest.mark.parametrize("entry", MODELS, ids=lambda m: m.id)
def test_every_model_has_its_source_and_date(entry: ModelEntry):
    sources = entry.source if isinstance(entry.source, list) else [entry.source]
    assert sources and all(s.strip() for s in sources)
    assert any("huggingface.co" in s or "pytorch.org" in s or "ultralytics.com" in s
               for s in sources), "the model card or config.json on the model's hub page"
    dt.date.fromisoformat(entry.as_of)
    assert entry.confidence and entry.confidence.split()[0] in ("high", "medium", "low")
    # what the advisor needs of the task: a transformer's shape, other models' FLOPs
    if entry.task in (Task.llm, Task.nlp):
        assert entry.layers and entry.hidden_size and entry.attention_heads and entry.vocab_size
        assert entry.context_length and entry.tied_embeddings is not None
    else:
        assert entry.flops_per_sample_gflops and entry.flops_input and entry.flops_basis


def test_mixtures_of_experts_carry_their_experts_and_active_parameters():
    moe = {m.id: m for m in MODELS if m.is_moe}
    assert {"qwen3-30b-a3b", "qwen3-235b-a22b", "deepseek-v3", "mixtral-8x7b",
            "mixtral-8x22b"} <= set(moe)
    v3 = moe["deepseek-v3"]
    assert (v3.params_millions, v3.active_params_millions) == (671000, 37000)
    assert (v3.experts, v3.experts_per_token, v3.shared_experts) == (256, 8, 1)
    for m in moe.values():
        assert m.experts_per_token < m.experts and m.active_params_millions < m.params_millions


# The shapes, counted: a wrong layer count, width or vocabulary moves the count by far more.
SHAPED = [m for m in MODELS if m.shape() is not None]


def test_every_transformer_is_counted():
    """No language model escapes the count (every llm and nlp entry has a shape)."""
    language = {m.id for m in MODELS if m.task in (Task.llm, Task.nlp)}
    assert language <= {m.id for m in SHAPED}


@pytest.mark.parametrize("entry", SHAPED, ids=lambda m: m.id)
def test_parameters_agree_with_the_shape(entry: ModelEntry):
    total, active = parameter_counts(entry.shape())
    assert total / 1e6 == pytest.approx(entry.params_millions, rel=0.02)
    if entry.is_moe:
        assert active / 1e6 == pytest.approx(entry.active_params_millions, rel=0.03)
    else:
        assert active == total


def test_the_count_knows_a_wrong_shape():
    """The check is not vacuous: Llama 3.1 8B with 28 layers, or an untied vocabulary taken
    as tied, is off by more than the tolerance."""
    entry = BY_ID["llama-3.1-8b"]
    for change in ({"layers": 28}, {"tied_embeddings": True}, {"kv_heads": 32}):
        wrong = entry.model_copy(update=change)
        total, _ = parameter_counts(wrong.shape())
        assert abs(total / 1e6 / entry.params_millions - 1) > 0.02, change


def test_vision_flops_count_as_the_projection_does():
    """3 x the forward multiply-adds, the units the projection's share of peak was fitted in:
    ResNet-50 at 224 px is the fit's 12.3 (benchmarks/compute_tables.py) and 480 FLOPs per
    parameter; ViT-B/16 3 x torchvision's 17.56 G."""
    from benchmarks.compute_tables import FLOPS_PER_PARAM, MODEL_TRAIN_GFLOPS

    resnet = BY_ID["resnet-50"]
    assert resnet.flops_per_sample_gflops == MODEL_TRAIN_GFLOPS["ResNet-50"] == 12.3
    assert resnet.flops_per_sample_gflops * 1e3 / resnet.params_millions == pytest.approx(
        FLOPS_PER_PARAM["image_classification"], rel=0.01)
    assert BY_ID["vit-b-16"].flops_per_sample_gflops == pytest.approx(3 * 17.56, abs=0.05)
    # Ultralytics counts 2 FLOPs per multiply-add: YOLOv8n's 8.7 GFLOPs are 4.35 G of them
    assert BY_ID["yolov8n"].flops_per_sample_gflops == pytest.approx(3 * 8.7 / 2)


def _entry(**change) -> dict:
    data = BY_ID["llama-3.1-8b"].model_dump(mode="json", exclude_none=True)
    data.update(change)
    return {k: v for k, v in data.items() if v is not None}


@pytest.mark.parametrize("change", [{"layrs": 32}, {"source": None}, {"as_of": None},
                                    {"source": " "}, {"kv_heads": 5}, {"layers": None},
                                    {"experts": 8}, {"id": "Llama 3.1"}])
def test_an_entry_is_refused_when_incomplete_or_misspelt(change):
    with pytest.raises(ValidationError):
        ModelEntry.model_validate(_entry(**change))


def test_a_vision_model_without_flops_is_refused():
    data = BY_ID["resnet-50"].model_dump(mode="json", exclude_none=True)
    del data["flops_per_sample_gflops"]
    with pytest.raises(ValidationError, match="flops_per_sample_gflops"):
        ModelEntry.model_validate(data)


# --- names ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name, expected", [
    ("llama-3.1-8b", "llama-3.1-8b"), ("Llama-3.1-8B", "llama-3.1-8b"),
    ("meta-llama/Llama-3.1-8B", "llama-3.1-8b"), ("llama 3.1 8b", "llama-3.1-8b"),
    ("Qwen/Qwen2.5-7B-Instruct", "qwen2.5-7b"), ("google/gemma-3-4b-it", "gemma-3-4b"),
    ("Mixtral-8x7B-Instruct-v0.1", "mixtral-8x7b"), ("ResNet50", "resnet-50"),
    ("GPT-2", "gpt2"), ("deepseek-ai/DeepSeek-V3", "deepseek-v3"), ("ViT-B/16", "vit-b-16")])
def test_a_model_is_found_by_the_names_people_write(name, expected):
    assert find_model(name).id == expected


def test_every_id_and_alias_names_its_own_entry():
    for m in MODELS:
        for name in (m.id, *m.aliases, *([m.hub] if m.hub else [])):
            assert find_model(name).id == m.id, name


# --- a profile naming a model --------------------------------------------------------------

def test_an_id_only_profile_is_filled_from_the_catalog():
    profile = parse_profile_text(profile_text("{id: llama-3.1-8b}"))
    m = profile.model
    assert profile.task == Task.llm  # from the entry: the profile names no task
    assert (m.id, m.name, m.params_millions, m.layers, m.hidden_size, m.attention_heads,
            m.kv_heads, m.vocab_size) == ("llama-3.1-8b", "Llama 3.1 8B", 8030.3, 32, 4096, 32,
                                          8, 128256)
    assert m.sequence_length is None  # the context (131,072) is not the training length
    shape = shape_of(profile)
    assert (shape.layers, shape.hidden, shape.heads, shape.vocab, shape.kv_heads) == \
        (32, 4096, 32, 128256, 8)
    assert shape.params == pytest.approx(8030.3e6)


def test_every_field_the_profile_has_comes_from_the_entry():
    for entry in MODELS:
        fields = entry_profile_fields(entry)
        assert set(fields) <= set(ModelSpec.model_fields)
        assert fields["params_millions"] == entry.params_millions
        ModelSpec.model_validate(fields)  # every entry makes a valid model section


@pytest.mark.parametrize("entry", MODELS, ids=lambda m: m.id)
def test_every_model_can_be_named_in_a_profile(entry: ModelEntry):
    training = TRAINING if entry.task in (Task.llm, Task.nlp) else \
        "training: {dataset_samples: 100000, epochs: 2, batch_per_gpu: 1}\n"
    profile = parse_profile_text(profile_text(f"{{id: {entry.id}}}", training=training))
    assert profile.task == entry.task and profile.model.params_millions == entry.params_millions
    assert profile.model.flops_per_sample_gflops == entry.flops_per_sample_gflops


def test_the_profiles_own_fields_win():
    profile = parse_profile_text(profile_text(
        "{id: Meta-Llama-3.1-8B, name: my SFT run, params_millions: 8000, sequence_length: 4096,"
        " vocab_size: 130000}", task="nlp"))
    m = profile.model
    assert m.id == "llama-3.1-8b"  # written as the catalog spells it
    assert (m.name, m.params_millions, m.sequence_length, m.vocab_size) == \
        ("my SFT run", 8000, 4096, 130000)
    assert (m.layers, m.hidden_size, m.kv_heads) == (32, 4096, 8)  # the rest from the entry
    assert profile.task == Task.nlp  # a task the profile names wins too


def test_a_field_cleared_in_the_profile_stays_cleared():
    profile = parse_profile_text(profile_text("{id: llama-3.1-8b, layers: null}"))
    assert profile.model.layers is None and profile.model.hidden_size == 4096


def test_an_override_that_breaks_the_shape_is_named():
    found = problems(profile_text("{id: llama-3.1-8b, hidden_size: 4100}"))
    assert any("attention_heads must divide hidden_size" in p.message_en for p in found)


def test_an_unknown_id_names_its_line_and_the_closest_ids():
    text = profile_text("\n  id: llama-3.1-9b")
    with pytest.raises(InputError) as err:
        parse_profile_text(text, source="p.yaml")
    (problem,) = err.value.problems
    assert problem.path == "model.id" and problem.line == 3
    assert "unknown model 'llama-3.1-9b'" in problem.message_en
    assert "did you mean llama-3.1-8b" in problem.message_en
    assert "未知模型" in problem.message_zh and "llama-3.1-8b" in problem.message_zh
    assert err.value.render("en").startswith("p.yaml:3: model.id: unknown model")


def test_an_id_of_the_wrong_type_is_a_field_problem():
    found = problems(profile_text("{id: 42}"))
    assert any(p.path == "model.id" for p in found)


def test_a_json_profile_names_a_model_too():
    text = ('{"schema_version": 1, "model": {"id": "qwen2.5-7b"}, "training": {"dataset_tokens":'
            ' 1e9, "fine_tuning": true, "precision": "bf16"}, "hardware": {"gpu": "h100_sxm",'
            ' "gpus_per_node": 8, "intra_link": "nvswitch"}}')
    profile = parse_profile_text(text, fmt="json")
    assert profile.model.kv_heads == 4 and profile.model.params_millions == 7615.6


def test_tensor_parallel_divides_the_key_value_heads():
    """Megatron-LM splits the query groups: Qwen2.5-7B's 4 key/value heads allow tensor
    parallel 1, 2 and 4 (its 28 query heads would allow 7 and 14)."""
    profile = parse_profile_text(profile_text("{id: qwen2.5-7b}"))
    assert shape_of(profile).tensor_degrees(8) == [1, 2, 4]
    found = problems(profile_text("{id: qwen2.5-7b}", training=TRAINING.replace(
        "precision: bf16", "precision: bf16, tensor_parallel: 7")))
    assert any(p.path == "training.tensor_parallel" and p.line is not None
               and "7 must divide model.kv_heads (4)" in p.message_en
               and "model.kv_heads（4）" in p.message_zh for p in found)


def test_the_wizard_is_told_of_an_unknown_id():
    """Answers the wizard validates without the reader's step are still checked."""
    profile = Profile.model_validate({"model": {"id": "gpt-5"}, "training": {
        "single_gpu_hours": 10}})
    (problem,) = catalog_problems(profile)
    assert problem.path == "model.id" and "unknown model" in problem.message_en
    ok = Profile.model_validate({"model": {"id": "gpt2"}, "training": {"single_gpu_hours": 1}})
    assert catalog_problems(ok) == []


def test_resolve_names_the_field_it_was_asked_for():
    with pytest.raises(InputError) as err:
        resolve_model("nothing-like-it", path="alternatives[0].model.id")
    assert err.value.problems[0].path == "alternatives[0].model.id"
