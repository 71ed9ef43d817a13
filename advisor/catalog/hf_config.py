"""A Hugging Face ``config.json`` read into a profile's model section (``gpu-advisor
import-model``), offline: the file only, never the network.

The keys each family writes are read under their own names (``num_hidden_layers`` / ``n_layer``
/ ``num_layers``, ``hidden_size`` / ``n_embd`` / ``d_model``, ``num_attention_heads`` /
``n_head`` / ``num_heads``, ``num_key_value_heads``, ``vocab_size``, ``tie_word_embeddings``,
``max_position_embeddings`` / ``n_positions``, ``intermediate_size`` / ``n_inner`` / ``d_ff``,
``num_local_experts`` / ``n_routed_experts`` / ``num_experts``, ``num_experts_per_tok``,
``moe_intermediate_size`` …); a multimodal config's ``text_config`` is the language model and
its ``vision_config`` adds the vision tower's parameters. The parameters are counted from the
shapes (``model_shapes``). A key that is missing or not a positive whole number is an input
error naming the file and the key, in both languages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from advisor.catalog.model_shapes import (
    FAMILY_FLAGS,
    FAMILY_TASK,
    LEARNED_POSITIONS,
    Mla,
    Shape,
    parameter_counts,
)
from advisor.files.errors import InputError, Problem
from advisor.files.json_text import load_json_text
from advisor.files.reading import STDIN, read_text_file
from advisor.text.safe import escape, shorten, shown

# A config.json is a few kB; one with an ImageNet-21k label map (vit-huge-patch14-224-in21k)
# is under 1 MB. More than this is no config.
MAX_CONFIG_BYTES = 4_000_000
# A context this short is the length the model trains at (GPT-2, BERT, T5): it becomes the
# profile's sequence length; a longer one is only the most the model can take.
TRAINS_AT_WHOLE_CONTEXT = 2048

_DECODERS = frozenset(name for name, task in FAMILY_TASK.items() if task == "llm"
                      and name not in ("gpt2", "phi"))
_ENCODERS = frozenset({"bert", "roberta", "xlm-roberta", "modernbert"})
_T5 = frozenset({"t5", "mt5", "umt5"})


@dataclass
class ImportedModel:
    """What a config.json says, as a profile's task and model section."""

    model_type: str
    task: str
    name: str
    params: float
    active_params: float
    fields: dict[str, Any]  # the profile's model section
    facts: dict[str, Any] = field(default_factory=dict)  # what the profile has no field for
    notes: list[tuple[str, str]] = field(default_factory=list)  # (en, zh)


class _Config:
    """A config's keys, read with the file's name in every error."""

    def __init__(self, data: dict[str, Any], source: str, prefix: str = "") -> None:
        self.data, self.source, self.prefix = data, source, prefix

    def has(self, *keys: str) -> bool:
        return any(self.data.get(k) is not None for k in keys)

    def raw(self, *keys: str) -> Any:
        for key in keys:
            if self.data.get(key) is not None:
                return self.data[key]
        return None

    def _error(self, key: str, en: str, zh: str) -> InputError:
        return InputError([Problem(self.prefix + key, en, zh)], self.source)

    def int(self, *keys: str, default: int | None = None, minimum: int = 1) -> int:
        value = self.raw(*keys)
        if value is None:
            if default is not None:
                return default
            others = f" (or {', '.join(keys[1:])})" if len(keys) > 1 else ""
            others_zh = f"（或 {'、'.join(keys[1:])}）" if len(keys) > 1 else ""
            raise self._error(keys[0], f"missing{others}: this config.json does not give it, "
                                       "and the model's size is counted from it",
                              f"缺失{others_zh}：此 config.json 没有给出该项，而模型规模要据此计算")
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum \
                or value > 10**9:
            key = next(k for k in keys if self.data.get(k) is not None)
            got = _json_text(value)
            raise self._error(key, f"must be a whole number from {minimum} to 1,000,000,000, "
                                   f"got {got}",
                              f"必须是 {minimum} 到 1,000,000,000 之间的整数，实际为 {got}")
        return value

    def opt(self, *keys: str, minimum: int = 1) -> int | None:
        return self.int(*keys, minimum=minimum) if self.has(*keys) else None

    def flag(self, key: str, default: bool) -> bool:
        value = self.data.get(key)
        if value is None:
            return default
        if not isinstance(value, bool):
            got = _json_text(value)
            raise self._error(key, f"must be true or false, got {got}",
                              f"必须是 true 或 false，实际为 {got}")
        return value


