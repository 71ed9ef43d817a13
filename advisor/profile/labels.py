"""Human labels for the profile's enum values, in English and Simplified Chinese.

Rule messages, reports and the wizard quote links, virtualisation and cooling by these labels,
never by their raw values (``pcie4`` reads "PCIe 4.0"). ``label(fact, value, lang)`` returns
the value itself when no label is known, so a new enum value still prints.
"""

from __future__ import annotations

from advisor.text.i18n import Text

INTRA_LINK = {
    "pcie3": Text(en="PCIe 3.0", zh="PCIe 3.0"),
    "pcie4": Text(en="PCIe 4.0", zh="PCIe 4.0"),
    "pcie5": Text(en="PCIe 5.0", zh="PCIe 5.0"),
    "nvlink_bridge": Text(en="NVLink bridge", zh="NVLink 桥接"),
    "nvlink": Text(en="NVLink", zh="NVLink"),
    "nvswitch": Text(en="NVSwitch", zh="NVSwitch"),
}
INTER_LINK = {
    "none": Text(en="no network (one machine)", zh="无网络（单机）"),
    "ethernet_10g": Text(en="10 GbE Ethernet", zh="10 GbE 以太网"),
    "ethernet_25g": Text(en="25 GbE Ethernet", zh="25 GbE 以太网"),
    "ethernet_100g": Text(en="100 GbE Ethernet", zh="100 GbE 以太网"),
    "roce": Text(en="RoCE 100 Gb/s", zh="RoCE 100 Gb/s"),
    "roce_400g": Text(en="RoCE 400 Gb/s", zh="RoCE 400 Gb/s"),
    "infiniband_edr": Text(en="InfiniBand EDR", zh="InfiniBand EDR"),
    "infiniband_hdr": Text(en="InfiniBand HDR", zh="InfiniBand HDR"),
    "infiniband_ndr": Text(en="InfiniBand NDR", zh="InfiniBand NDR"),
}
VIRTUALIZATION = {
    "bare_metal": Text(en="bare metal", zh="裸金属"),
    "passthrough": Text(en="full pass-through", zh="整卡直通"),
    "vgpu": Text(en="NVIDIA vGPU", zh="NVIDIA vGPU"),
    "unknown": Text(en="unknown virtualisation", zh="虚拟化方式未知"),
}
COOLING = {
    "open_air": Text(en="open-air fans", zh="开放式风扇"),
    "blower": Text(en="blower", zh="涡轮散热"),
    "server": Text(en="server airflow", zh="服务器风道"),
    "liquid": Text(en="liquid cooling", zh="水冷"),
}
PARALLELISM = {
    "data": Text(en="data parallel", zh="数据并行"),
    "zero": Text(en="ZeRO sharded data parallel", zh="ZeRO 分片数据并行"),
    "fsdp": Text(en="FSDP sharded data parallel", zh="FSDP 分片数据并行"),
    "tensor": Text(en="tensor (model) parallel", zh="模型并行（张量并行）"),
    "pipeline": Text(en="pipeline parallel", zh="流水线并行"),
    "hybrid": Text(en="hybrid parallel", zh="混合并行"),
}
# The projection's bottleneck per GPU count (the CLI's `project` table; ui.results.fact_labels has
# the wizard's own copy, as ui may import advisor but not the other way round).
BOTTLENECK = {
    "compute": Text(en="compute", zh="计算"),
    "communication": Text(en="communication", zh="通信"),
    "input_pipeline": Text(en="input pipeline", zh="数据加载"),
    "memory": Text(en="memory", zh="显存"),
    "synchronisation": Text(en="synchronisation", zh="同步等待"),
    "pipeline_bubble": Text(en="pipeline bubble", zh="流水线气泡"),
    "alternating_training": Text(en="alternating training", zh="交替训练"),
    "virtualization": Text(en="virtualisation", zh="虚拟化"),
}

TASK = {
    "image_classification": Text(en="image classification", zh="图像分类"),
    "object_detection": Text(en="object detection", zh="目标检测"),
    "segmentation": Text(en="segmentation", zh="图像分割"),
    "speech_recognition": Text(en="speech recognition", zh="语音识别"),
    "nlp": Text(en="NLP", zh="自然语言处理"),
    "llm": Text(en="large language model", zh="大语言模型"),
    "recommendation": Text(en="recommendation", zh="推荐系统"),
    "gan": Text(en="GAN", zh="GAN"),
    "reinforcement_learning": Text(en="reinforcement learning", zh="强化学习"),
    "diffusion": Text(en="diffusion model", zh="扩散模型"),
    "other": Text(en="other", zh="其他"),
}
TIME_VALUE = {
    "deadline": Text(en="a deadline", zh="截止日期"),
    "revenue": Text(en="revenue", zh="营收"),
    "none": Text(en="no money value", zh="不折算成钱"),
    "unsaid": Text(en="not said", zh="未说明"),
}
ECONOMICS_MODE = {
    "own": Text(en="own hardware", zh="自建"),
    "cloud": Text(en="cloud rental", zh="云实例租用"),
    "compare": Text(en="compare both", zh="两者比较"),
}
INPUT_PIPELINE = {
    "starved": Text(en="starved", zh="喂不饱"),
    "typical": Text(en="typical", zh="一般"),
    "tuned": Text(en="tuned", zh="已优化"),
}

