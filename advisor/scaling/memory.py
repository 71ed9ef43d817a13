"""GPU memory per card and the parallelism that makes a job fit (# F05, # F24).

Model states take 16 bytes per parameter with (mixed-precision) Adam: weights, gradients and
optimizer states. ZeRO shards them: stage 1 the optimizer states (12 B), stage 2 also the
gradients, stage 3 / FSDP everything. Tensor and pipeline parallel split the model itself.
Activations come on top, per sample of the batch (activations.py): from the transformer
shape, given or derived from the parameters, else from the sample's FLOPs by task. A
diffusion fine-tune's states, EMA and frozen encoders shard apart (``diffusion.py``).
"""

from __future__ import annotations

import numpy as np

from advisor.profile import Parallelism, Profile, Task
from advisor.scaling.activations import activation_gb, is_transformer
from advisor.scaling.card_memory import capacity_gb as capacity_gb  # re-exported
from advisor.scaling.card_memory import usable_gb as usable_gb  # re-exported
from advisor.scaling.diffusion import diffusion_states, states_gb
from advisor.scaling.measured_memory import memory_estimate
from advisor.scaling.parameters import ScalingParams
from advisor.scaling.state_bytes import state_bytes_per_param

# Bytes per parameter kept on every GPU, and the share that is divided among N GPUs.
_STATE_SPLIT = {  # strategy -> (replicated bytes, sharded bytes) out of 16
    "data": (16.0, 0.0),
    "zero1": (4.0, 12.0),
    "zero2": (2.0, 14.0),
    "zero3": (0.0, 16.0),
    "fsdp": (0.0, 16.0),
}
# auto: full sharding = FSDP; "hybrid_zero3": tensor parallel inside each machine with the
# model states sharded ZeRO-3 / FSDP-style over every GPU (2-D parallelism, Megatron-DeepSpeed
# or FSDP + TP), for models whose tensor-parallel slice does not fit when replicated per machine.
_AUTO_ORDER = ("data", "zero2", "fsdp", "tensor", "hybrid_zero3", "hybrid")
# "embedding": DLRM-style, tables sharded one slice per GPU (model parallel) and the dense
# MLPs data parallel; shown as data parallel, the part the user's framework runs as DDP.
STRATEGY_LABEL = {"embedding": "data", "data": "data", "zero1": "zero", "zero2": "zero", "zero3": "zero",
                  "fsdp": "fsdp", "hsdp": "fsdp", "tensor": "tensor", "pipeline": "pipeline", "hybrid": "hybrid",
                  "hybrid_zero3": "hybrid"}


def memory_per_gpu_gb(strategy: str, gpus: np.ndarray, profile: Profile,
                      p: ScalingParams, model_split: np.ndarray | None = None,
                      act: float | None = None) -> np.ndarray:
    """Memory one GPU needs under ``strategy`` for every N (model_split: tensor/pipeline ways;
    ``act``: the batch's activation memory when already known)."""
    n = np.asarray(gpus, dtype=float)
    act = activation_gb(profile, p) if act is None else act
    if profile.task == Task.diffusion:  # states, EMA and frozen encoders shard apart
        return _diffusion_gb(strategy, n, profile, p, model_split, act)
    params = profile.model.params_millions * 1e6
    per_param = state_bytes_per_param(profile, p)
    scale = per_param / 16.0
    if strategy == "embedding":
        dense = params * p.recommendation_dense_fraction
        tables = (params - dense) * p.embedding_bytes_per_param / n
        return (dense * per_param + tables) / 1e9 + act + p.memory_overhead_gb
    if strategy == "hsdp":  # FSDP hybrid shard: sharded inside one machine, replicated across
        shards = np.minimum(n, profile.hardware.gpus_per_node)
        return params * scale * 16.0 / shards / 1e9 + act + p.memory_overhead_gb
    if strategy in _STATE_SPLIT:
        replicated, sharded = _STATE_SPLIT[strategy]
        states = params * scale * (replicated + sharded / n) / 1e9
        return states + act + p.memory_overhead_gb
    ways = np.asarray(model_split if model_split is not None else n, dtype=float)
    # hybrid_zero3: the t-way slice's states are sharded again over the N / t replicas.
    shards = n if strategy == "hybrid_zero3" else ways
    states = params * per_param / shards / 1e9
    # Tensor parallel splits activations too; a pipeline stage keeps its layers' share.
    return states + act / ways + p.memory_overhead_gb




def _diffusion_gb(strategy: str, n: np.ndarray, profile: Profile, p: ScalingParams,
                  model_split: np.ndarray | None, act: float) -> np.ndarray:
    """A diffusion run's memory per GPU (``diffusion.py``): ZeRO / FSDP shard the denoiser's
    states and EMA, never the frozen encoders; a model split divides everything."""
    states = diffusion_states(profile, p)
    ways = np.asarray(model_split if model_split is not None else n, dtype=float)
    hsdp = np.minimum(n, profile.hardware.gpus_per_node)
    split = strategy not in ("data", "embedding", "zero1", "zero2", "zero3", "fsdp", "hsdp")
    gb = states_gb(states, strategy, n, hsdp, ways) + np.zeros_like(n)
    return gb + (act / ways if split else act) + p.memory_overhead_gb


