"""Models by name: the models people train and fine-tune, from
``resources/catalog/models.yaml``, each with its size and shape (from its ``config.json`` or
model card), its ``source`` and ``as_of`` date.

A profile names one with ``model: {id: llama-3.1-8b}``. Before the profile is validated, the
catalog's reader step (``expand_model_id``, passed to ``advisor.profile.reading`` as
``expand``: the profile never imports the catalog) fills the model section from the entry:
every field the profile's ``ModelSpec`` has and the entry gives (parameters, layers, hidden
size, heads, key/value heads, vocabulary, sequence length, FLOPs per sample …); a field the
profile gives wins; the task comes from the entry when the profile names none. An unknown id
is an input error at its line with the closest ids. Fields the profile does not have yet
(mixture-of-experts counts, context length, tied embeddings) stay in the entry, read by name
(``entry_profile_fields``), so a profile field of the same name is filled once it exists.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import ConfigDict, Field, field_validator, model_validator

from advisor.catalog.entries import Sourced
from advisor.catalog.model_shapes import FAMILY_FLAGS, LEARNED_POSITIONS, Mla, Shape
from advisor.files.builtin_data import compiled, read_builtin
from advisor.files.errors import InputError
from advisor.files.model_defaults import empty_list
from advisor.files.number_fields import NoYaml11Numbers
from advisor.files.paths import resources_dir
from advisor.profile import Denoiser, ModelSpec, Task
from advisor.text.safe import shown

# Tasks whose models are transformers planned from their shape (their FLOPs follow from the
# parameters and the sequence): the shape is required; every other task states its FLOPs.
LANGUAGE_TASKS = (Task.llm, Task.nlp)
CATALOG_LAYERS = ("text", "files", "profile", "catalog")


class MlaSpec(NoYaml11Numbers):
    """DeepSeek's multi-head latent attention (config.json's low-rank sizes)."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    q_lora_rank: int = Field(ge=0, le=1_000_000)
    kv_lora_rank: int = Field(ge=1, le=1_000_000)
    qk_rope_head_dim: int = Field(ge=1, le=100_000)
    qk_nope_head_dim: int = Field(ge=1, le=100_000)
    v_head_dim: int = Field(ge=1, le=100_000)