def _json_text(value: Any) -> str:
    """A config's value as JSON writes it (true, null, "text"), shortened and made safe."""
    import json

    try:
        return escape(shorten(json.dumps(value, ensure_ascii=False), 60))
    except (TypeError, ValueError):
        return shown(value, 60)


def read_config(path: str | Path) -> dict[str, Any]:
    """The mapping a config.json holds, read through the file guard (capped, a regular file
    or standard input) and the strict JSON reader."""
    source = "<stdin>" if str(path) == STDIN else str(path)
    text = read_text_file(path, max_bytes=MAX_CONFIG_BYTES)
    if not text.strip():
        raise InputError.single("file is empty", "文件为空", source=source)
    data = load_json_text(text, source=source)
    if not isinstance(data, dict):
        en, zh = _JSON_KINDS.get(type(data), ("a value", "一个值"))
        raise InputError.single(
            f"expected a JSON object of a model's settings (config.json), got {en}",
            f"应为模型设置的 JSON 对象（config.json），实际为{zh}", source=source)
    return data


# what a JSON document other than an object is, in words (never Python's type names)
_JSON_KINDS = {list: ("a list", "列表"), str: ("text", "文本"), bool: ("true or false", "布尔值"),
               int: ("a number", "数字"), float: ("a number", "数字"),
               type(None): ("null", "null")}


def _model_type(cfg: _Config) -> str:
    given = cfg.raw("model_type")
    if given is not None and not isinstance(given, str):
        raise cfg._error("model_type", f"must be text, got {shown(given)}",
                         f"必须是文本，实际为 {shown(given)}")
    if given:
        return given.strip().lower()
    if cfg.has("n_layer", "n_embd"):
        return "gpt2"
    if cfg.has("d_model") and cfg.has("num_layers"):
        return "t5"
    if cfg.has("encoder_layers") and cfg.has("d_model"):
        return "whisper"
    if cfg.has("num_hidden_layers"):
        return "llama"
    raise cfg._error("model_type", "missing, and the keys do not say which kind of model "
                                   "this is (no num_hidden_layers, n_layer or d_model)",
                     "缺失，且其他字段也看不出是哪类模型（没有 num_hidden_layers、n_layer 或 d_model）")


def _decoder(cfg: _Config, model_type: str) -> Shape:
    layers = cfg.int("num_hidden_layers", "n_layer", "num_layers")
    hidden = cfg.int("hidden_size", "n_embd", "d_model")
    heads = cfg.int("num_attention_heads", "n_head", "num_heads")
    mla = None
    if cfg.has("kv_lora_rank"):
        mla = Mla(q_lora_rank=cfg.int("q_lora_rank", default=0, minimum=0),
                  kv_lora_rank=cfg.int("kv_lora_rank"),
                  qk_rope_head_dim=cfg.int("qk_rope_head_dim"),
                  qk_nope_head_dim=cfg.int("qk_nope_head_dim"),
                  v_head_dim=cfg.int("v_head_dim"))
    experts = cfg.opt("num_local_experts", "n_routed_experts", "num_experts") or 0
    moe_width = cfg.opt("moe_intermediate_size")
    intermediate = cfg.int("intermediate_size", "ffn_hidden_size") if not (
        experts and moe_width and not cfg.has("intermediate_size")) else moe_width
    dense_layers = cfg.opt("first_k_dense_replace", minimum=0) or 0
    only_dense = cfg.raw("mlp_only_layers")
    if isinstance(only_dense, list):
        dense_layers = max(dense_layers, len(only_dense))
    shared = cfg.opt("n_shared_experts", minimum=0) or 0
    shared_width = cfg.opt("shared_expert_intermediate_size")
    if shared_width and not shared:
        shared = 1
    flags = dict(FAMILY_FLAGS.get(model_type, {}))
    if cfg.flag("attention_bias", False):
        flags["qkv_bias"] = True
    return Shape(
        layers=layers, hidden=hidden, heads=heads, vocab=cfg.int("vocab_size"),
        intermediate=intermediate, kv_heads=cfg.opt("num_key_value_heads"),
        head_dim=cfg.opt("head_dim"),
        tied=cfg.flag("tie_word_embeddings", model_type.startswith("gemma")),
        experts=experts, experts_per_token=cfg.int("num_experts_per_tok") if experts else 0,
        moe_intermediate=moe_width, shared_experts=shared, shared_intermediate=shared_width,
        dense_layers=dense_layers, mla=mla, **flags)  # type: ignore[arg-type]


