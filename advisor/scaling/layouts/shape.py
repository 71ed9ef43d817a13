"""The transformer being trained: its shape, parameters and FLOPs per token.

Unknown dimensions are filled the usual way: hidden size and layers from the parameter count
(``params ~ 12 L h^2``, ``model_parallel.estimated_shape``; a derived width rounded to a
multiple of 1,024, or 256 below 2,048, as real models' are), 128-wide attention heads (GPT-3,
Llama) or 64-wide when 128 does not divide the width, a 32,000-token vocabulary (Llama 1/2).

FLOPs per token (Narayanan et al. 2021, Sec. 5.1 and appendix; PaLM's MFU convention): the
forward pass of the layers costs ``2 P_layers + 4 s h L`` (the weight matrices, then the
attention scores and their product with the values over the ``s`` positions), the output
layer ``2 V h``; the backward pass twice the forward. Model FLOPs (what MFU counts) are
``3 x`` the forward, i.e. ``6 P + 12 L h s``. Full recomputation repeats the layers' forward
(hardware FLOPs ``8 P_layers + 16 L h s + 6 V h``: Narayanan's Eq. 3), selective only the
attention core (``+ 4 L h s``; Korthikanti et al. 2022).

A mixture of experts (``experts`` > 0) holds every expert and computes with the ones its
tokens are routed to. Its routed experts' parameters (all of them, ``expert_params``) come from
the total P and active A parameters: each token runs k of E experts, so the E - k it skips
hold P - A, and all E hold ``(P - A) E / (E - k)`` (Mixtral 8x7B: 45.1 B of 46.7 B, as its
32 layers x 8 experts x 3 x 4,096 x 14,336 count; DeepSeek-V3: 654 B, Qwen3-30B-A3B: 29.0 B);
with every expert active (k = E), from the expert width, else two thirds of the layers (the
feed-forward share of a standard layer). The rest (attention, router, shared experts, the
dense layers' feed-forward blocks) is spread over the layers as a dense model's is. FLOPs per
token count the active parameters: ``6 A + 12 L h s`` (what MFU counts for an MoE).
The load of the busiest expert-parallel rank is an assumption, the capacity factor
(``capacity_factor``, Switch Transformer's 1.25 unless a run states its own): it scales that
rank's expert matmuls, all-to-all and dispatched activations.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from advisor.profile import Profile
from advisor.scaling.model_parallel import estimated_shape
from advisor.scaling.parameters import default_sequence_length

DEFAULT_VOCAB = 32_000  # Llama 1/2 tokenizer; GPT-2/3 use 50,257 (padded to 51,200 in Megatron)
_HEAD_WIDTHS = (128, 64, 96, 80, 32)  # head width tried, most common first


@dataclass(frozen=True)
class ModelShape:
    params: float  # every trainable parameter
    layers: int
    hidden: int
    heads: int
    sequence: int  # tokens per sample
    vocab: int
    shape_given: bool = True  # layers and hidden were given, not derived from the parameters
    # below 1 when a single-GPU run measured at the profile's batch says the activation
    # estimate is too large (advisor.scaling.measured_memory; layouts.engine applies it)
    activation_scale: float = 1.0
    kv_heads: int | None = None  # grouped-query attention's key/value heads, when given
    # a mixture of experts (0: dense): routed experts per MoE layer and per token, all routed
    # experts' parameters, how many layers route (the rest have a dense feed-forward block),
    # each routed expert's feed-forward width and the shared experts every token runs
    experts: int = 0
    experts_per_token: int = 0
    expert_params: float = 0.0
    moe_layers: int = 0
    expert_width: float = 0.0
    shared_experts: int = 0
    # the busiest expert-parallel rank's tokens over its average share: the capacity factor
    # (the train capacity factor of 1.25 "advocated by Fedus et al." that ST-MoE, Zoph et
    # al. 2022, also trains with; token-dropping runs pad every expert to it, dropless ones
    # meet the imbalance their balancing loss leaves); 1 without expert
    # parallelism, where each GPU runs every expert on its own tokens
    capacity_factor: float = 1.25

    @property
    def is_moe(self) -> bool:
        return self.experts > 0 and self.expert_params > 0.0 and self.moe_layers > 0

    @property
    def routed_layer_params(self) -> float:
        """All routed experts of one MoE layer (0 for a dense model)."""
        return self.expert_params / self.moe_layers if self.is_moe else 0.0

    @property
    def dense_layer_params(self) -> float:
        """One layer's parameters outside its routed experts (attention, router, shared
        experts; the dense layers' feed-forward blocks spread over all layers): the share of a
        layer every token runs and that expert parallelism does not split."""
        if not self.is_moe:
            return self.layer_params
        return max(self.layer_params - self.expert_params / self.layers, 0.0)

    @property
    def routed_share(self) -> float:
        """k / E: the share of the routed experts' parameters one token runs through."""
        return self.experts_per_token / self.experts if self.is_moe else 1.0

    @property
    def active_params(self) -> float:
        """Parameters one token runs through (every parameter of a dense model)."""
        if not self.is_moe:
            return self.params
        return self.params - self.expert_params * (1.0 - self.routed_share)

    @property
    def active_layer_params(self) -> float:
        """One layer's parameters that a token runs through (the layer of a dense model)."""
        if not self.is_moe:
            return self.layer_params
        return self.dense_layer_params + self.expert_params * self.routed_share / self.layers

    def stage_params(self, pp: np.ndarray) -> tuple[np.ndarray, np.ndarray | float]:
        """(the busiest pipeline stage's parameters outside the routed experts, its routed
        experts' parameters), before tensor and expert parallelism split them: ceil(L / p)
        layers and the tied embedding; a stage of MoE layers holds the most experts."""
        stage_layers = np.ceil(self.layers / pp)
        if not self.is_moe:
            return self.layer_params * stage_layers + self.embedding_params, 0.0
        return (self.dense_layer_params * stage_layers + self.embedding_params,
                self.routed_layer_params * np.minimum(stage_layers, self.moe_layers))

    def stage_moe_layers(self, pp: np.ndarray) -> np.ndarray:
        """MoE layers on the busiest stage (0 for a dense model)."""
        if not self.is_moe:
            return np.zeros(np.shape(pp))
        return np.minimum(np.ceil(self.layers / pp), self.moe_layers)

    def imbalance(self, ep: np.ndarray) -> np.ndarray:
        """The busiest expert rank's load over the average: the capacity factor where the
        experts are split (``ep`` > 1), else 1."""
        return np.where(ep > 1, self.capacity_factor, 1.0)

    def moe_mlp_units(self, imbalance: np.ndarray | float) -> np.ndarray | float:
        """Bytes per token and unit of width (``s b h`` at 16 bits, Korthikanti's units) that
        an MoE layer's feed-forward part keeps for its backward pass, against a dense MLP's
        19: each of the k routed copies of a token keeps its dispatched input (2 h) and its
        gated MLP's two projections and their product (6 w), the shared experts their 6 w, the
        combined output 2 h, the dropout mask 1; the busiest expert rank holds ``imbalance``
        times its share of the copies."""
        w = self.expert_width / self.hidden
        return (self.experts_per_token * imbalance * (2.0 + 6.0 * w) + 2.0
                + 6.0 * w * self.shared_experts + 1.0)

    @property
    def embedding_params(self) -> float:
        """Input embedding (tied with the output layer, as GPT and Megatron train it)."""
        return float(self.vocab * self.hidden)

    @property
    def layer_params(self) -> float:
        """Parameters of one transformer layer (never below a tenth of the share)."""
        rest = self.params - self.embedding_params
        return max(rest, 0.1 * self.params) / self.layers

    def forward_flops_per_token(self) -> tuple[float, float, float]:
        """(weight matrices of the layers, attention core of the layers, output layer); an
        MoE's layers count the parameters a token runs through."""
        layers = 2.0 * self.active_layer_params * self.layers
        attention = 4.0 * self.sequence * self.hidden * self.layers
        output = 2.0 * self.vocab * self.hidden
        return layers, attention, output

    def model_flops_per_token(self) -> float:
        """Forward + backward (3 x forward) without recomputation: what MFU counts."""
        return 3.0 * sum(self.forward_flops_per_token())

    def hardware_flops_per_token(self, checkpointing: str) -> float:
        """Model FLOPs plus the recomputed forward work of ``checkpointing``."""
        layers, attention, _ = self.forward_flops_per_token()
        extra = {"full": layers + attention, "selective": attention}.get(checkpointing, 0.0)
        return self.model_flops_per_token() + extra

    def tensor_degrees(self, limit: int) -> list[int]:
        """Tensor-parallel degrees up to ``limit`` that divide the heads and the width: a
        degree that does not divide the heads cannot split attention (never 3, 5 or 7 ways
        for 32 heads); with grouped-query attention it divides the key/value heads too
        (Megatron-LM splits the query groups: Qwen2.5-7B's 4 allow 1, 2 and 4)."""
        return [t for t in range(1, max(limit, 1) + 1)
                if self.heads % t == 0 and self.hidden % t == 0
                and (not self.kv_heads or self.kv_heads % t == 0)]