class ModelEntry(Sourced):
    """One model of the catalog. Sizes in millions of parameters like the profile's
    ``params_millions``; shape fields named as the profile names them (``layers``,
    ``hidden_size``, ``attention_heads``, ``kv_heads``, ``vocab_size``), the rest as
    config.json does (``intermediate_size``, ``head_dim``, ``moe_intermediate_size``)."""

    as_of: str = Field(min_length=4, max_length=40)  # required: when the numbers were read
    name: str = Field(min_length=1, max_length=120)
    aliases: list[str] = Field(default_factory=empty_list)
    hub: str | None = Field(default=None, max_length=200)  # the Hugging Face repository
    family: str = Field(min_length=1, max_length=40)
    architecture: str = Field(min_length=1, max_length=40)  # config.json's model_type
    task: Task
    params_millions: float = Field(gt=0, le=10_000_000)
    active_params_millions: float | None = Field(default=None, gt=0, le=10_000_000)
    layers: int | None = Field(default=None, ge=1, le=2000)  # encoder + decoder layers
    decoder_layers: int | None = Field(default=None, ge=1, le=2000)  # of them, the decoder's
    hidden_size: int | None = Field(default=None, ge=16, le=1_000_000)
    attention_heads: int | None = Field(default=None, ge=1, le=4096)
    kv_heads: int | None = Field(default=None, ge=1, le=4096)
    head_dim: int | None = Field(default=None, ge=1, le=100_000)
    intermediate_size: int | None = Field(default=None, ge=1, le=10_000_000)
    vocab_size: int | None = Field(default=None, ge=2, le=10_000_000)
    tied_embeddings: bool | None = None
    context_length: int | None = Field(default=None, ge=1, le=100_000_000)
    sequence_length: int | None = Field(default=None, ge=1, le=10_000_000)
    experts: int | None = Field(default=None, ge=2, le=100_000)
    experts_per_token: int | None = Field(default=None, ge=1, le=100_000)
    shared_experts: int | None = Field(default=None, ge=0, le=100_000)
    moe_intermediate_size: int | None = Field(default=None, ge=1, le=10_000_000)
    dense_layers: int | None = Field(default=None, ge=0, le=2000)
    mla: MlaSpec | None = None
    vision_params_millions: float | None = Field(default=None, gt=0, le=1_000_000)
    frozen_params_millions: float | None = Field(default=None, gt=0, le=1_000_000)
    # a diffusion model (task diffusion): its denoiser, the resolution its FLOPs are counted
    # at, the VAE's downsampling, and its frozen text encoders and VAE (which together make
    # frozen_params_millions)
    denoiser: Denoiser | None = None
    flops_resolution: int | None = Field(default=None, ge=8, le=65_536)
    latent_downsampling: int | None = Field(default=None, ge=1, le=64)
    text_encoder_params_millions: float | None = Field(default=None, ge=0, le=1_000_000)
    vae_params_millions: float | None = Field(default=None, ge=0, le=100_000)
    flops_per_sample_gflops: float | None = Field(default=None, gt=0, le=1e9)
    flops_input: str | None = Field(default=None, min_length=1, max_length=200)
    flops_input_zh: str | None = Field(default=None, min_length=1, max_length=200)
    flops_basis: str | None = Field(default=None, min_length=1, max_length=600)

    @field_validator("id")
    @classmethod
    def _plain_id(cls, value: str) -> str:
        if not re.fullmatch(r"[a-z0-9][a-z0-9.\-]*", value):
            raise ValueError("id: lower-case letters, digits, '.' and '-' only")
        return value

    @model_validator(mode="after")
    def _whole(self) -> ModelEntry:
        if self.task in LANGUAGE_TASKS:
            missing = [f for f in ("layers", "hidden_size", "attention_heads", "vocab_size")
                       if getattr(self, f) is None]
            if missing:
                raise ValueError(f"a {self.task.value} model needs {', '.join(missing)}")
        elif self.flops_per_sample_gflops is None:
            raise ValueError(f"a {self.task.value} model needs flops_per_sample_gflops")
        if self.flops_per_sample_gflops is not None and not (
                self.flops_input and self.flops_input_zh and self.flops_basis):
            raise ValueError("flops_per_sample_gflops needs flops_input (and flops_input_zh) "
                             "and flops_basis")
        if self.attention_heads and self.hidden_size and self.hidden_size % self.attention_heads:
            raise ValueError("attention_heads must divide hidden_size")
        if self.kv_heads and self.attention_heads and self.attention_heads % self.kv_heads:
            raise ValueError("kv_heads must divide attention_heads")
        if self.decoder_layers and (self.layers or 0) <= self.decoder_layers:
            raise ValueError("layers counts the encoder's and the decoder's layers")
        if self.task == Task.diffusion and not (self.denoiser and self.flops_resolution):
            raise ValueError("a diffusion model needs denoiser and flops_resolution")
        parts = (self.text_encoder_params_millions, self.vae_params_millions)
        if self.frozen_params_millions is not None and all(v is not None for v in parts) \
                and abs(sum(parts) - self.frozen_params_millions) > 0.01 * \
                self.frozen_params_millions:  # type: ignore[arg-type]
            raise ValueError("text_encoder_params_millions + vae_params_millions must make "
                             "frozen_params_millions")
        moe = (self.experts, self.experts_per_token, self.active_params_millions)
        if any(v is not None for v in moe) and any(v is None for v in moe):
            raise ValueError("a mixture of experts needs experts, experts_per_token and "
                             "active_params_millions")
        if self.experts is not None:
            if self.experts_per_token > self.experts:  # type: ignore[operator]
                raise ValueError("experts_per_token must not exceed experts")
            if self.active_params_millions > self.params_millions:  # type: ignore[operator]
                raise ValueError("active_params_millions must not exceed params_millions")
        return self

    @property
    def is_moe(self) -> bool:
        return self.experts is not None

    def shape(self) -> Shape | None:
        """The transformer as ``model_shapes`` counts it (None: no count for this
        architecture, e.g. a CNN or a diffusion UNet)."""
        flags = FAMILY_FLAGS.get(self.architecture)
        if flags is None or not (self.layers and self.hidden_size and self.attention_heads
                                 and self.intermediate_size):
            return None
        mla = None if self.mla is None else Mla(**self.mla.model_dump())
        return Shape(
            layers=self.layers - (self.decoder_layers or 0), hidden=self.hidden_size,
            heads=self.attention_heads, vocab=self.vocab_size or 0,
            intermediate=self.intermediate_size, kv_heads=self.kv_heads,
            head_dim=self.head_dim,
            tied=True if self.tied_embeddings is None else self.tied_embeddings,
            positions=(self.context_length or 0) if self.architecture in LEARNED_POSITIONS
            else 0,
            decoder_layers=self.decoder_layers or 0, experts=self.experts or 0,
            experts_per_token=self.experts_per_token or 0,
            shared_experts=self.shared_experts or 0,
            moe_intermediate=self.moe_intermediate_size, dense_layers=self.dense_layers or 0,
            mla=mla, extra=(self.vision_params_millions or 0.0) * 1e6,
            **flags)  # type: ignore[arg-type]