def _gpt2(cfg: _Config) -> Shape:
    hidden = cfg.int("n_embd", "hidden_size")
    return Shape(layers=cfg.int("n_layer", "num_hidden_layers"), hidden=hidden,
                 heads=cfg.int("n_head", "num_attention_heads"), vocab=cfg.int("vocab_size"),
                 intermediate=cfg.opt("n_inner") or 4 * hidden,
                 tied=cfg.flag("tie_word_embeddings", True),
                 positions=cfg.int("n_positions", "n_ctx", "max_position_embeddings"),
                 **FAMILY_FLAGS["gpt2"])  # type: ignore[arg-type]


def _encoder(cfg: _Config, model_type: str) -> Shape:
    flags = dict(FAMILY_FLAGS.get(model_type, FAMILY_FLAGS["bert"]))
    if model_type in LEARNED_POSITIONS:
        flags["positions"] = cfg.int("max_position_embeddings")
        flags["token_types"] = cfg.opt("type_vocab_size", minimum=0) or 0
    return Shape(layers=cfg.int("num_hidden_layers"), hidden=cfg.int("hidden_size"),
                 heads=cfg.int("num_attention_heads"), vocab=cfg.int("vocab_size"),
                 intermediate=cfg.int("intermediate_size"),
                 tied=cfg.flag("tie_word_embeddings", True), **flags)  # type: ignore[arg-type]


def _t5(cfg: _Config) -> Shape:
    layers = cfg.int("num_layers")
    proj = cfg.raw("feed_forward_proj")
    gated = isinstance(proj, str) and proj.startswith("gated")
    return Shape(layers=layers, decoder_layers=cfg.int("num_decoder_layers", default=layers),
                 hidden=cfg.int("d_model"), heads=cfg.int("num_heads"),
                 head_dim=cfg.int("d_kv"), vocab=cfg.int("vocab_size"),
                 intermediate=cfg.int("d_ff"), tied=cfg.flag("tie_word_embeddings", True),
                 gated=gated)


def _whisper(cfg: _Config) -> Shape:
    hidden = cfg.int("d_model")
    mels = cfg.int("num_mel_bins", default=80)
    stem = mels * hidden * 3 + hidden + hidden * hidden * 3 + hidden
    positions = (cfg.int("max_source_positions", default=1500)
                 + cfg.int("max_target_positions", default=448)) * hidden
    return Shape(layers=cfg.int("encoder_layers"), decoder_layers=cfg.int("decoder_layers"),
                 hidden=hidden, heads=cfg.int("encoder_attention_heads"),
                 vocab=cfg.int("vocab_size"), intermediate=cfg.int("encoder_ffn_dim"),
                 tied=True, extra=float(stem + positions),
                 **FAMILY_FLAGS["whisper"])  # type: ignore[arg-type]


