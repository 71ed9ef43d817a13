"""The change that matters first when the data pipeline starves the GPUs (issue 29; F28:
check the input pipeline before blaming the GPUs): the same training with a tuned loader,
on the user's own machine, as a setup the decision policy weighs beside more GPUs."""

from __future__ import annotations

from advisor.profile import InputPipeline, Profile
from advisor.scaling.result import Projection
from advisor.text.i18n import Text
from advisor.verdict.facts import useful_count
from advisor.verdict.result import SetupOption
from advisor.verdict.setting_changes import Change
from advisor.verdict.setup_pricing import Pricing, priced_option, projected_or_none

FIX = Change(
    id="input_pipeline_tuned", kind="setting",
    label=Text(en="a tuned input pipeline", zh="调优后的数据输入管线"),
    change=Text(en="input_pipeline: tuned (DataLoader num_workers 2-4 per GPU, pinned memory "
                   "and prefetching, the data on NVMe or in RAM)",
                zh="input_pipeline: tuned（DataLoader 每卡 2–4 个 num_workers，pin_memory 与预取，"
                   "数据放在 NVMe 或内存里）"),
    trade_off=Text(en="A day or so of engineering and no hardware: the GPUs stop waiting for "
                      "data (F28).",
                   zh="大约一天的工程工作，不需要硬件：显卡不再等数据（F28）。"),
    training={"input_pipeline": InputPipeline.tuned})


def starved(profile: Profile) -> bool:
    """The profile says its loader cannot feed the GPUs (single-threaded reads, F28)."""
    return profile.training.input_pipeline == InputPipeline.starved


def pipeline_fixed(profile: Profile, projection: Projection, lang: str | None,
                   pricing: Pricing) -> SetupOption | None:
    """The training with a tuned loader on the user's machine, at its fastest useful count
    of the counts considered (None: the pipeline is not starved, or it cannot be projected)."""
    if not starved(profile):
        return None
    try:
        changed = FIX.apply(profile)
    except ValueError:
        return None
    proj = projected_or_none(changed, list(projection.gpus))
    n = useful_count(proj) if proj is not None else None
    if proj is None or n is None:
        return None
    return priced_option(FIX.id, FIX.kind, FIX.label, FIX.change, FIX.trade_off, changed,
                         proj, n, n <= profile.hardware.total_gpus, lang, pricing)