# Entry fields never copied into a profile (the catalog's own bookkeeping).
_NOT_PROFILE = frozenset({"id", "source", "as_of", "confidence", "note", "aliases", "hub",
                          "family", "architecture", "task", "flops_input", "flops_input_zh",
                          "flops_basis"})


def entry_profile_fields(entry: ModelEntry) -> dict[str, Any]:
    """What the entry says of every field the profile's model section has (by name): the
    values a profile naming ``entry.id`` starts from."""
    fields = ModelSpec.model_fields
    return {name: value for name, value in entry.model_dump(mode="json").items()
            if name in fields and name not in _NOT_PROFILE and value is not None}


def spelling(name: str) -> str:
    """A model name as people type it, reduced to letters and digits: 'Llama-3.1-8B',
    'llama 3.1 8b' and 'meta-llama/Llama-3.1-8B' (its last part) all read 'llama318b'."""
    return re.sub(r"[^a-z0-9]", "", name.lower().rsplit("/", 1)[-1])


def _names(entry: ModelEntry) -> list[str]:
    return [entry.id, *entry.aliases, *([entry.hub] if entry.hub else [])]


def _table(entries: list[ModelEntry]) -> dict[str, ModelEntry]:
    """Every entry by id, alias and Hugging Face repository (lower case), then by spelling;
    a spelling two entries share names neither."""
    table: dict[str, ModelEntry] = {}
    for entry in entries:
        for name in _names(entry):
            key = name.lower()
            if key in table and table[key].id != entry.id:
                raise ValueError(f"models.yaml: {name!r} names {table[key].id} and {entry.id}")
            table[key] = entry
    spelled: dict[str, set[str]] = {}
    by_id = {e.id: e for e in entries}
    for entry in entries:
        for name in _names(entry):
            spelled.setdefault(spelling(name), set()).add(entry.id)
    for key, owners in spelled.items():
        if len(owners) == 1 and key:
            table.setdefault(key, by_id[next(iter(owners))])
    return table


def _build() -> tuple[tuple[ModelEntry, ...], dict[str, ModelEntry]]:
    raw = read_builtin(models_path())
    entries = [ModelEntry.model_validate(item) for item in raw["models"]]
    ids = [e.id for e in entries]
    duplicates = sorted({i for i in ids if ids.count(i) > 1})
    if duplicates:
        raise ValueError(f"models.yaml: ids given twice: {', '.join(duplicates)}")
    return tuple(entries), _table(entries)


def models_path() -> Path:
    return resources_dir() / "catalog" / "models.yaml"


