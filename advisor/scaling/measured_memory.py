"""A measured single-GPU run at a batch fitted one GPU: memory estimates must agree with it.

The activation estimate comes from rules of thumb (a default sequence length, the task's
typical model) and can be several times too large: a 135M encoder at batch 176 "needs" 60 GB
at the default 512 tokens when it was trained at 128 on a 40 GB card. When the profile gives
the throughput of one GPU at its batch (``training.single_gpu_throughput``), or how long a run
takes on one GPU (``training.single_gpu_hours``: data parallel only, ``ran_on_one_gpu``), that
batch ran: the activations are lowered until plain data parallel fits one card. Data parallel
keeps each GPU's memory of the single-GPU run, so every count then fits as data parallel; the
note says what was corrected (# F05: model parallel only when the model does not fit). The
model states (16 bytes per parameter, mixed-precision Adam) are arithmetic, not a rule of
thumb: when they alone exceed the card, the measured run was offloaded or kept 8-bit states,
which several GPUs replace by sharding them (ZeRO, FSDP, the layouts of
advisor/scaling/layouts); the measurement then sets the level, and the card still held the
batch's activations (they are lowered to what it leaves them, never beyond). The layouts correct their own estimate (activations and logits) the
same way: ``advisor.scaling.layouts.engine.measured_activation_scale``.
"""

from __future__ import annotations

from advisor.files.records import record
from advisor.profile import Profile, TrainingSpec
from advisor.scaling.activations import activation_gb
from advisor.scaling.card_memory import usable_gb
from advisor.scaling.parameters import ScalingParams
from advisor.scaling.state_bytes import state_bytes_per_param
from advisor.text.i18n import Text

NOTE_MEASURED_FITS = Text(
    en="The single-GPU throughput was measured at {batch} samples per GPU, so that batch fits "
       "one GPU: the memory estimate ({need:.3g} GB per GPU, from the model's size and task) "
       "is lowered to the card's usable {usable:.3g} GB to agree with the measured run.",
    zh="单卡吞吐是在每卡 {batch} 个样本下实测的，说明这个批大小单卡放得下：按模型规模和任务估算的显存"
       "（每卡 {need:.3g} GB）已下调到该卡可用的 {usable:.3g} GB，与实测一致。")


NOTE_RUN_FITS = Text(
    en="A run on one GPU takes {hours:g} h at {batch} samples per GPU (the profile's run time), "
       "so that batch fits one GPU: the memory estimate ({need:.3g} GB per GPU, from the "
       "model's size and task) is lowered to the card's usable {usable:.3g} GB to agree with "
       "the run.",
    zh="配置写明单卡每卡 {batch} 个样本跑一次要 {hours:g} 小时，说明这个批大小单卡放得下：按模型规模和"
       "任务估算的显存（每卡 {need:.3g} GB）已下调到该卡可用的 {usable:.3g} GB，与这次训练一致。")


NOTE_TIMED_ELSEWHERE = Text(
    en="The run on one GPU (its time or throughput) was given for the card in your profile at "
       "{batch} samples per GPU, so that batch fits a card of {usable:.3g} GB usable: the "
       "memory estimate ({need:.3g} GB per GPU, from the model's size and task) is lowered to "
       "what that card holds, and this card is held to it.",
    zh="单卡运行（时间或吞吐）是按你配置里的那张卡、每卡 {batch} 个样本给出的，说明这个批大小放得下"
       "可用 {usable:.3g} GB 的卡：按模型规模和任务估算的显存（每卡 {need:.3g} GB）已下调到那张卡放得下的"
       "量，本卡按它判断放不放得下。")


NOTE_ACTIVATIONS_HELD = Text(
    en="The run on one GPU at {batch} samples per GPU held its activations on a card of "
       "{usable:.3g} GB usable, though the model states ({states:.3g} GB) did not fit beside "
       "them (that run offloaded them or kept them in 8 bits): the activation estimate "
       "({act:.3g} GB, from the model's size and task) is lowered to the {room:.3g} GB that "
       "card holds. Beside them the states need cards with room to spare, sharded, or host "
       "memory, as that run used.",
    zh="单卡每卡 {batch} 个样本的运行把激活放在了可用 {usable:.3g} GB 的卡上，而模型状态（{states:.3g} GB）"
       "并没有和它们一起放下（那次运行把它们卸载了或以 8 位保存）：按模型规模和任务估算的激活"
       "（{act:.3g} GB）已下调到那张卡放得下的 {room:.3g} GB。模型状态还要放在激活旁边：需要有余量的卡"
       "分片存放，或像那次运行一样放到主机内存。")


