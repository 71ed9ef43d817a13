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
"""

from __future__ import annotations

from dataclasses import dataclass

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
        """(weight matrices of the layers, attention core of the layers, output layer)."""
        layers = 2.0 * self.layer_params * self.layers
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
    """The profile's transformer, unknown dimensions filled as the module docstring says."""
    m = profile.model
    sequence = m.sequence_length or int(default_sequence_length().get(profile.task.value, 512))
    base = estimated_shape(m.params_millions, m.layers, m.hidden_size, sequence, 2.0)
    layers = max(1, round(base.layers))
    hidden = int(round(base.hidden))
    if not m.hidden_size:  # a derived width is rounded as real models' are (1,024 or 256)
        step = 1024 if hidden >= 2048 else 256
        hidden = max(256, int(round(hidden / step)) * step)
        if not m.layers:
            layers = max(1, round(m.params_millions * 1e6 / (12.0 * hidden**2)))
    heads = m.attention_heads or default_heads(hidden)
    return ModelShape(params=m.params_millions * 1e6, layers=layers, hidden=hidden, heads=heads,
                      sequence=sequence, vocab=m.vocab_size or DEFAULT_VOCAB,
                      shape_given=bool(m.layers and m.hidden_size), kv_heads=m.kv_heads)
