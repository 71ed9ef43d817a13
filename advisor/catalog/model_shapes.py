"""A transformer's parameters counted from its shape, as its ``config.json`` gives it.

The same count checks the model catalog (``resources/catalog/models.yaml``: the parameters an
entry states agree with its layers, widths and vocabulary) and gives ``gpu-advisor
import-model`` the size of a model read from a Hugging Face ``config.json``.

Per layer: attention (queries over all heads, keys and values over the key/value heads of
grouped-query attention, the output projection; DeepSeek's multi-head latent attention through
its low-rank projections), the feed-forward block (gated, ``3 h I``: Llama, Qwen, Mistral,
Gemma, Phi-3; plain, ``2 h I``: GPT-2, BERT, T5, Whisper, ViT), their norms and biases. A
mixture of experts holds every expert (total) and runs the router's choice plus the shared
experts for each token (active). The vocabulary is counted once when the output layer shares
the input embedding (tied), twice when it does not. Norm and bias terms are counted where the
architecture has them; they are a few per mille at most, so the count agrees with the
published one within a fraction of a percent.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Mla:
    """DeepSeek-V2/V3 multi-head latent attention: queries and keys/values through low-rank
    projections (``q_lora_rank`` 0: queries projected directly)."""

    q_lora_rank: int
    kv_lora_rank: int
    qk_rope_head_dim: int
    qk_nope_head_dim: int
    v_head_dim: int


@dataclass(frozen=True)
class Shape:
    """What the count needs of a transformer (``layers``: the encoder's or the only stack)."""

    layers: int
    hidden: int
    heads: int
    vocab: int
    intermediate: int
    kv_heads: int | None = None
    head_dim: int | None = None
    tied: bool = True
    gated: bool = True  # SwiGLU / GeGLU: gate, up and down projections
    bias: bool = False  # every linear layer has a bias (GPT-2, BERT, Whisper, ViT, Phi-2)
    qkv_bias: bool = False  # biases on the query, key and value projections only (Qwen2)
    layer_norm: bool = False  # LayerNorm (weight and bias), else RMSNorm (weight)
    norms_per_layer: int = 2  # Gemma 2/3 normalise before and after each block: 4
    qk_norm: str | None = None  # "head": per-head q/k RMSNorm (Qwen3); "full": over all heads
    positions: int = 0  # rows of a learned position table (GPT-2, BERT); 0 with rotary ones
    token_types: int = 0  # BERT's segment embeddings
    pooler: bool = False  # BERT / ViT pooler: one more h x h layer
    decoder_layers: int = 0  # encoder-decoder (T5, Whisper): decoder layers, cross-attention
    experts: int = 0
    experts_per_token: int = 0
    shared_experts: int = 0
    moe_intermediate: int | None = None  # each expert's width (else ``intermediate``)
    shared_intermediate: int | None = None  # the shared expert's width (Qwen2-MoE)
    dense_layers: int = 0  # layers with a dense feed-forward block before the MoE ones
    mla: Mla | None = None
    extra: float = 0.0  # parameters outside the layers: a vision tower, a convolutional stem


def _attention(s: Shape) -> float:
    h = s.hidden
    if s.mla is not None:
        m = s.mla
        qk = m.qk_nope_head_dim + m.qk_rope_head_dim
        q = (h * m.q_lora_rank + m.q_lora_rank + m.q_lora_rank * s.heads * qk
             if m.q_lora_rank else h * s.heads * qk)
        kv = (h * (m.kv_lora_rank + m.qk_rope_head_dim) + m.kv_lora_rank
              + m.kv_lora_rank * s.heads * (m.qk_nope_head_dim + m.v_head_dim))
        return float(q + kv + s.heads * m.v_head_dim * h)
    d = s.head_dim or h // s.heads
    q_out, kv_out = s.heads * d, (s.kv_heads or s.heads) * d
    weights = 2 * h * q_out + 2 * h * kv_out
    biases = (q_out + 2 * kv_out + h) if s.bias else (q_out + 2 * kv_out) if s.qkv_bias else 0
    norms = {"head": 2 * d, "full": q_out + kv_out}.get(s.qk_norm or "", 0)
    return float(weights + biases + norms)


def _feed_forward(s: Shape, width: int) -> float:
    h = s.hidden
    weights = (3 if s.gated else 2) * h * width
    biases = ((2 if s.gated else 1) * width + h) if s.bias else 0
    return float(weights + biases)


def _norm(s: Shape) -> float:
    return float(s.hidden * (2 if s.layer_norm else 1))


def parameter_counts(s: Shape) -> tuple[float, float]:
    """(every parameter, the parameters one token runs through): equal for a dense model."""
    h = s.hidden
    attention = _attention(s)
    dense = _feed_forward(s, s.intermediate)
    per_layer_fixed = attention + s.norms_per_layer * _norm(s)
    if s.experts:
        expert = _feed_forward(s, s.moe_intermediate or s.intermediate)
        shared = s.shared_experts * _feed_forward(
            s, s.shared_intermediate or s.moe_intermediate or s.intermediate)
        router = s.experts * h
        moe_layers = s.layers - s.dense_layers
        total_ff = s.dense_layers * dense + moe_layers * (s.experts * expert + shared + router)
        active_ff = s.dense_layers * dense + moe_layers * (
            s.experts_per_token * expert + shared + router)
    else:
        total_ff = active_ff = s.layers * dense
    stack = s.layers * per_layer_fixed
    if s.decoder_layers:  # self-attention, cross-attention, feed-forward, three norms
        stack += s.decoder_layers * (2 * attention + dense + 3 * _norm(s))
    embeddings = (s.vocab * h * (1 if s.tied else 2) + (s.positions + s.token_types) * h
                  + _norm(s) * (2 if s.decoder_layers else 1))  # the final norm(s)
    if s.pooler:
        embeddings += h * h + h
    fixed = stack + embeddings + s.extra
    return fixed + total_ff, fixed + active_ff


# What each ``model_type`` of a Hugging Face config.json (the catalog's ``architecture``)
# changes in the count beyond a Llama-style decoder (RMSNorm, SwiGLU, no biases).
FAMILY_FLAGS: dict[str, dict[str, object]] = {
    "llama": {}, "mistral": {}, "mixtral": {}, "gemma": {}, "phi3": {}, "granite": {},
    "deepseek_v2": {}, "deepseek_v3": {}, "qwen2": {"qkv_bias": True},
    "qwen2_moe": {"qkv_bias": True}, "qwen3": {"qk_norm": "head"},
    "qwen3_moe": {"qk_norm": "head"}, "olmo2": {"qk_norm": "full"},
    "gemma2": {"norms_per_layer": 4}, "gemma3": {"norms_per_layer": 4, "qk_norm": "head"},
    "gemma3_text": {"norms_per_layer": 4, "qk_norm": "head"},
    "phi": {"gated": False, "bias": True, "layer_norm": True, "norms_per_layer": 1},
    "gpt2": {"gated": False, "bias": True, "layer_norm": True},
    "bert": {"gated": False, "bias": True, "layer_norm": True, "pooler": True,
             "token_types": 2},
    "roberta": {"gated": False, "bias": True, "layer_norm": True, "pooler": True,
                "token_types": 1},
    "xlm-roberta": {"gated": False, "bias": True, "layer_norm": True, "pooler": True,
                    "token_types": 1},
    "modernbert": {},
    "t5": {"gated": False},
    "mt5": {},
    "whisper": {"gated": False, "bias": True, "layer_norm": True},
    "vit": {"gated": False, "bias": True, "layer_norm": True},
}
# Families whose position embeddings are a learned table of ``context_length`` rows.
LEARNED_POSITIONS = frozenset({"gpt2", "bert", "roberta", "xlm-roberta"})
# The advisor's task for each family (a causal language model is ``llm``; an encoder or an
# encoder-decoder for text ``nlp``).
FAMILY_TASK: dict[str, str] = {
    **{name: "llm" for name in ("llama", "mistral", "mixtral", "gemma", "gemma2", "gemma3",
                                "gemma3_text", "phi3", "phi", "granite", "deepseek_v2",
                                "deepseek_v3", "qwen2", "qwen2_moe", "qwen3", "qwen3_moe",
                                "olmo2", "gpt2")},
    **{name: "nlp" for name in ("bert", "roberta", "xlm-roberta", "modernbert", "t5", "mt5")},
    "whisper": "speech_recognition", "vit": "image_classification",
}
