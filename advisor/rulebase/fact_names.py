"""Rule facts by name, in words (English and Simplified Chinese).

The rule base and its traces keep fact ids (``day_value_covers_energy``); people read them
through ``fact_name``: the wizard's Why tab, the PDF appendix and ``gpu-advisor rules explain``.
"""

from __future__ import annotations

from advisor.profile import labels as core
from advisor.text.i18n import Text


def T(en: str, zh: str) -> Text:  # noqa: N802 - reads like a literal
    return Text(en=en, zh=zh)


FACT_NAMES: dict[str, Text] = {
    "task": T("task", "任务"),
    "alternating_training": T("alternating training", "交替训练"),
    "params_millions": T("parameters (millions)", "参数量（百万）"),
    "single_gpu_hours": T("hours per run on one GPU", "单卡跑一次的小时数"),
    "runs_per_month": T("runs a month", "每月训练次数"),
    "monthly_gpu_hours": T("one-GPU hours of work a month", "每月工作量（单卡小时）"),
    "asked_gpus": T("GPUs the rules asked for", "规则要求的卡数"),
    "from_gpus": T("GPUs of the pick it replaced", "被替换的原结论的卡数"),
    "keep_up_gpus": T("fewest GPUs that keep up with the schedule", "跟得上训练节奏的最少卡数"),
    "keep_up_monthly_hours": T("training hours a month there", "该卡数下每月训练小时数"),
    "horizon_months": T("planning horizon (months)", "规划期（月）"),
    "precision": T("precision", "精度"),
    "checkpointing_on": T("activation checkpointing on", "已开启激活重计算"),
    "pure_16bit": T("pure 16-bit training", "纯 16 位训练"),
    "batch_per_gpu": T("batch per GPU", "每卡批大小"),
    "global_batch_fixed": T("global batch held fixed", "全局批大小固定"),
    "optimizer_family": T("optimizer family (SGD-like or Adam-family)", "优化器类别（SGD 类或 Adam 类）"),
    "single_pass_run": T("the run reads its data once or less", "训练最多只读一遍数据"),
    "fine_tuning": T("fine-tuning a pretrained model", "在预训练模型上微调"),
    "pretrains_llm": T("pre-training a language model", "从头预训练语言模型"),
    "reads_tokenised_data": T("reads pre-tokenised data", "读取预先分词的数据"),
    "nominal_batch_framework": T("framework normalises to a nominal batch (Ultralytics)",
                                 "框架按名义批大小归一（Ultralytics）"),
    "setup_change": T("setup change the verdict rests on", "结论所依据的设置调整"),
    "input_pipeline": T("input pipeline", "数据加载方式"),
    "workers_per_gpu": T("data-loader workers per GPU", "每卡数据加载进程数"),
    "user_parallelism": T("parallelism asked for", "指定的并行方式"),
    "micro_batches": T("micro-batches", "微批次数"),
    "has_measurements": T("measured runs given", "有实测数据"),
    "gpu_memory_gb": T("GPU memory (GB)", "显存（GB）"),
    "gpu_tdp_w": T("GPU power (W)", "单卡功耗（W）"),
    "gpu_has_nvlink": T("GPU has NVLink", "显卡支持 NVLink"),
    "link": T("link inside a machine", "机内互联"),
    "link_is_pcie": T("GPUs linked over PCIe", "显卡经 PCIe 互联"),
    "inter_link": T("link between machines", "机间互联"),
    "gpus_per_node": T("GPUs per machine", "每台机器的卡数"),
    "nodes": T("machines", "机器数"),
    "total_gpus": T("GPUs in all", "总卡数"),
    "virtualization": T("virtualisation", "虚拟化"),
    "cooling": T("cooling", "散热"),
    "max_temp_c": T("highest GPU temperature (°C)", "显卡最高温度（°C）"),
    "hardware_imported": T("hardware imported from nvidia-smi", "硬件信息来自 nvidia-smi"),
    "economics_mode": T("own or rent", "自建还是租用"),
    "time_value": T("what time is worth", "时间价值的来源"),
    "value_per_day": T("value of a day saved", "每省一天的价值"),
    "deadline_days": T("deadline (days)", "截止时间（天）"),
    "moved_before": T("moved to multi-GPU before", "以前迁移过多卡"),
    "max_gpus_projected": T("most GPUs projected", "预测的最大卡数"),
    "speedup_2": T("speed-up on 2 GPUs", "2 卡加速比"),
    "speedup_4": T("speed-up on 4 GPUs", "4 卡加速比"),
    "speedup_8": T("speed-up on 8 GPUs", "8 卡加速比"),
    "speedup_16": T("speed-up on 16 GPUs", "16 卡加速比"),
    "efficiency_4": T("efficiency on 4 GPUs", "4 卡扩展效率"),
    "efficiency_8": T("efficiency on 8 GPUs", "8 卡扩展效率"),
    "gain_8_to_16": T("gain from 8 to 16 GPUs", "从 8 卡到 16 卡的增益"),
    "speedup_max": T("speed-up at the most GPUs", "最大卡数下的加速比"),
    "efficiency_max": T("efficiency at the most GPUs", "最大卡数下的扩展效率"),
    "useful_gpus": T("GPUs worth adding up to", "值得加到的卡数"),
    "useful_speedup": T("speed-up there", "该卡数下的加速比"),
    "more_gpus_add_nothing": T("more GPUs add nothing", "再加卡没有收益"),
    "bottleneck_max": T("bottleneck at the most GPUs", "最大卡数下的瓶颈"),
    "fits_one_gpu": T("fits on one GPU", "单卡放得下"),
    "min_gpus_fit": T("fewest GPUs that hold the model", "放得下模型的最少卡数"),
    "fit_gpus_beyond": T("GPUs needed beyond this machine", "超出本机所需的卡数"),
    "currency": T("currency", "货币"),
    "verdict_not_best_value": T("the recommended count is not the cost model's best value",
                                "推荐卡数不是成本模型的最优"),
    "checkpointing_fits_here": T("activation checkpointing fits the GPUs you have",
                                 "开启激活重计算后现有的卡就放得下"),
    "fit_gpus_checkpointing": T("GPUs needed with activation checkpointing",
                                "开启激活重计算后所需的卡数"),
    "activation_gb": T("activations of one GPU's batch (GB)", "单卡一个批次的激活（GB）"),
    "activations_exceed_card": T("activations alone exceed one card", "仅激活就超过单卡显存"),
    "memory_per_gpu_gb": T("memory on one GPU (GB)", "单卡所需显存（GB）"),
    "best_value_gpus": T("best-value GPU count", "性价比最高的卡数"),
    "deadline_gpus": T("fewest GPUs for the deadline", "赶上截止时间的最少卡数"),
    "deadline_gpus_for_time": T("fewest GPUs for the deadline, one GPU holding the job",
                                "单卡放得下时赶上截止时间的最少卡数"),
    "deadline_gpus_for_memory": T("fewest GPUs that hold the job and meet the deadline",
                                  "单卡放不下时既放得下又赶上截止时间的最少卡数"),
    "net_value_best": T("net value a month at the best count", "最佳卡数下的每月净收益"),
    "net_value_base": T("what the net value is measured against", "净收益的比较基准"),
    "breakeven_months": T("buy-vs-rent break-even (months)", "自建回本月数"),
    "breakeven_hours_per_month": T("owning wins above (hours a month)",
                                   "每月超过多少小时自建更划算"),
    "owning_never_pays": T("owning never pays off", "自建始终不划算"),
    "day_value_covers_energy": T("a day saved pays a month's extra electricity, the bulk of "
                                 "the extra cost", "省一天的价值抵得上一个月多耗的电费（电费是多出成本的大头）"),
    "near_best_gpus": T("fewest GPUs within 5 % of the best net value",
                        "净收益与最高值相差不到 5% 的最少卡数"),
    "net_value_near_best": T("net value a month there", "该卡数下的每月净收益"),
    "embedding_heavy": T("mostly embedding tables", "以嵌入表为主"),
    "gpu_class": T("GPU class", "显卡类别"),
    "verdict_psu_w": T("power supply to size (W)", "应配电源功率（W）"),
    "verdict_rating": T("rating", "评级"),
    "verdict_gpus": T("recommended GPUs", "推荐卡数"),
    "verdict_wanted_gpus": T("GPUs wanted", "想要的卡数"),
    "verdict_gpus_short": T("GPUs missing", "缺少的卡数"),
    "verdict_nodes": T("machines", "机器数"),
    "verdict_speedup": T("speed-up at the recommended count", "推荐卡数下的加速比"),
    "verdict_efficiency": T("efficiency at the recommended count", "推荐卡数下的扩展效率"),
    "verdict_projected_parallelism": T("projected parallelism", "预测的并行方式"),
    "verdict_bottleneck": T("bottleneck at the recommended count", "推荐卡数下的瓶颈"),
    "verdict_fits": T("fits at the recommended count", "推荐卡数下放得下"),
    "nearly_free_gpus": T("a far faster count at almost the same cost a run",
                          "每次成本几乎不变却快得多的卡数"),
    "nearly_free_hours": T("hours a run at that count", "该卡数下每次训练的小时数"),
    "nearly_free_extra_pct": T("extra cost a run at that count, %", "该卡数下每次多花的百分比"),
    "verdict_run_hours": T("hours a run at the recommended count", "推荐卡数下每次训练的小时数"),
    "verdict_micro_batches": T("micro-batches a step at the recommended count",
                               "推荐卡数下每步的微批次数"),
    "verdict_interleaved": T("interleaved pipeline schedule at the recommended count",
                             "推荐卡数下采用交错流水线调度"),
    "verdict_monthly_hours": T("training hours a month there", "该配置每月训练小时数"),
    "verdict_day_value_to_pay": T("what a day saved must be worth for the recommended count "
                                  "to pay", "推荐卡数回本所需的每天价值"),
    "verdict_hours_over_breakeven": T("hours a month / break-even hours",
                                      "每月小时数 / 回本小时数"),
    "verdict_system_w": T("whole system power (W)", "整机功耗（W）"),
    "verdict_global_batch": T("global batch", "全局批大小"),
    "verdict_workers_low": T("data-loader workers, low", "数据加载进程数下限"),
    "verdict_workers_high": T("data-loader workers, high", "数据加载进程数上限"),
    "verdict_data_parallel": T("data-parallel replicas", "数据并行副本数"),
    "verdict_lr_factor": T("initial learning rate's factor", "初始学习率的放大倍数"),
    "verdict_deadline_hours_needed": T("hours the runs due before the deadline take",
                                       "截止前要跑完的训练所需小时数"),
    "verdict_deadline_hours_needed_slow": T("hours they take at the slow end of the band",
                                            "按预测区间的慢端所需小时数"),
    "verdict_deadline_hours": T("hours to the deadline", "距截止时间的小时数"),
    "verdict_deadline_tight": T("deadline met only at the estimate, not the slow end",
                                "只有按预测值才赶得上截止时间，按慢端赶不上"),
    "verdict_deployment": T("deployment", "部署方式"),
    "verdict_parallelism": T("parallelism", "并行方式"),
}
OBSERVED = T("observed: {what}", "观察到：{what}")

def humanise(name: str) -> str:
    return name.replace("_", " ")


def fact_name(name: str, lang: str) -> str:
    """A fact's name in words; an observation from the hardware import reads "observed: …"."""
    if name in FACT_NAMES:
        return FACT_NAMES[name].get(lang)
    if name.startswith("obs_"):
        what = core.PITFALL.get(name[4:])
        return OBSERVED.get(lang).format(what=what.get(lang) if what else humanise(name[4:]))
    return humanise(name)
