"""What a task implies when the profile does not say: whether inputs vary in size from step
to step, and whether a GAN's or RL job's sub-networks take turns (# F21).

Stragglers follow what varies per step: a step sums the work of its samples, and only
variable-size inputs (images of different sizes, sentences and utterances of different
lengths, region proposals, episodes) make one GPU's step longer than another's. Fixed crops,
3D volumes, tiles and packed sequences cost the same every step (``training.input_sizes``).

F21 (GAN / RL: often < 1.5x) describes set-ups whose sub-networks take turns: a generator and
a discriminator on separate GPUs, or actors and a learner that wait for each other. Plain
data-parallel GAN training, where every GPU runs both networks each step, scales like any
data-parallel job: NVIDIA's published HiFi-GAN runs reach 4.6-6.9x on 8 GPUs (the data set
of benchmarks/), and the StyleGAN2-ADA README reports 7.6x on 8 V100 at 1024 px. So ``auto``
follows the published runs for GANs and the article for reinforcement learning (actor /
learner), and the output says which one it followed (``training.sub_networks``).
"""

from __future__ import annotations

from advisor.profile import InputSizes, Profile, SubNetworks, Task
from advisor.text.i18n import Text

# Tasks whose usual inputs change size from step to step (auto). Image classification trains
# on fixed crops, segmentation on fixed tiles or volumes, LLMs on packed sequences,
# recommenders on fixed feature vectors, GANs on fixed-size images.
VARIABLE_INPUT_TASKS = frozenset({Task.object_detection, Task.speech_recognition,
                                  Task.reinforcement_learning, Task.other})
ALTERNATING_TASKS = (Task.gan, Task.reinforcement_learning)  # F21 names both

NOTE_TURNS = Text(
    en="Sub-networks that take turns (alternating GAN training on separate GPUs, RL actors "
       "and learner) leave GPUs idle while they wait: the speed-up stays near 1.5x (F21).",
    zh="轮流训练的子网络（分在不同卡上交替训练的 GAN、强化学习的 actor 与 learner）在等待时让显卡空闲："
       "加速比约 1.5 倍以内（F21）。")
NOTE_TURNS_AUTO = Text(
    en="Reinforcement learning is taken to run actors and a learner that wait for each other "
       "(training.sub_networks: auto), as the article describes (F21); if every GPU runs the "
       "whole update in each step, set training.sub_networks to together: it then scales "
       "like plain data parallel.",
    zh="强化学习按 actor 与 learner 互相等待估算（training.sub_networks：auto），与文章描述一致（F21）；"
       "若每张卡每一步都完成整个更新，请把 training.sub_networks 设为 together，将按普通数据并行估算。")
NOTE_GAN_PUBLISHED = Text(
    en="The article says GAN training often stays below 1.5x because sub-networks take turns "
       "(F21); published data-parallel GAN runs, where every GPU trains generator and "
       "discriminator in each step, scale like any data-parallel job (NVIDIA HiFi-GAN 4.6-6.9x "
       "on 8 GPUs; StyleGAN2-ADA 7.6x on 8 V100). The projection follows the published runs; "
       "if your sub-networks take turns on separate GPUs, set training.sub_networks to "
       "take_turns.",
    zh="文章说 GAN 训练因子网络轮流训练，加速比常低于 1.5 倍（F21）；而公开的数据并行 GAN 实测中，"
       "每张卡每一步都同时训练生成器和判别器，扩展方式与普通数据并行相同（NVIDIA HiFi-GAN 8 卡 "
       "4.6–6.9 倍；StyleGAN2-ADA 8 张 V100 7.6 倍）。本预测按公开实测估算；若您的子网络分在不同"
       "卡上轮流训练，请把 training.sub_networks 设为 take_turns。")


def inputs_vary(profile: Profile) -> bool:
    """Does the work per sample change from step to step (training.input_sizes, else task)?"""
    sizes = profile.training.input_sizes
    if sizes == InputSizes.auto:
        return profile.task in VARIABLE_INPUT_TASKS
    return sizes == InputSizes.variable


def takes_turns(profile: Profile) -> bool:
    """Do the sub-networks take turns, idling GPUs (# F21)? Only GAN and RL jobs have them."""
    if profile.task not in ALTERNATING_TASKS:
        return False
    chosen = profile.training.sub_networks
    if chosen == SubNetworks.auto:
        return profile.task == Task.reinforcement_learning
    return chosen == SubNetworks.take_turns


def turn_notes(profile: Profile) -> list[Text]:
    """What the projection assumed about sub-networks, and where the article and published
    runs differ, which one it follows."""
    if profile.task not in ALTERNATING_TASKS:
        return []
    auto = profile.training.sub_networks == SubNetworks.auto
    if takes_turns(profile):
        return [NOTE_TURNS] + ([NOTE_TURNS_AUTO] if auto else [])
    return [NOTE_GAN_PUBLISHED] if profile.task == Task.gan else []
