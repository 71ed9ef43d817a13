"""The workload profile: the data model every other layer reads (it imports none of them).

Sections: ``workload`` (model and training run), ``hardware``, ``economics``, ``measured``; their
choices in ``enums``; the bilingual field metadata the wizard is generated from in
``field_meta``; reading (``reading``: safe, line-aware YAML/JSON) and writing (``writing``:
atomic). A profile read for a command is also checked against the catalog:
``advisor.catalog.profile_check.load_profile``.
"""

from advisor.profile.alternatives import Alternative, apply_alternative
from advisor.profile.economics import EconomicsSpec
from advisor.profile.enums import (
    ActivationCheckpointing,
    Cooling,
    Currency,
    Denoiser,
    EconomicsMode,
    Ema,
    FrozenEncoders,
    GpuGeneration,
    GradientDtype,
    InputPipeline,
    InputSizes,
    InterLink,
    IntraLink,
    KeepBatch,
    LossKernel,
    Market,
    Offload,
    Optimizer,
    Parallelism,
    Precision,
    Storage,
    SubNetworks,
    Task,
    ThroughputUnit,
    TimeValue,
    TrainingMethod,
    Virtualization,
)
from advisor.profile.field_meta import field_meta, meta
from advisor.profile.hardware import CustomGpu, HardwareSpec
from advisor.profile.measured import MeasuredPoint, MeasuredSpec
from advisor.profile.model import SCHEMA_VERSION, Profile, default_profile
from advisor.profile.workload import ModelSpec, TrainingSpec

__all__ = [
    "SCHEMA_VERSION", "ActivationCheckpointing", "Alternative", "Cooling", "Currency",
    "GpuGeneration",
    "CustomGpu", "Denoiser", "EconomicsMode", "EconomicsSpec", "Ema", "FrozenEncoders",
    "GradientDtype", "HardwareSpec",
    "InputPipeline", "InputSizes", "InterLink", "IntraLink", "KeepBatch", "Market",
    "LossKernel", "MeasuredPoint", "MeasuredSpec", "ModelSpec", "Offload", "Optimizer", "Parallelism",
    "Precision", "Profile", "Storage", "SubNetworks", "Task", "ThroughputUnit", "TimeValue",
    "TrainingMethod", "TrainingSpec", "Virtualization", "apply_alternative", "default_profile",
    "field_meta", "meta",
]