def choose_strategies(profile: Profile, gpus: np.ndarray, memory_gb: float,
                      p: ScalingParams) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Strategy per N, memory per GPU and whether it fits.

    ``training.parallelism == auto``: plain data parallel if it fits, else ZeRO stage 2, else
    ZeRO-3/FSDP (F24), else tensor parallel inside a node, hybrid (tensor x data) across nodes,
    with the states sharded over every GPU (ZeRO-3 across the replicas) when one replica per
    tensor group does not fit. An explicit choice is kept as given.
    """
    n = np.asarray(gpus, dtype=float)
    limit = usable_gb(memory_gb, p)
    per_node = profile.hardware.gpus_per_node
    choice = profile.training.parallelism
    # A measured single-GPU run at the batch fitted one card: estimates agree with it.
    estimate = memory_estimate(profile, memory_gb, p)
    p, act = estimate.params, estimate.activation_gb
    if embedding_sharded(profile, memory_gb, p):
        mem = memory_per_gpu_gb("embedding", n, profile, p)
        return ["embedding"] * len(n), mem, mem <= limit
    if choice != Parallelism.auto:
        name = choice.value
        if name in ("tensor", "pipeline"):
            split = _model_split(name, n, per_node)
            mem = memory_per_gpu_gb(name, n, profile, p, split, act)
            names = [name if name == "pipeline" or k <= per_node else "hybrid" for k in n]
        else:
            mem = memory_per_gpu_gb(name, n, profile, p, act=act)
            names = [name] * len(n)
        return names, mem, mem <= limit
    candidates = [memory_per_gpu_gb(name, n, profile, p, act=act) for name in _AUTO_ORDER[:3]]
    # Tensor parallel (Megatron) splits transformer layers; a CNN, detector or GAN whose batch
    # does not fit trains with a smaller batch, not split: it stays data parallel, "no fit".
    transformer = is_transformer(profile)
    if transformer:
        split = _model_split("tensor", n, per_node)
        candidates.append(memory_per_gpu_gb("tensor", n, profile, p, split, act))
        candidates.append(memory_per_gpu_gb("hybrid_zero3", n, profile, p, split, act))
    stacked = np.stack(candidates)
    fitting = stacked <= limit
    # First that fits wins (F24); nothing fits: tensor (hybrid across nodes) for a
    # transformer, else plain data parallel; plain on 1 GPU. Inside one machine the sharded
    # hybrid equals tensor parallel (one replica), which comes first.
    pick = np.where(fitting.any(axis=0), np.argmax(fitting, axis=0),
                    np.where(n == 1, 0, 3 if transformer else 0)).astype(int)
    mems = stacked[pick, np.arange(n.size)]
    hybrid = (pick == 3) & (n > per_node)
    names = [_AUTO_ORDER[k] for k in np.where(hybrid, 5, pick).tolist()]
    return names, mems, mems <= limit


def activation_split(profile: Profile) -> int:
    """How many GPUs one batch's activations can be split over: a transformer's tensor
    parallel group inside one machine (auto or tensor parallelism), else 1 - data parallel,
    ZeRO and FSDP keep each GPU's whole batch of activations (F24)."""
    if is_transformer(profile) and profile.training.parallelism in (Parallelism.auto,
                                                                     Parallelism.tensor):
        return profile.hardware.gpus_per_node
    return 1


def embedding_sharded(profile: Profile, memory_gb: float, p: ScalingParams) -> bool:
    """A recommender that does not fit one GPU shards its embedding tables (DLRM, TorchRec,
    HugeCTR) instead of sharding or splitting the whole model; see inputs.sharded_embeddings."""
    return (profile.task == Task.recommendation
            and profile.training.parallelism == Parallelism.auto
            and not single_gpu_fits(profile, memory_gb, p))


def single_gpu_fits(profile: Profile, memory_gb: float, p: ScalingParams) -> bool:
    """Does plain training fit one GPU (F05: model parallel only when it does not)? Always
    when a single-GPU run at the batch was measured (``measured_memory``)."""
    estimate = memory_estimate(profile, memory_gb, p)
    need = memory_per_gpu_gb("data", np.array([1.0]), profile, estimate.params,
                             act=estimate.activation_gb)[0]
    return bool(need <= usable_gb(memory_gb, p))


def _model_split(strategy: str, n: np.ndarray, per_node: int) -> np.ndarray:
    """How many ways the model is cut: tensor parallel stays inside one node (NVLink domain)."""
    if strategy == "tensor":
        return np.minimum(n, per_node)
    return n