# fact name (advisor.verdict.facts) -> its label table
# What a verdict's net value is measured against (the cost model's baseline: F02)
NET_VALUE_BASE = {
    "one_gpu": Text(en="one GPU of this setup", zh="本配置单卡"),
    "owned": Text(en="the GPUs you already own", zh="你已有的卡"),
    "fewest_that_run": Text(en="the fewest GPUs of this setup that can run it",
                            zh="本配置能跑起来的最少卡数"),
    "fewest_that_keep_schedule": Text(en="the fewest GPUs of this setup that can do the "
                                         "month's runs",
                                      zh="本配置能做完每月训练的最少卡数"),
}
BY_FACT: dict[str, dict[str, Text]] = {
    "task": TASK,
    "time_value": TIME_VALUE,
    "economics_mode": ECONOMICS_MODE,
    "input_pipeline": INPUT_PIPELINE,
    "link": INTRA_LINK,
    "inter_link": INTER_LINK,
    "virtualization": VIRTUALIZATION,
    "cooling": COOLING,
    "verdict_projected_parallelism": PARALLELISM,
    "verdict_parallelism": PARALLELISM,
    "user_parallelism": PARALLELISM,
    "net_value_base": NET_VALUE_BASE,
}


def label(fact: str, value: object, lang: str = "en") -> object:
    """The human label of ``value`` for ``fact`` in ``lang``; other values unchanged."""
    table = BY_FACT.get(fact)
    if table is None or not isinstance(value, str) or value not in table:
        return value
    return table[value].get(lang)

