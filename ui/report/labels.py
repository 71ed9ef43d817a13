"""Every fixed phrase the report prints, in English and Simplified Chinese (glossary terms)."""

from __future__ import annotations

from advisor.text.i18n import Text


def T(en: str, zh: str) -> Text:  # noqa: N802 - reads like a literal
    return Text(en=en, zh=zh)


def gpus(n: int, lang: str) -> str:
    """"1 GPU", "4 GPUs"; in Chinese the article's count of cards: "4 卡"."""
    if lang == "zh":
        return f"{n} 卡"
    return "1 GPU" if n == 1 else f"{n} GPUs"


def machines(n: int, lang: str) -> str:
    if lang == "zh":
        return f"{n} 台机器"
    return "1 machine" if n == 1 else f"{n} machines"


REPORT_TITLE = T("GPU Scaling Advisor — recommendation report", "多卡训练顾问 — 推荐报告")
APP_NAME = T("GPU Scaling Advisor", "多卡训练顾问")

# The article's decision table (F17).
RATING = {
    "not_worth_it": T("Not worth it", "不划算"),
    "optional": T("Optional", "可选"),
    "worth_it": T("Worth it", "划算"),
    "required": T("Multi-GPU required", "必须上多卡"),
}
RATING_COLOUR = {"not_worth_it": "#b3261e", "optional": "#8a6d00", "worth_it": "#1b7f3b",
                 "required": "#1f4fa3"}

PARALLELISM = {
    "data": T("data parallel", "数据并行"),
    "zero": T("DeepSpeed ZeRO (sharded data parallel)", "DeepSpeed ZeRO（分片数据并行）"),
    "zero1": T("ZeRO stage 1", "ZeRO 第 1 阶段"),
    "zero2": T("ZeRO stage 2", "ZeRO 第 2 阶段"),
    "zero3": T("ZeRO stage 3", "ZeRO 第 3 阶段"),
    "fsdp": T("fully sharded data parallel (FSDP)", "全分片数据并行（FSDP）"),
    "tensor": T("model (tensor) parallel", "模型并行（张量并行）"),
    "pipeline": T("pipeline parallel", "流水线并行"),
    "hybrid": T("hybrid (data + model/pipeline)", "混合并行（数据＋模型/流水线）"),
    "auto": T("chosen by the advisor", "由顾问选择"),
}
PARALLELISM_SHORT = {  # for table cells
    "data": T("data", "数据并行"), "zero": T("ZeRO", "ZeRO"), "zero1": T("ZeRO-1", "ZeRO-1"),
    "zero2": T("ZeRO-2", "ZeRO-2"), "zero3": T("ZeRO-3", "ZeRO-3"), "fsdp": T("FSDP", "FSDP"),
    "tensor": T("tensor", "张量并行"), "pipeline": T("pipeline", "流水线并行"),
    "hybrid": T("hybrid", "混合并行"),
}
FRAMEWORK = {
    "ddp": T("PyTorch DDP", "PyTorch DDP"),
    "fsdp": T("PyTorch FSDP", "PyTorch FSDP"),
    "deepspeed": T("DeepSpeed", "DeepSpeed"),
    "megatron": T("Megatron-LM", "Megatron-LM"),
    "horovod": T("Horovod", "Horovod"),
    "torchrec": T("TorchRec (or HugeCTR)", "TorchRec（或 HugeCTR）"),
    "none": T("none needed (one GPU)", "无需（单卡）"),
}
DEPLOYMENT = {
    "own": T("own hardware", "自建"),
    "cloud": T("rent in the cloud", "云实例租用"),
    "either": T("either (about the same cost)", "皆可（成本相近）"),
}
BOTTLENECK = {
    "compute": T("compute", "计算"),
    "communication": T("communication", "通信"),
    "input_pipeline": T("input pipeline", "数据加载"),
    "memory": T("GPU memory", "显存"),
    "synchronisation": T("synchronisation", "同步等待"),
    "pipeline_bubble": T("pipeline bubble", "流水线气泡"),
    "alternating_training": T("alternating training", "交替训练"),
    "virtualization": T("virtualisation", "虚拟化"),
}
SEVERITY = {"info": T("Note", "提示"), "warning": T("Warning", "警告"),
            "critical": T("Critical", "严重")}