def default_heads(hidden: int) -> int:
    for width in _HEAD_WIDTHS:
        if hidden % width == 0 and hidden >= width:
            return hidden // width
    return 1


def shape_of(profile: Profile) -> ModelShape:
    """The profile's transformer, unknown dimensions filled as the module docstring says (an
    MoE's width and depth from its active parameters: the layers a token runs through)."""
    m = profile.model
    sequence = m.sequence_length or int(default_sequence_length().get(profile.task.value, 512))
    sized = m.active_params_millions if m.is_moe and m.active_params_millions else \
        m.params_millions
    base = estimated_shape(sized, m.layers, m.hidden_size, sequence, 2.0)
    layers = max(1, round(base.layers))
    hidden = int(round(base.hidden))
    if not m.hidden_size:  # a derived width is rounded as real models' are (1,024 or 256)
        step = 1024 if hidden >= 2048 else 256
        hidden = max(256, int(round(hidden / step)) * step)
        if not m.layers:
            layers = max(1, round(sized * 1e6 / (12.0 * hidden**2)))
    heads = m.attention_heads or default_heads(hidden)
    shape = ModelShape(params=m.params_millions * 1e6, layers=layers, hidden=hidden,
                       heads=heads, sequence=sequence, vocab=m.vocab_size or DEFAULT_VOCAB,
                       shape_given=bool(m.layers and m.hidden_size), kv_heads=m.kv_heads)
    if not m.is_moe:
        return shape
    return with_experts(shape, experts=int(m.experts or 0), top_k=int(m.experts_per_token or 0),
                        active=float(m.active_params_millions or 0.0) * 1e6,
                        expert_width=m.moe_intermediate_size, dense_layers=m.dense_layers or 0,
                        shared=m.shared_experts or 0)


def with_experts(shape: ModelShape, experts: int, top_k: int, active: float,
                 expert_width: float | None = None, dense_layers: int = 0,
                 shared: int = 0) -> ModelShape:
    """``shape`` as a mixture of experts of ``experts`` routed experts, ``top_k`` per token,
    ``active`` parameters a token runs through (module docstring)."""
    moe_layers = max(shape.layers - min(dense_layers, shape.layers - 1), 1)
    h = float(shape.hidden)
    if top_k < experts and active < shape.params:
        routed = (shape.params - active) * experts / (experts - top_k)
    elif expert_width:  # every expert active: their size from their width (a gated MLP)
        routed = experts * moe_layers * 3.0 * h * expert_width
    else:
        routed = 2.0 / 3.0 * max(shape.params - shape.embedding_params, 0.0)
    routed = min(routed, max(shape.params - shape.embedding_params, 0.0))
    width = float(expert_width) if expert_width else routed / (experts * moe_layers * 3.0 * h)
    return replace(shape, experts=experts, experts_per_token=top_k, expert_params=routed,
                   moe_layers=moe_layers, expert_width=max(width, 1.0), shared_experts=shared)