# A run time on one GPU (not a measured throughput) corrects the activation estimate only
# when that estimate is within this factor of the card: the rule of thumb errs by up to about
# that much (the 135M encoder above: 1.5x; ViT-L/16 at batch 64 on a 24 GB card: 1.8x), while a
# batch several times the card (a ResNet-152 at 1,024 images on a 16 GB T4) cannot have run.
RUN_TRUSTED_OVER = 2.0

MEASURED_MARGIN = 0.999  # land just inside the card, not on its edge (rounding)


@record
class MemoryEstimate:
    """Memory inputs the projection uses: the parameters (bytes per parameter of the model
    states) and one GPU's batch activations, corrected by a measured run when one exists."""

    params: ScalingParams
    activation_gb: float
    note: Text | None = None  # what a measurement corrected


def measured_batch_runs(profile: Profile) -> bool:
    """The profile states a throughput measured on one GPU at its batch."""
    return profile.training.single_gpu_throughput is not None


def ran_on_one_gpu(profile: Profile) -> bool:
    """The profile states how long a run takes on one of its GPUs (``single_gpu_hours``): at
    its batch, the run happens there. Data parallel (not the layouts of large language
    models, whose one-GPU time is often a reference a model too large never ran at) reads it
    as a measured batch (module docstring): a rule of thumb for activations that says such a
    run cannot happen is the figure that is wrong, and telling the owner of working cards to
    buy others is the costly mistake."""
    return profile.training.single_gpu_hours is not None


def memory_estimate(profile: Profile, memory_gb: float, p: ScalingParams) -> MemoryEstimate:
    """The model-state parameters and the activation estimate, the activations lowered when a
    measured single-GPU run at the profile's batch, or a run time on one GPU, says they must
    be smaller (see the module docstring)."""
    act = activation_gb(profile, p)
    measured = measured_batch_runs(profile)
    if not measured and not ran_on_one_gpu(profile):
        return MemoryEstimate(p, act)
    # the card the run was timed on: the profile's own, or the user's where the advisor moved
    # the training to another card (a batch that ran on an 80 GB card says nothing of 16 GB)
    timed_gb = profile.training.timed_card_gb
    elsewhere = timed_gb is not None and timed_gb != memory_gb
    usable = usable_gb(timed_gb if elsewhere else memory_gb, p)
    states = profile.model.params_millions * 1e6 * state_bytes_per_param(profile, p) / 1e9
    room = usable - p.memory_overhead_gb
    need = states + act + p.memory_overhead_gb
    if need <= usable:
        return MemoryEstimate(p, act)
    if not measured and need > RUN_TRUSTED_OVER * usable:
        return MemoryEstimate(p, act)  # too far over for the rule of thumb's error: a batch
        # stated with a run time (not measured) that no card of this size holds
    batch = profile.training.batch_per_gpu
    if elsewhere:
        note = NOTE_TIMED_ELSEWHERE.format(batch=batch, need=need, usable=usable)
    elif measured:
        note = NOTE_MEASURED_FITS.format(batch=batch, need=need, usable=usable)
    else:
        note = NOTE_RUN_FITS.format(batch=batch, hours=profile.training.single_gpu_hours,
                                    need=need, usable=usable)
    if states >= room:  # the states alone exceed the card: sharded on several (docstring)
        if act > room:  # ... yet the card held the batch's activations (the states offloaded)
            return MemoryEstimate(p, room * MEASURED_MARGIN, NOTE_ACTIVATIONS_HELD.format(
                batch=batch, act=act, states=states, usable=usable, room=room))
        return MemoryEstimate(p, act)
    # the activations were overestimated: keep what the card leaves them
    return MemoryEstimate(p, (room - states) * MEASURED_MARGIN, note)


def timed_on_mine(original: Profile, training: TrainingSpec, card_gb: float) -> TrainingSpec:
    """``training`` moved off the user's card (of ``card_gb``) by the advisor (compare's
    options, rented cards): where the user timed a run on one GPU, that run says its batch fit
    their card, not the one moved to (``TrainingSpec.timed_card_gb``; a section moved twice
    keeps the first card)."""
    t = original.training
    if t.single_gpu_hours is None and t.single_gpu_throughput is None:
        return training
    return training.timed_on(t.timed_card_gb or card_gb)