SEVERITY_ORDER = {"critical": 0, "warning": 1, "info": 2}
SEVERITY_COLOUR = {"info": "#1f4fa3", "warning": "#8a6d00", "critical": "#b3261e"}
MODE = {"own": T("own hardware", "自建"), "cloud": T("cloud rental", "云上租用"),
        "compare": T("compare own and cloud", "比较自建与租用")}

# Section headings.
H_SUMMARY = T("Summary", "结论")
H_WORKLOAD = T("The workload", "训练任务")
H_PROJECTION = T("Projected speed-up", "预计加速比")
H_COSTS = T("Costs", "成本")
H_PITFALLS = T("Pitfalls and remedies", "注意事项与对策")
H_ADVICE = T("Setting it up", "配置建议")
H_APPENDIX = T("Appendix: the rules that fired and the article facts they rest on",
               "附录：触发的规则及其依据的文章事实")

# Title page.
RECOMMENDED = T("Recommended", "推荐配置")
GPUS_ON_NODES = T("{gpus} on {machines}", "{nodes} 台机器共 {n} 卡")
ONE_GPU = T("1 GPU", "单卡")
KEY_NUMBERS = T("Key numbers at the recommended setup", "推荐配置下的关键数字")
# Review 3, item 2: verdict.runnable False — no setup of this hardware can run the job.
CANNOT_RUN_HERE = T("none: it cannot run on this hardware", "无：这套硬件跑不了")
KEY_NUMBERS_AS_IF = T("Key numbers at {gpus}, as if it could run (it cannot: the model does not "
                      "fit)", "{gpus}下的关键数字，假设能运行（实际跑不了：模型放不下）")
SPEEDUP_VS_ONE = T("Speed-up vs one GPU", "相对单卡的加速比")
RUN_TIME = T("One run", "跑一次")
RUN_TIME_ONE_GPU = T("One run on one GPU", "单卡跑一次")
IF_ONE_GPU_HELD = T("{time} if one GPU held it", "{time}（假如单卡放得下）")
COST_PER_RUN = T("Cost per run", "每次成本")
COST_PER_MONTH = T("Cost per month", "每月成本")
NET_VALUE = T("Net value per month vs one GPU", "相对单卡的每月净收益")
# what a day saved is worth not said: the money without a value on time (rules/README.md)
EXTRA_COST_VS = T("Extra cost per month vs {vs}", "相对{vs}每月多花")
PAYS_IF_DAY_WORTH = T("Pays for itself if a day saved is worth", "省下一天值多少才回本")
AT_LEAST_NOT_SAID = T("at least {money} (you have not said what a day is worth)",
                      "至少 {money}（你还没有说明省下一天值多少）")
ONE_GPU_SHORT = T("one GPU", "单卡")
BREAKEVEN = T("Buy vs rent break-even", "自建与租用回本点")
PARALLELISM_L = T("Parallelism", "并行方式")
FRAMEWORK_L = T("Framework", "框架")
DEPLOYMENT_L = T("Own or rent", "自建还是租用")
INTERCONNECT_L = T("Interconnect", "互联")
INSIDE = T("inside a machine", "机内")
BETWEEN = T("between machines", "机间")
GENERATED = T("Generated {date} from profile “{model}”.", "生成于 {date}，依据训练任务“{model}”。")
RATING_L = T("Rating", "评价")
WATCH_OUT = T("Watch out for (see “Pitfalls and remedies”)", "注意（详见“注意事项与对策”）")

# Workload.
GROUP = {"task": T("Task", "任务"), "model": T("Model", "模型"), "training": T("Training", "训练"),
         "hardware": T("Hardware", "硬件"), "economics": T("Money", "费用"),
         "measured": T("Measured scaling", "实测扩展数据"), "notes": T("Notes", "备注")}
