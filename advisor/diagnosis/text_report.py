"""A diagnosis as plain text, in English or Chinese (the CLI's ``--format text``)."""

from __future__ import annotations

from advisor.diagnosis.result import Diagnosis
from advisor.text.i18n import Text, pick
from advisor.text.numbers import quantity
from advisor.text.width import pad

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
    "exchange_scale": Text(en="share of the profile's gradient exchange kept",
                           zh="保留的梯度交换量比例"),
    "overhead_scale": Text(en="share of stragglers, coordination and throttling kept",
                           zh="保留的等最慢卡、协调与降频开销比例"),
    "alternating_fraction": Text(en="serial share of alternating training (F21)",
                                 zh="轮流训练的串行比例（F21）"),
    "vgpus_per_physical": Text(en="vGPUs sharing one physical card (F29)",
                               zh="共用一张物理卡的 vGPU 数（F29）"),
}


def cell(text: str, width: int, right: bool = True) -> str:
    """``text`` padded to ``width`` terminal columns (Chinese headers line up with digits)."""
    return pad(text, width, right)


def _row(cells: list[tuple[str, int, bool]]) -> str:
    return "  " + "  ".join(cell(t, w, r) for t, w, r in cells).rstrip()


MEASURED_COLUMNS = (4, 11, 8, 10, 10, 0)
FIT_COLUMNS = (4, 7, 13, 8, 0)


def _fmt(value: float | None, spec: str, dash: str = "—") -> str:
    return dash if value is None else format(value, spec)


def _times(lang: str) -> str:
    """The multiplication sign, "×" in English. Chinese terminals and fonts often draw "×",
    "–" and "—" (East Asian ambiguous width) two columns wide, which shifts every column after
    them: the Chinese tables use ASCII "x" and "-", one column everywhere."""
    return pick(lang, "×", "x")


PLATEAU_NOTE = Text(
    en="The fit needed a capacity cap per machine: within one machine the speed-up levels off "
       "near {cap:.1f}×; each machine added brings its own data loader, so over more machines "
       "the extrapolation can still rise.",
    zh="拟合需要每台机器的容量上限：在一台机器内，加速比在约 {cap:.1f} 倍处趋于平稳；每多一台机器"
       "就多一套自己的数据加载，所以跨更多机器的外推仍可能上升。")


def render_text(d: Diagnosis, lang: str = "en") -> str:
    m = d.measured
    out: list[str] = []
    out.append(pick(lang, f"Measured scaling ({m.unit}, {m.scaling} scaling)",
                    f"实测扩展性（{m.unit}，{'弱' if m.scaling == 'weak' else '强'}扩展）"))
    heads = pick(lang, "GPUs|throughput|speed-up|efficiency|Karp–Flatt|grade",
                 "卡数|吞吐|加速比|效率|Karp-Flatt|评级").split("|")
    w = MEASURED_COLUMNS
    out.append(_row([(h, w[k], k < 5) for k, h in enumerate(heads)]))
    dash = pick(lang, "—", "-")
    for i, n in enumerate(m.gpus):
        level = m.grades[i]
        out.append(_row([(str(n), w[0], True), (quantity(m.throughput[i], 4), w[1], True),
                         (f"{m.speedup[i]:.2f}{_times(lang)}", w[2], True),
                         (f"{100 * m.efficiency[i]:.0f} %", w[3], True),
                         (_fmt(m.karp_flatt[i], ".3f", dash), w[4], True),
                         (LEVEL_LABEL[level].get(lang) if level else dash, w[5], False)]))
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
        heads = pick(lang, "GPUs|fitted|  80 % band|Amdahl|", "卡数|拟合值|  80% 区间|阿姆达尔|")
        w = FIT_COLUMNS
        out.append(_row([(h, w[k], k != 2) for k, h in enumerate(heads.split("|"))]))
        for i, n in enumerate(f.gpus):
            mark = pick(lang, "measured", "实测") if f.measured[i] else \
                pick(lang, "extrapolated", "外推")
            band = f"{f.speedup_low[i]:>6.2f}{pick(lang, '–', '-')}{f.speedup_high[i]:.2f}"
            x = _times(lang)
            out.append(_row([(str(n), w[0], True), (f"{f.speedup[i]:.2f}{x}", w[1], True),
                             (band, w[2], False), (f"{f.amdahl_speedup[i]:.2f}{x}", w[3], True),
                             (mark, w[4], False)]))
        serial, misfit = f.amdahl_serial_fraction, 100 * f.rms_log_residual
        out.append(pick(lang, f"  Amdahl's law alone: serial fraction {serial:.4f} (F03); rms "
                              f"misfit of the refit {misfit:.1f} %.",
                        f"  仅用阿姆达尔定律：串行比例 {serial:.4f}（F03）；"
                        f"重新拟合的均方根偏差 {misfit:.1f}%。"))
        cap = f.plateau_speedup or f.parameters.get("loader_capacity")
        if f.plateau and cap is not None:
            out.append("  " + PLATEAU_NOTE.get(lang).format(cap=cap))
    out.append("")
    if d.suspects:
        out.append(pick(lang, "Suspects, most likely first:", "可能原因（按可能性排序）："))
        for rank, s in enumerate(d.suspects, start=1):
            # the title, not the internal id, in text; JSON keeps the id
            out.append(f"  {rank}. {s.title.get(lang)} "
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
