"""A diagnosis as plain text, in English or Chinese (the CLI's ``--format text``)."""

from __future__ import annotations

from advisor.diagnosis.result import Diagnosis
from advisor.i18n import Text, pick

LEVEL_LABEL = {
    "poor": Text(en="poor", zh="偏低"),
    "below_normal": Text(en="below normal", zh="低于常见"),
    "normal": Text(en="normal", zh="正常"),
    "well_tuned": Text(en="well tuned", zh="调得很好"),
    "superlinear": Text(en="superlinear?", zh="超线性？"),
}
PARAMETER_LABEL = {
    "busbw_efficiency": Text(en="all-reduce bandwidth efficiency", zh="All-Reduce 带宽效率"),
    "pipeline_stall": Text(en="input stall per GPU doubling", zh="每翻倍卡数的数据等待"),
    "loader_capacity": Text(en="capacity cap per machine (single-GPU steps)",
                            zh="每台机器的容量上限（单卡步数）"),
}


def _fmt(value: float | None, spec: str, dash: str = "—") -> str:
    return dash if value is None else format(value, spec)


def render_text(d: Diagnosis, lang: str = "en") -> str:
    m = d.measured
    out: list[str] = []
    out.append(pick(lang, f"Measured scaling ({m.unit}, {m.scaling} scaling)",
                    f"实测扩展性（{m.unit}，{'弱' if m.scaling == 'weak' else '强'}扩展）"))
    out.append(pick(lang, "  GPUs   throughput  speed-up  efficiency  Karp–Flatt  grade",
                    "  卡数        吞吐     加速比      效率  Karp–Flatt  评级"))
    for i, n in enumerate(m.gpus):
        level = m.grades[i]
        kf = _fmt(m.karp_flatt[i], ">10.3f", f"{'—':>10}")
        out.append(f"  {n:>4}  {m.throughput[i]:>11.4g}  {m.speedup[i]:>7.2f}×  "
                   f"{100 * m.efficiency[i]:>8.0f} %  {kf}"
                   f"  {LEVEL_LABEL[level].get(lang) if level else '—'}")
    out.append(pick(lang, "Karp–Flatt trend: ", "Karp–Flatt 趋势：") + m.trend_meaning.get(lang))
    if d.grade is not None:
        out.append(pick(lang, "Grade (F30): ", "评级（F30）：") + d.grade.message.get(lang))
    if d.fit is not None:
        f = d.fit
        out.append("")
        out.append(pick(lang, "Projection refitted to these measurements (least squares):",
                        "按实测数据重新拟合的预测模型（最小二乘）："))
        for name, value in f.parameters.items():
            label = PARAMETER_LABEL.get(name, Text(en=name, zh=name)).get(lang)
            shipped = f.shipped_parameters.get(name)
            was = "" if shipped is None else pick(lang, f" (default {shipped:.4g})",
                                                   f"（默认 {shipped:.4g}）")
            out.append(f"  {label} ({name}) = {value:.4g}{was}")
        out.append(pick(lang, "  GPUs   fitted   80 % band        Amdahl   ",
                        "  卡数   拟合值   80% 区间         阿姆达尔 "))
        for i, n in enumerate(f.gpus):
            mark = pick(lang, "measured", "实测") if f.measured[i] else \
                pick(lang, "extrapolated", "外推")
            out.append(f"  {n:>4}  {f.speedup[i]:>6.2f}×  {f.speedup_low[i]:>6.2f}–"
                       f"{f.speedup_high[i]:<6.2f}  {f.amdahl_speedup[i]:>6.2f}×   {mark}")
        serial, misfit = f.amdahl_serial_fraction, 100 * f.rms_log_residual
        out.append(pick(lang, f"  Amdahl's law alone: serial fraction {serial:.4f} (F03); rms "
                              f"misfit of the refit {misfit:.1f} %.",
                        f"  仅用阿姆达尔定律：串行比例 {serial:.4f}（F03）；"
                        f"重新拟合的均方根偏差 {misfit:.1f}%。"))
    out.append("")
    if d.suspects:
        out.append(pick(lang, "Suspects, most likely first:", "可能原因（按可能性排序）："))
        for rank, s in enumerate(d.suspects, start=1):
            out.append(f"  {rank}. {s.title.get(lang)} [{s.id}] "
                       + pick(lang, f"score {s.score:.2f}", f"得分 {s.score:.2f}")
                       + f" ({', '.join(s.sources)})")
            for e in s.evidence:
                out.append(f"     - {e.get(lang)}")
            out.append("     " + pick(lang, "Remedy: ", "建议：") + s.remedy.get(lang))
    else:
        out.append(pick(lang, "No suspects: nothing in the data points at a bottleneck.",
                        "没有可疑原因：数据中没有指向瓶颈的线索。"))
    if d.notes:
        out.append("")
        for note in d.notes:
            out.append(pick(lang, "Note: ", "注：") + note.get(lang))
    return "\n".join(out) + "\n"