NOT_GIVEN = T("not given", "未填")
INPUTS_LEFT_OUT = T("Inputs left empty are not listed: they are estimated or taken from the "
                    "catalog, and the costs' assumptions name every price used.",
                    "未填写的输入不列出：它们按估算或目录取值，成本部分列出了用到的每个价格。")
USUAL_FOR_CARD = T("the card's usual cooling; it is not sold with open-air coolers",
                   "这款卡的常规散热；它没有开放式风扇的版本")
YES, NO = T("yes", "是"), T("no", "否")
CATALOG_GPU = T("Catalog GPU", "目录中的显卡")
GPU_SPEC = T("{name}: {memory:g} GB, {tflops:g} TFLOPS FP16 dense, {tdp:g} W",
             "{name}：显存 {memory:g} GB，FP16 稠密 {tflops:g} TFLOPS，功耗 {tdp:g} W")
MEASURED_HEAD = T("GPUs|Throughput|Step time (s)", "卡数|吞吐|单步时间（秒）")
FIELD_H = T("Input", "输入项")
VALUE_H = T("Value", "取值")
KEY_H = T("Key in the profile file", "配置文件中的键")

# Projection.
PROJ_HEAD = T("GPUs|Machines|Speed-up (likely range)|Efficiency|One run|Memory per GPU|"
              "Parallelism|Bottleneck",
              "卡数|机器数|加速比（可能区间）|扩展效率|跑一次|每卡显存|并行方式|瓶颈")
DOES_NOT_FIT = T("does not fit", "放不下")
SINGLE_GPU_DOES_NOT_FIT = T("The model does not fit on one GPU: the speed-ups are relative to an "
                            "estimate of one GPU with unlimited memory.",
                            "单卡显存放不下该模型：加速比相对于“显存无限的单卡”的估计值。")
PLOT_SPEEDUP = T("Speed-up by GPU count: the likely range, the ideal linear line and the "
                 "article's typical range (F01).",
                 "不同卡数的加速比：可能区间、理想线性参考线与原文的常见区间（F01）。")
NOTES = T("Notes", "说明")
H_LAYOUTS = T("How the model is split at each count", "各卡数下模型的切分方式")
LAYOUT_HEAD = T("GPUs|Layout|Per GPU|MFU|Memory margin", "卡数|切分方式|每卡吞吐|MFU|显存余量")
LAYOUT_RATE = T("{rate} tokens/s", "{rate} token/秒")
H_GLOSSARY = T("The layouts in one sentence each", "各种切分方式一句话说明")

# Costs.
PER_RUN = T("Per run", "每次训练")
PER_MONTH = T("Per month", "每月")
COST_HEAD_RUN = T("GPUs|One run|GPU-hours|Energy (kWh)|Cloud|Own|Migration share|Cost per run",
                  "卡数|跑一次|卡时|电量（度）|云上租用|自建|迁移分摊|每次成本")
COST_HEAD_MONTH = T("GPUs|Cost per month|Value of time saved|Net value vs one GPU",
                    "卡数|每月成本|省下时间的价值|相对单卡的净收益")
COST_MODE = T("Costs are for: {mode}. Money in {currency}.", "成本口径：{mode}。货币：{currency}。")
BEST_VALUE = T("Best value: {gpus}.", "性价比最高：{gpus}。")
# what a day saved is worth not said: the money without a value on time (rules/README.md)
CHEAPEST = T("Cheapest, with the time saved not valued: {gpus}. Say what a day saved is worth "
             "(economics.time_value) to weigh the time against the money.",
             "不给时间定价时最省钱：{gpus}。说明省下一天值多少（economics.time_value）后，才能把时间与成本放在一起权衡。")
COST_HEAD_MONTH_UNVALUED = T("GPUs|Cost per month|Extra cost vs one GPU|Pays if a day saved is worth",
                             "卡数|每月成本|相对单卡多花|省下一天至少值多少才回本")
BEST_VALUE_UNPRICED = T("Best value: unknown - no cloud price is known for this GPU.",
                        "性价比最高：未知——没有这款显卡的云报价。")
