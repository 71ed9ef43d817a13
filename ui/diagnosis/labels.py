"""Every fixed phrase of the diagnosis page, in English and Simplified Chinese."""

from __future__ import annotations

from advisor.text.i18n import Text


def T(en: str, zh: str) -> Text:  # noqa: N802 - reads like a literal
    return Text(en=en, zh=zh)


L: dict[str, Text] = {
    # the step's name in the wizard's list (issue 34: step names equal page titles)
    "title": T("Check a measured run", "诊断实测结果"),
    "intro": T("Why is my 4-GPU job only 1.8× faster? Enter the throughput (or step time) you "
               "measured at two or more GPU counts, or open a CSV (gpus,throughput). Add "
               "`nvidia-smi dmon` logs taken during the run to find a starving, hot or lagging "
               "GPU.",
               "为什么 4 卡只快了 1.8 倍？填入在两个及以上卡数下实测的吞吐（或每步时间），或打开 CSV"
               "（gpus,throughput）。加上训练时记录的 `nvidia-smi dmon` 日志，可以找出等数据、过热或"
               "拖后腿的显卡。"),
    "gpus": T("GPUs", "卡数"),
    "value": T("Measured value", "实测值"),
    "throughput": T("Throughput (work per second)", "吞吐（每秒处理量）"),
    "step_time": T("Step time (seconds)", "每步时间（秒）"),
    "unit": T("Unit", "单位"),
    "weak": T("Weak scaling: fixed batch per GPU", "弱扩展：每卡批大小固定"),
    "strong": T("Strong scaling: fixed global batch", "强扩展：全局批大小固定"),
    "add_row": T("Add row", "添加一行"),
    "remove_row": T("Remove row", "删除一行"),
    "open_csv": T("Open CSV…", "打开 CSV…"),
    "open_logs": T("Add GPU logs…", "添加显卡日志…"),
    "run": T("Diagnose", "诊断"),
    "no_logs": T("No GPU logs (optional).", "没有显卡日志（可选）。"),
    "logs": T("GPU logs: {n} GPUs from {files}", "显卡日志：{files} 中的 {n} 张卡"),
    "empty": T("Enter measurements and press Diagnose.", "填入测量值后点击“诊断”。"),
    "suspects": T("Suspects, most likely first", "可能原因（按可能性排序）"),
    "no_suspects": T("Nothing in the data points at a bottleneck.", "数据中没有指向瓶颈的线索。"),
    "remedy": T("Remedy:", "建议："),
    # what a screen reader names each view and list by (issue 34)
    "measurements": T("Measurements: GPUs and measured value", "测量值：卡数和实测值"),
    "kind": T("What was measured", "测量的是什么"),
    "scaling": T("How the batch scales", "批大小如何扩展"),
    "plot": T("Measured and projected speed-up", "实测与预测的加速比"),
    "findings": T("Diagnosis and suspects", "诊断结果和可能原因"),
}