def _vit_extra(cfg: _Config, hidden: int) -> float:
    """A ViT's patch embedding, class token and position table."""
    patch, image = cfg.int("patch_size", default=16), cfg.int("image_size", default=224)
    channels = cfg.int("num_channels", default=3)
    tokens = (image // patch) ** 2 + 1
    return float(channels * patch * patch * hidden + hidden + hidden + tokens * hidden)


def _vit(cfg: _Config) -> Shape:
    hidden = cfg.int("hidden_size")
    return Shape(layers=cfg.int("num_hidden_layers"), hidden=hidden,
                 heads=cfg.int("num_attention_heads"), vocab=0,
                 intermediate=cfg.int("intermediate_size"), extra=_vit_extra(cfg, hidden),
                 **FAMILY_FLAGS["vit"])  # type: ignore[arg-type]


def _vision_tower(cfg: _Config) -> float:
    """The parameters of a multimodal model's vision encoder (a ViT / SigLIP tower)."""
    layers, hidden = cfg.int("num_hidden_layers"), cfg.int("hidden_size")
    width = cfg.int("intermediate_size")
    per_layer = 4 * hidden * hidden + 4 * hidden + 2 * hidden * width + width + hidden \
        + 4 * hidden
    return float(layers * per_layer + _vit_extra(cfg, hidden))


def _vit_gflops(shape: Shape, cfg: _Config) -> tuple[float, int]:
    """Training GFLOPs of one image (3 x the forward multiply-adds, as the advisor counts
    vision models) and the image's side in pixels."""
    patch, image = cfg.int("patch_size", default=16), cfg.int("image_size", default=224)
    s = (image // patch) ** 2 + 1
    h, width = shape.hidden, shape.intermediate
    forward = shape.layers * (s * (4 * h * h + 2 * h * width) + 2 * s * s * h) \
        + (s - 1) * cfg.int("num_channels", default=3) * patch * patch * h
    return 3 * forward / 1e9, image


def _whisper_gflops(shape: Shape, cfg: _Config) -> float:
    """Training FLOPs of one 30 s sample as for the advisor's other sequence models
    (6 x parameters x positions plus the attention cores): the encoder over its frames, the
    decoder over its whole context (an upper bound), cross-attention keys and values over the
    frames, the convolution stem."""
    h, width = shape.hidden, shape.intermediate
    frames = cfg.int("max_source_positions", default=1500)
    tokens = cfg.int("max_target_positions", default=448)
    mels = cfg.int("num_mel_bins", default=80)
    enc, dec = shape.layers, shape.decoder_layers
    macs = enc * frames * (4 * h * h + 2 * h * width) \
        + dec * (tokens * (6 * h * h + 2 * h * width) + frames * 2 * h * h) \
        + tokens * shape.vocab * h + 2 * frames * mels * 3 * h + frames * h * 3 * h
    attention = 12 * h * (enc * frames ** 2 + dec * tokens ** 2 + dec * tokens * frames)
    return (6 * macs + attention) / 1e9


def _name(data: dict[str, Any], path: str | Path, model_type: str) -> str:
    """The model's name: the repository config.json was saved from, else the file's own name
    ('Qwen3-8B.json'), else its folder's ('Llama-3.1-8B/config.json'; not a Hugging Face
    cache's snapshot hash), else its architecture."""
    given = data.get("_name_or_path")
    if isinstance(given, str) and given.strip().rstrip("/"):
        return given.strip().rstrip("/").rsplit("/", 1)[-1][:120]
    if str(path) != STDIN:
        file = Path(str(path))
        if file.stem.lower() != "config" and file.stem.strip():
            return file.stem[:120]
        folder = file.resolve().parent.name
        if folder and not re.fullmatch(r"[0-9a-f]{16,64}", folder) and folder != "snapshots":
            return folder[:120]
    archs = data.get("architectures")
    if isinstance(archs, list) and archs and isinstance(archs[0], str):
        return archs[0][:120]
    return model_type[:120]


def import_config(data: dict[str, Any], path: str | Path = "config.json") -> ImportedModel:
    """The profile's task and model section a config.json's keys give."""
    source = "<stdin>" if str(path) == STDIN else str(path)
    top = _Config(data, source)
    model_type = _model_type(top)
    cfg, vision = top, 0.0
    text = data.get("text_config")
    if isinstance(text, dict):  # a multimodal model: its language model, then its vision tower
        cfg = _Config({**{k: v for k, v in data.items() if k != "text_config"}, **text},
                      source, "text_config.")
        inner = text.get("model_type")
        model_type = inner.lower() if isinstance(inner, str) and inner else model_type
        vision_cfg = data.get("vision_config")
        if isinstance(vision_cfg, dict) and vision_cfg.get("num_hidden_layers") is not None:
            tower = _Config(vision_cfg, source, "vision_config.")
            # the tower and the projection of its features into the language model's width
            vision = _vision_tower(tower) + tower.int("hidden_size") * cfg.int(
                "hidden_size", "d_model")
    notes: list[tuple[str, str]] = []
    if model_type == "gpt2":
        shape = _gpt2(cfg)
    elif model_type in _ENCODERS:
        shape = _encoder(cfg, model_type)
    elif model_type in _T5:
        shape = _t5(cfg)
    elif model_type == "whisper":
        shape = _whisper(cfg)
    elif model_type == "vit":
        shape = _vit(cfg)
    else:
        if model_type not in _DECODERS and model_type != "phi":
            notes.append((f"model_type {model_type!r} is not one this version knows: counted "
                          "as a Llama-style decoder (gated feed-forward, no biases)",
                          f"本版本不认识 model_type {model_type!r}：按 Llama 式解码器计算"
                          "（门控前馈层，无偏置）"))
        shape = _decoder(cfg, model_type)
    if vision:
        shape = replace(shape, extra=shape.extra + vision)
    if cfg.opt("num_nextn_predict_layers", minimum=0):
        notes.append(("the checkpoint's multi-token-prediction layers "
                      "(num_nextn_predict_layers) are not counted, as the model card's size "
                      "leaves them out; fine-tuning usually drops them",
                      "检查点中的多 token 预测层（num_nextn_predict_layers）未计入，与模型卡给出的"
                      "规模一致；微调时通常不用它们"))
    total, active = parameter_counts(shape)
    task = FAMILY_TASK.get(model_type, "llm")
    return ImportedModel(model_type=model_type, task=task,
                         name=_name(data, path, model_type), params=total,
                         active_params=active,
                         fields=_fields(shape, cfg, model_type, total, notes),
                         facts=_facts(shape, cfg, model_type, active, vision), notes=notes)


def _context(cfg: _Config, model_type: str) -> int | None:
    if model_type == "whisper":
        return cfg.opt("max_target_positions")
    return cfg.opt("max_position_embeddings", "n_positions", "n_ctx", "seq_length")


def _fields(shape: Shape, cfg: _Config, model_type: str, total: float,
            notes: list[tuple[str, str]]) -> dict[str, Any]:
    fields: dict[str, Any] = {"params_millions": round(total / 1e6, 1),
                              "layers": shape.layers + shape.decoder_layers,
                              "hidden_size": shape.hidden}
    if shape.hidden % shape.heads == 0:
        fields["attention_heads"] = shape.heads
    else:  # the profile holds heads that split the width (Gemma 7B: 16 x 256 over 3,072)
        notes.append((f"{shape.heads} attention heads do not divide the width "
                      f"{shape.hidden}: left out", f"{shape.heads} 个注意力头不能整除宽度 "
                      f"{shape.hidden}：未填写"))
    if shape.kv_heads and "attention_heads" in fields and shape.heads % shape.kv_heads == 0:
        fields["kv_heads"] = shape.kv_heads
    if shape.vocab:
        fields["vocab_size"] = shape.vocab
    context = _context(cfg, model_type)
    if model_type == "whisper":
        fields["sequence_length"] = cfg.int("max_source_positions", default=1500)
        fields["flops_per_sample_gflops"] = round(_whisper_gflops(shape, cfg), 1)
    elif model_type == "vit":
        gflops, _side = _vit_gflops(shape, cfg)
        fields["flops_per_sample_gflops"] = round(gflops, 1)
    elif context and context <= TRAINS_AT_WHOLE_CONTEXT:
        fields["sequence_length"] = 512 if model_type in ("roberta", "xlm-roberta") \
            and context == 514 else context
    return fields


def _facts(shape: Shape, cfg: _Config, model_type: str, active: float,
           vision: float) -> dict[str, Any]:
    """What the config says that the profile's model section has no field for (yet), by the
    catalog's names (advisor/catalog/models.py carries them into a profile once it has)."""
    facts: dict[str, Any] = {
        "context_length": _context(cfg, model_type),
        "tied_embeddings": shape.tied if shape.vocab else None,
        "intermediate_size": shape.intermediate,
        "head_dim": shape.head_dim,
    }
    if shape.experts:
        facts.update(experts=shape.experts, experts_per_token=shape.experts_per_token,
                     shared_experts=shape.shared_experts or None,
                     moe_intermediate_size=shape.moe_intermediate,
                     dense_layers=shape.dense_layers or None,
                     active_params_millions=round(active / 1e6, 1))
    if vision:
        facts["vision_params_millions"] = round(vision / 1e6, 1)
    return {k: v for k, v in facts.items() if v is not None}