DEADLINE_GPUS = T("Fewest GPUs that meet the deadline: {gpus}.", "满足截止时间的最少卡数：{gpus}。")
DEADLINE_NONE = T("None of the GPU counts considered meets the deadline.",
                  "所考虑的卡数都赶不上截止时间。")
BREAKEVEN_AT = T("Owning {gpus} pays for itself after {months} months.",
                 "自建 {gpus}在 {months} 个月后回本。")
BREAKEVEN_NOTHING_UP_FRONT = T(
    "Owning {gpus} costs nothing up front (the hardware is already paid for): it is cheaper "
    "from the first month.", "自建 {gpus}没有前期投入（硬件已经买好）：从第一个月起就更便宜。")
BREAKEVEN_NEVER = T("Owning {gpus} does not pay for itself within the months shown.",
                    "在所示月数内，自建 {gpus}无法回本。")
OWNING_WINS_ABOVE = T("Owning wins above {hours} training hours a month.",
                      "每月训练超过 {hours} 小时则自建更划算。")
NET_VALUE_NONE = T("Net value per month", "每月净收益")
NET_VALUE_NONE_H = T("Net value", "净收益")
NET_VALUE_VS = T("Net value per month vs {gpus}", "相对 {gpus}的每月净收益")
# review 10, F3: the figure compare prints for the answer, over the user's own setup
NET_VALUE_OVER_YOURS = T("Net value per month over {against} (as compared)",
                         "相对{against}的每月净收益（compare 的基准）")
NET_VALUE_VS_H = T("Net value vs {gpus}", "相对 {gpus}的净收益")
NO_COUNT_RUNS = T("None of the GPU counts considered can hold the model: no best value.",
                  "所考虑的卡数都放不下该模型：没有性价比最高的选择。")
NOT_FITTING_ROWS = T("— : the model does not fit at that GPU count; it cannot run, so the time "
                     "it would save has no value.",
                     "—：该卡数下模型放不下，无法运行，省下时间的价值不计。")
BREAKEVEN_NONE = T("No GPU count considered can run the job: there is nothing to buy or rent.",
                   "所考虑的卡数都跑不了这个任务：没有可买或可租的配置。")
# Review 5, item 8: the recommended count lies beyond the counts projected and costed.
AT_RECOMMENDED = T("At {gpus}", "{gpus}时")
NOT_PROJECTED = T("not projected or costed: the figures cover {low}–{high} GPUs, the setup in the "
                  "profile. For speed-up, run time and cost at {gpus}, set hardware.gpus_per_node "
                  "and hardware.nodes to {n} GPUs and run again.",
                  "未做预测和成本计算：现有数字只覆盖配置文件中的 {low}–{high} 卡。要得到{gpus}的"
                  "加速比、运行时间和成本，请把 hardware.gpus_per_node 与 hardware.nodes 设为共 "
                  "{n} 卡后重新计算。")
NOT_COSTED = T("not costed at {gpus}: the costs cover {low}–{high} GPUs.",
               "{gpus}未计算成本：成本只覆盖 {low}–{high} 卡。")
PLOT_COST = T("Cost per run and per month by GPU count.", "不同卡数的每次成本与每月成本。")
PLOT_BUY_RENT = T("Cumulative cost of owning vs renting {gpus}.",
                  "自建与租用 {gpus}的累计成本。")
ASSUMPTIONS = T("Assumptions", "假设")
CAPEX_H = T("Purchase", "购置费用")
POWER_H = T("Power draw", "功耗")
OWN_NOT_PRICED = T("No card price is known: the own-hardware figures leave out the hardware.",
                   "没有显卡价格：自建成本不含硬件购置费用。")
# Review 3, item 3: one behaviour everywhere when a side has no price (as ``gpu-advisor costs``).
BUY_RENT_NOT_COMPARED = T(
    "Buy vs rent: not compared (a price is missing). {why} Set {field} to compare owning with "
    "renting.",
    "自建还是云实例租用：缺少价格，未比较。{why}填写 {field} 后即可比较。")
CLOUD_NOT_PRICED = T("No cloud offer is known for this GPU: cloud costs are not shown.",
                     "目录中没有该显卡的云上报价：不显示云上成本。")