@cache
def _loaded() -> tuple[tuple[ModelEntry, ...], dict[str, ModelEntry]]:
    """The catalog's models, validated once and kept compiled in the user's cache folder
    until models.yaml or the catalog's code changes."""
    return compiled("models", [models_path()], _build, CATALOG_LAYERS)


def load_models() -> tuple[ModelEntry, ...]:
    """Every model of the catalog, in catalog order."""
    return _loaded()[0]


def model_ids() -> list[str]:
    return [entry.id for entry in load_models()]


# A released variant's suffix: its shape is the base model's ('Qwen2.5-7B-Instruct',
# 'gemma-3-4b-it', 'Llama-2-7b-chat-hf', 'Mixtral-8x7B-Instruct-v0.1').
_VARIANT = re.compile(r"[-_ ](instruct|it|chat|base|hf|pt)([-_ ]?v?\d+(\.\d+)*)?$",
                      re.IGNORECASE)


def find_model(name: str) -> ModelEntry | None:
    """The entry ``name`` means (its id, an alias, its Hugging Face repository, or any of
    them spelt with other punctuation or case; a released variant's name, '-Instruct', '-it',
    '-chat', read as its base model's), else None."""
    table = _loaded()[1]
    name = name.strip()[:300]
    for _ in range(3):
        found = table.get(name.lower()) or table.get(spelling(name))
        if found is not None:
            return found
        shorter = _VARIANT.sub("", name)
        if shorter == name or not shorter:
            return None
        name = shorter
    return None


def closest_ids(name: str, n: int = 3) -> list[str]:
    """The ids most like ``name`` (difflib on the names as written, lower case, and on their
    last part: 'Qwen/Qwen2.5-7b' reads 'qwen2.5-7b'), best first."""
    import difflib  # a misspelt name only

    keys: dict[str, str] = {}
    for entry in load_models():
        for alias in _names(entry):
            keys.setdefault(alias.lower().rsplit("/", 1)[-1], entry.id)
    typed = name.strip().lower().rsplit("/", 1)[-1][:200]
    found = difflib.get_close_matches(typed, list(keys), n=n * 3, cutoff=0.6)
    out: list[str] = []
    for key in found:
        if keys[key] not in out:
            out.append(keys[key])
    return out[:n]


def unknown_model(name: str, path: str = "model.id") -> InputError:
    close = closest_ids(name)
    hint_en = f"did you mean {', '.join(close)}? " if close else ""
    hint_zh = f"是不是 {'、'.join(close)}？" if close else ""
    return InputError.single(
        f"unknown model {shown(name)}; {hint_en}`gpu-advisor catalog --section models` lists "
        f"the {len(load_models())} models known, or give the model's size and shape instead "
        "of an id",
        f"未知模型 {shown(name)}；{hint_zh}`gpu-advisor catalog --section models` 列出已知的 "
        f"{len(load_models())} 个模型，也可以不写 id，直接填写模型的规模和结构", path=path)


def resolve_model(name: str, path: str = "model.id") -> ModelEntry:
    """The entry ``name`` means, or an InputError at ``path`` naming the closest ids."""
    entry = find_model(name)
    if entry is None:
        raise unknown_model(name, path)
    return entry


def expand_model_id(data: Any) -> Any:
    """The profile's data with its model section filled from the catalog entry its ``id``
    names (the profile's own fields kept, the id written as the catalog spells it) and its
    task taken from the entry when the profile names none; the data unchanged when no id is
    given. An unknown id is an InputError at ``model.id``."""
    if not isinstance(data, dict):
        return data
    model = data.get("model")
    if not isinstance(model, dict) or not isinstance(model.get("id"), str):
        return data  # no id, or one of the wrong type (the profile's validation names it)
    if not model["id"].strip():
        return data
    entry = resolve_model(model["id"])
    out = {**data, "model": {**entry_profile_fields(entry), **model, "id": entry.id}}
    if "task" not in data:
        out["task"] = entry.task.value
    return out