# --- rule conclusions (the "why" table, `rules explain`, the GUI's Why tab and the PDF) ---
RATING = {
    "not_worth_it": Text(en="not worth it", zh="不划算"),
    "optional": Text(en="optional", zh="可选"),
    "worth_it": Text(en="worth it", zh="划算"),
    "required": Text(en="multi-GPU required", zh="必须上多卡"),
}
FRAMEWORK = {
    "ddp": Text(en="PyTorch DDP", zh="PyTorch DDP"),
    "fsdp": Text(en="PyTorch FSDP", zh="PyTorch FSDP"),
    "deepspeed": Text(en="DeepSpeed", zh="DeepSpeed"),
    "megatron": Text(en="Megatron-LM", zh="Megatron-LM"),
    "horovod": Text(en="Horovod", zh="Horovod"),
    "torchrec": Text(en="TorchRec (or HugeCTR)", zh="TorchRec（或 HugeCTR）"),
    "none": Text(en="no framework (one GPU)", zh="无需框架（单卡）"),
}
DEPLOYMENT = {
    "own": Text(en="own hardware", zh="自建"),
    "cloud": Text(en="cloud rental", zh="云实例租用"),
    "either": Text(en="own or rent", zh="自建或租用皆可"),
}
SEVERITY = {
    "info": Text(en="info", zh="提示"),
    "warning": Text(en="warning", zh="警告"),
    "critical": Text(en="critical", zh="严重"),
}
VETO = {
    "memory_wall": Text(en="memory wall", zh="显存墙"),
    "alternating_training": Text(en="alternating training", zh="交替训练"),
    "no_speedup": Text(en="no count faster than one GPU", zh="没有比单卡更快的卡数"),
    "vgpu_sharing": Text(en="shared virtual GPUs", zh="共享虚拟 GPU"),
    "embedding_tables": Text(en="embedding tables", zh="嵌入表"),
}
PITFALL = {
    "activation_memory": Text(en="activations fill the memory", zh="激活占满显存"),
    "alternating_training": Text(en="alternating training", zh="交替训练"),
    "cannot_keep_up": Text(en="runs queue up", zh="训练排队"),
    "count_vs_cost_figures": Text(en="the count is not the cost figures' best value",
                                  zh="卡数不是成本数字上的最优"),
    "checkpointing_fits_sooner": Text(en="checkpointing fits on fewer GPUs",
                                      zh="激活重计算可少用卡"),
    "comm_bound_small_model": Text(en="small model, communication-bound",
                                   zh="小模型受通信所限"),
    "comm_timeouts": Text(en="communication time-outs", zh="通信超时"),
    "data_starvation": Text(en="data starvation", zh="数据喂不饱"),
    "diffusion_memory": Text(en="diffusion memory savings first", zh="扩散模型先省显存"),
    "memory_at_limit": Text(en="memory at the card's limit", zh="显存接近上限"),
    "memory_near_fit": Text(en="one GPU nearly holds the job", zh="单卡差一点就放得下"),
    "deadline_risk": Text(en="deadline shorter than the move", zh="截止时间比迁移还短"),
    "deadline_tight": Text(en="deadline met only at the estimate", zh="只有按预测值才赶得上截止时间"),
    "laggard_gpu": Text(en="a slow GPU holds the others back", zh="慢卡拖累其他卡"),
    "low_scaling": Text(en="low scaling", zh="扩展效率低"),
    "lr_scaling": Text(en="learning rate vs global batch", zh="学习率与全局批次"),
    "memory_wall": Text(en="memory wall", zh="显存墙"),
    "migration_cost": Text(en="cost of the first move", zh="首次迁移成本"),
    "no_nvlink": Text(en="no NVLink", zh="没有 NVLink"),
    "not_enough_gpus": Text(en="not enough GPUs", zh="显卡不够"),
    "past_the_knee": Text(en="past the scaling knee", zh="超过扩展拐点"),
    "pcie_link_downgraded": Text(en="PCIe link downgraded", zh="PCIe 链路降级"),
    "pipeline_bubble": Text(en="pipeline bubble", zh="流水线气泡"),
    "power_capped": Text(en="held at the power cap", zh="被功耗上限压住"),
    "psu_capacity": Text(en="power supply capacity", zh="电源容量"),
    "setup_change": Text(en="runs here with a setup change", zh="调整设置后可在本机运行"),
    "shape_not_offered": Text(en="no offer rents such machines", zh="没有报价出租这样的机器"),
    "rate_borrowed": Text(en="no offer rents this card here", zh="本市场没有这种卡的租用报价"),
    "slow_internode": Text(en="slow link between machines", zh="机器间链路慢"),
    "thermal_throttling": Text(en="thermal throttling", zh="过热降频"),
    "vgpu_sharing": Text(en="shared virtual GPUs", zh="共享虚拟 GPU"),
}
ADVICE = {
    "data_loader": Text(en="data loader", zh="数据加载"),
    "framework": Text(en="framework", zh="框架"),
    "interconnect": Text(en="interconnect", zh="互联"),
    "learning_rate": Text(en="learning rate", zh="学习率"),
    "machine": Text(en="machine", zh="整机"),
    "parallelism": Text(en="parallelism", zh="并行方式"),
    "scaling_knee": Text(en="scaling knee", zh="扩展拐点"),
    "task_scaling": Text(en="task scaling", zh="任务扩展性"),
    "embeddings": Text(en="sharded embeddings", zh="嵌入表分片"),
    "diffusion_cache": Text(en="cached text embeddings and latents", zh="缓存文本嵌入和潜变量"),
    "diffusion_ema": Text(en="EMA off the GPU", zh="EMA 不放在显卡上"),
    "diffusion_lora": Text(en="LoRA for a small data set", zh="小数据集用 LoRA"),
}
CONCLUSION_KEY = {
    "rating": Text(en="rating", zh="评级"),
    "gpus": Text(en="GPUs", zh="卡数"),
    "gpus_at_least": Text(en="at least", zh="至少"),
    "gpus_at_most": Text(en="at most", zh="至多"),
    "veto": Text(en="veto", zh="否决"),
    "parallelism": Text(en="parallelism", zh="并行方式"),
    "framework": Text(en="framework", zh="框架"),
    "deployment": Text(en="deployment", zh="部署"),
    "pitfall": Text(en="pitfall", zh="问题"),
    "severity": Text(en="severity", zh="级别"),
    "advice": Text(en="advice", zh="建议"),
}
CONCLUSION_VALUES: dict[str, dict[str, Text]] = {
    "rating": RATING, "framework": FRAMEWORK, "deployment": DEPLOYMENT, "severity": SEVERITY,
    "veto": VETO, "pitfall": PITFALL, "advice": ADVICE, "parallelism": PARALLELISM,
}
COUNT_KEYS = ("gpus", "gpus_at_least", "gpus_at_most")


def conclusion_value(key: str, value: object, lang: str = "en") -> str:
    """One conclusion value as a reader sees it: a label, or a GPU count with its unit."""
    if key in COUNT_KEYS and isinstance(value, int | float) and not isinstance(value, bool):
        n = int(value)
        return f"{n} 卡" if lang == "zh" else (f"{n} GPU" if n == 1 else f"{n} GPUs")
    table = CONCLUSION_VALUES.get(key, {})
    return table[value].get(lang) if isinstance(value, str) and value in table else str(value)


def conclusion_text(conclusion: dict, lang: str = "en") -> str:
    """A rule's conclusion record as words (``rating: worth it, GPUs: 4`` /
    ``评级：划算，卡数：4 卡``), never raw ``key=value`` pairs."""
    colon, sep = ("：", "，") if lang == "zh" else (": ", ", ")
    parts = []
    for key, value in conclusion.items():
        name = CONCLUSION_KEY[key].get(lang) if key in CONCLUSION_KEY else key
        parts.append(f"{name}{colon}{conclusion_value(key, value, lang)}")
    return sep.join(parts)