# Pitfalls and advice.
NO_PITFALLS = T("No pitfall rule fired for this workload.", "本训练任务没有触发任何注意事项规则。")
REMEDY = T("Remedy", "对策")
SOURCES = T("Article facts", "文章依据")
NO_ADVICE = T("No further set-up advice.", "没有其他配置建议。")

# Appendix.
RULE = T("Rule", "规则")
CONCLUSION = T("Conclusion", "结论")
WHY = T("Why", "原因")
OVERRIDDEN = T("Overridden by {rule}: a stronger rule decided the same question.",
               "被 {rule} 覆盖：更强的规则对同一问题给出了结论。")
MATCHED_ON = T("Matched on", "匹配条件")
NO_RULES = T("No rule fired.", "没有触发任何规则。")
ARTICLE = T("Article: “{title}”.", "文章：《{title}》。")
PAGE_OF = T("page {page} of {pages}", "第 {page} 页，共 {pages} 页")

# Set-up advice (F13, F14, F26).
TOPIC_H = T("Topic", "项目")
ADVICE_H = T("Advice", "建议")
WORKERS_L = T("Data-loader workers", "数据加载 worker 数")
WORKERS_ADVICE = T("num_workers 2–4× the GPU count: {low}–{high} for {gpus}.",
                   "num_workers 取卡数的 2–4 倍：{gpus}时为 {low}–{high}。")
WORKERS_NOW = T("The profile has {now}.", "当前配置为 {now}。")
LR_L = T("Learning rate", "学习率")
LR_ADVICE = T("With {factor} data-parallel replicas the global batch grows from {batch} to "
              "{global_batch}: multiply the initial learning rate by {factor} (linear scaling "
              "rule) and warm it up over the first epochs.",
              "{factor} 路数据并行，全局批大小从 {batch} 增至 {global_batch}：初始学习率乘以 "
              "{factor}（学习率线性缩放规则），并在前几个 epoch 做预热（warm-up）。")
# Adam-family optimizers (AdamW, LAMB, 8-bit AdamW): F14's linear rule is for SGD-like
# training; keep the rate or scale it by at most the square root (advisor.verdict.facts.lr_factor).
LR_ADVICE_ADAM = T("With {replicas} data-parallel replicas the global batch grows from {batch} "
                   "to {global_batch}: with an Adam-family optimizer keep the initial learning "
                   "rate or multiply it by at most {factor:.2g} (the square root of {replicas}), "
                   "with a warm-up of a few hundred optimizer steps.",
                   "{replicas} 路数据并行，全局批大小从 {batch} 增至 {global_batch}：Adam 类优化器"
                   "保持初始学习率，或最多乘以 {factor:.2g}（{replicas} 的平方根），并用几百个优化器步"
                   "做预热（warm-up）。")
# The profile holds the global batch (a plan's global_batch, or keep_batch: global): F14's
# rule has nothing to scale.
LR_GLOBAL_HELD = T("The global batch stays {batch} on {gpus} (the profile holds it): the learning "
                   "rate stays as it is.",
                   "{gpus}时全局批大小仍为 {batch}（配置中固定）：学习率保持不变。")
LR_ONE_GPU = T("One GPU: the batch stays {batch} and the learning rate unchanged.",
               "单卡：批大小仍为 {batch}，学习率不变。")
# Tensor or pipeline parallel over all the GPUs: one model replica, one batch (F14, F05, F06).
LR_ONE_REPLICA = T("The {gpus} hold one model replica (tensor or pipeline parallel): the global "
                   "batch stays {batch} and the learning rate unchanged.",
                   "{gpus}共同承载一份模型副本（张量或流水线并行）：全局批大小仍为 {batch}，"
                   "学习率不变。")
MORE_ADVICE = T("From the rules", "规则给出的建议")

# Diagnosis of a measured run (F30, F03): the profile's `measured` section or a CSV.
H_DIAGNOSIS = T("Diagnosis of the measured run", "实测诊断")
MEASURED_SUMMARY = T("Measured: {speedup} on {gpus}, {level} by the article's yardstick (F30). "
                     "Most likely cause: {suspect}. See “Diagnosis of the measured run”.",
                     "实测：{gpus}为 {speedup}，按原文标准属于“{level}”（F30）。最可能的原因：{suspect}。"
                     "详见“实测诊断”。")
