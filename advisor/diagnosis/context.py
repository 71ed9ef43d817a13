"""The projection's physical inputs for the measured run: from the user's profile when given,
else from the advisor's default machine, with the single-GPU step taken from the measurement.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from advisor.catalog.gpus import resolve_gpu
from advisor.diagnosis.measurements import STEP_UNITS, MeasuredSeries
from advisor.i18n import Text
from advisor.profile import InterLink, Profile, default_profile
from advisor.scaling.inputs import data_parallel_inputs
from advisor.scaling.links import link_figures
from advisor.scaling.parameters import ScalingParams
from advisor.scaling.physics import DataParallelInputs

# Units whose numbers count samples, so batch / throughput is the single-GPU step time.
_SAMPLE_UNITS = ("samples/s", "images/s", "img/s", "sequences/s", "seq/s", "sentences/s")

NOTE_NO_PROFILE = Text(
    en="No profile given: the refit assumes the advisor's default machine (RTX 4090 cards on "
       "PCIe 4.0, data parallel). Give --profile for your own hardware and model.",
    zh="未提供配置：重新拟合按默认机器（RTX 4090、PCIe 4.0、数据并行）计算。用 --profile 指定你的"
       "硬件和模型。")
NOTE_DATA_PARALLEL = Text(
    en="The refit models data parallel training; with model or pipeline parallelism read the "
       "fitted parameters as effective values.",
    zh="重新拟合按数据并行建模；若使用模型并行或流水线并行，拟合参数只是等效值。")
NOTE_BIGGER_MACHINE = Text(
    en="Beyond {gpus} GPUs per machine the extrapolation assumes one bigger machine of the same "
       "kind (the profile has no network between machines).",
    zh="超过每台 {gpus} 张卡的外推假设是一台同类的更大机器（配置中没有机间网络）。")


@dataclass(frozen=True)
class RunContext:
    profile: Profile
    inputs: DataParallelInputs
    notes: list[Text]


def run_context(series: MeasuredSeries, profile: Profile | None, params: ScalingParams,
                up_to: int) -> RunContext:
    """Inputs for the refit; the machine grows to ``up_to`` GPUs when the profile has no
    network, so extrapolation stays on one machine rather than failing."""
    notes: list[Text] = []
    if profile is None:
        profile = default_profile()
        notes.append(NOTE_NO_PROFILE)
    hw = profile.hardware
    if hw.inter_link == InterLink.none and up_to > hw.gpus_per_node:
        notes.append(NOTE_BIGGER_MACHINE.format(gpus=hw.gpus_per_node))
        hw = hw.model_copy(update={"gpus_per_node": min(up_to, 64)})
        profile = profile.model_copy(update={"hardware": hw})
    gpu = resolve_gpu(hw.gpu)
    links = link_figures(hw.intra_link, hw.inter_link, gpu, hw.gpus_per_node,
                         hw.allreduce_busbw_gbs)
    inputs = data_parallel_inputs(profile, gpu, links, params)
    if profile.training.parallelism.value in ("tensor", "pipeline"):
        notes.append(NOTE_DATA_PARALLEL)
    # The measurement knows the single-GPU step better than any FLOPs estimate.
    if series.baseline_gpus == 1 and series.unit in STEP_UNITS.values():
        inputs = replace(inputs, step_compute_s=1.0 / series.throughput[0])
    elif series.baseline_gpus == 1 and series.unit.strip().lower() in _SAMPLE_UNITS:
        inputs = replace(inputs, step_compute_s=profile.training.batch_per_gpu
                         / series.throughput[0])
    return RunContext(profile, inputs, notes)
