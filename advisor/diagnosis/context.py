"""The projection's physical inputs for the measured run: from the user's profile when given,
else from the advisor's default machine, with the single-GPU step taken from the measurement.

Topology, aligned with ``advisor.scaling.project``: the measured counts ran on real hardware,
so a machine smaller than the largest measured count is taken to hold it. Counts beyond
``gpus_per_node × nodes`` are extrapolated on more machines like this one, joined by the
profile's network, or by ``default_inter_link`` when it names none — with a note, and only
when the extrapolation really goes beyond the machines.
"""

from __future__ import annotations

import math
from dataclasses import replace

from advisor.catalog.gpus import GpuSpec, resolve_gpu
from advisor.diagnosis.measurements import STEP_UNITS, MeasuredSeries
from advisor.diagnosis.wording import label
from advisor.files.records import record
from advisor.profile import InterLink, Profile, default_profile
from advisor.scaling.inputs import data_parallel_inputs
from advisor.scaling.links import link_figures
from advisor.scaling.parameters import ScalingParams
from advisor.scaling.physics import DataParallelInputs
from advisor.scaling.project import default_inter_link
from advisor.text.i18n import Text

# Units whose numbers count samples, so batch / throughput is the single-GPU step time.
_SAMPLE_UNITS = ("samples/s", "images/s", "img/s", "sequences/s", "seq/s", "sentences/s")
MAX_GPUS_PER_NODE = 64  # the profile's own bound

NOTE_NO_PROFILE = Text(
    en="No profile given: the refit assumes the advisor's default machine (RTX 4090 cards on "
       "PCIe 4.0, {gpus} to a machine, data parallel). Give --profile for your own hardware and "
       "model.",
    zh="未提供配置：重新拟合按默认机器（RTX 4090、PCIe 4.0、每台 {gpus} 张卡、数据并行）计算。用 "
       "--profile 指定你的硬件和模型。")
NOTE_MEASURED_BIGGER = Text(
    en="{n} GPUs were measured but the profile's machine holds {gpus}: the refit takes the "
       "measurements as one machine with {n} GPUs.",
    zh="实测用了 {n} 张卡，但配置中的机器只有 {gpus} 张：重新拟合按一台 {n} 卡的机器计算。")
NOTE_DATA_PARALLEL = Text(
    en="The refit models data parallel training; with model or pipeline parallelism read the "
       "fitted parameters as effective values.",
    zh="重新拟合按数据并行建模；若使用模型并行或流水线并行，拟合参数只是等效值。")
NOTE_MORE_MACHINES_DEFAULT = Text(
    en="Beyond {cap} GPUs (one machine) the extrapolation adds machines like this one joined by "
       "{net} (the profile names no network between machines), as the projection does.",
    zh="超过 {cap} 张卡（一台机器）的外推按多台同样的机器、经{net}互联计算（配置中没有机间网络），"
       "与预测一致。")
NOTE_MORE_MACHINES = Text(
    en="Beyond {cap} GPUs ({nodes} machines) the extrapolation adds machines like these on "
       "{net}.",
    zh="超过 {cap} 张卡（{nodes} 台机器）的外推按更多同样的机器、经{net}互联计算。")


@record
class RunContext:
    profile: Profile  # the profile as refitted: its machine grown to the counts in play
    inputs: DataParallelInputs
    notes: list[Text]
    gpu: GpuSpec


def _with_net(note: Text, net: InterLink, **values: object) -> Text:
    name = label(net)
    return Text(en=note.en.format(net=name.en, **values),
                zh=_join_zh(note.zh.format(net="\x00" + name.zh + "\x00", **values)))


def _join_zh(text: str) -> str:
    """Drop the markers around an inserted name, with a space where Chinese meets Latin
    letters or digits ("经 25 GbE 以太网互联"), as Chinese typesetting puts one."""
    parts = text.split("\x00")
    out = parts[0]
    for piece in parts[1:]:
        if out and piece and _cjk(out[-1]) != _cjk(piece[0]) and not _punct(out[-1]) \
                and not _punct(piece[0]):
            out += " "
        out += piece
    return out


def _cjk(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff"


def _punct(ch: str) -> bool:
    return ch in "，。：；（）、“”" or ch.isspace()


def _sized(profile: Profile, series: MeasuredSeries, up_to: int, assumed: bool,
           notes: list[Text]) -> Profile:
    """The profile's hardware holding the measured counts, and enough machines for ``up_to``."""
    hw = profile.hardware
    per_node, nodes, inter = hw.gpus_per_node, hw.nodes, hw.inter_link
    measured = series.gpus[-1]
    if measured > per_node * nodes:
        if inter == InterLink.none or assumed:
            if not assumed:
                notes.append(NOTE_MEASURED_BIGGER.format(n=measured, gpus=per_node))
            per_node = min(measured, MAX_GPUS_PER_NODE)
        nodes = max(nodes, math.ceil(measured / per_node))
    cap = per_node * nodes
    if up_to > cap:
        nodes = math.ceil(up_to / per_node)
        if inter == InterLink.none:  # the network such machines usually have, as `project`
            inter = default_inter_link(profile)
            notes.append(_with_net(NOTE_MORE_MACHINES_DEFAULT, inter, cap=cap))
        else:
            notes.append(_with_net(NOTE_MORE_MACHINES, inter, cap=cap, nodes=hw.nodes))
    if (per_node, nodes, inter) == (hw.gpus_per_node, hw.nodes, hw.inter_link):
        return profile
    hw = hw.model_copy(update={"gpus_per_node": per_node, "nodes": nodes, "inter_link": inter})
    return profile.model_copy(update={"hardware": hw})


def run_context(series: MeasuredSeries, profile: Profile | None, params: ScalingParams,
                up_to: int) -> RunContext:
    """Inputs for the refit and the extrapolation up to ``up_to`` GPUs."""
    notes: list[Text] = []
    assumed = profile is None
    if profile is None:
        profile = default_profile()
    profile = _sized(profile, series, up_to, assumed, notes)
    hw = profile.hardware
    if assumed:
        notes.insert(0, NOTE_NO_PROFILE.format(gpus=hw.gpus_per_node))
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
    return RunContext(profile, inputs, notes, gpu)