DIAG_INTRO = T("Throughput measured at {counts} GPUs ({unit}, {scaling}), compared with one GPU: "
               "why the run scales as it does.",
               "在 {counts} 卡下实测的吞吐（{unit}，{scaling}），与单卡相比：为什么是这样的扩展性。")
DIAG_SCALING = {"weak": T("weak scaling: fixed batch per GPU", "弱扩展：每卡批大小固定"),
                "strong": T("strong scaling: fixed global batch", "强扩展：全局批大小固定")}
DIAG_MEASURED_H = T("Measured speed-up and efficiency", "实测加速比与扩展效率")
DIAG_MEASURED_HEAD = T("GPUs|Throughput ({unit})|Speed-up|Efficiency|Karp–Flatt serial fraction|"
                       "Grade (F30)",
                       "卡数|吞吐（{unit}）|加速比|扩展效率|Karp–Flatt 串行比例|评级（F30）")
DIAG_GRADE = T("Grade (F30)", "评级（F30）")
DIAG_TREND = T("Karp–Flatt trend", "Karp–Flatt 趋势")
DIAG_TREND_NAME = {"flat": T("flat", "平稳"), "rising": T("rising", "上升"),
                   "falling": T("falling", "下降"), "unknown": T("unknown", "未知")}
DIAG_FIT_H = T("The projection refitted to the measurements", "按实测数据重新拟合的预测模型")
DIAG_FIT_INTRO = T("The projection's free parameters, fitted by least squares to the measured "
                   "speed-ups, beside the values the advisor ships with.",
                   "用最小二乘法把预测模型的自由参数拟合到实测加速比，并与顾问自带的默认值对比。")
DIAG_PARAM_HEAD = T("Parameter|Key|Fitted|Shipped", "参数|键|拟合值|默认值")
DIAG_NOT_FITTED = T("not fitted", "未拟合")
DIAG_EXTRA_H = T("Extrapolation with its 80 % band", "外推及其 80% 区间")
DIAG_EXTRA_HEAD = T("GPUs|Refitted speed-up|80 % band|Amdahl's law alone (F03)|Point",
                    "卡数|拟合加速比|80% 区间|仅阿姆达尔定律（F03）|数据点")
DIAG_MEASURED_PT = T("measured", "实测")
DIAG_EXTRAPOLATED = T("extrapolated", "外推")
DIAG_AMDAHL = T("Amdahl's law alone fits a serial fraction of {serial} (F03); the refit misses "
                "the measurements by {misfit} % (rms).",
                "仅用阿姆达尔定律拟合的串行比例为 {serial}（F03）；重新拟合与实测的均方根偏差为 "
                "{misfit}%。")
DIAG_PLATEAU = T("The fit needed a capacity cap per machine: within one machine the speed-up "
                 "levels off; each machine added brings its own data loader, so over more "
                 "machines the extrapolation can still rise.",
                 "拟合需要每台机器的容量上限：在一台机器内加速比趋于平稳；每多一台机器就多一套"
                 "自己的数据加载，所以跨更多机器的外推仍可能上升。")
DIAG_NO_FIT = T("The measurements could not be refitted.", "无法按实测数据重新拟合。")
PLOT_DIAGNOSIS = T("Measured speed-up (dots), the projection refitted to it with its 80 % band, "
                   "Amdahl's law alone and the ideal linear line.",
                   "实测加速比（圆点）、按实测重新拟合的预测及其 80% 区间、仅阿姆达尔定律的曲线"
                   "与理想线性参考线。")
DIAG_SUSPECTS_H = T("Suspects, most likely first", "可能原因（按可能性排序）")
DIAG_SCORE = T("score {score}", "得分 {score}")
DIAG_EVIDENCE = T("Evidence", "证据")
DIAG_NO_SUSPECTS = T("Nothing in the data points at a bottleneck.", "数据中没有指向瓶颈的线索。")
