"""The projected speed-up: the wizard's plot, a row per GPU count, and the model's notes."""

from __future__ import annotations

from advisor.scaling.layouts.glossary import glossary
from advisor.scaling.project import says_one_gpu_cannot_hold
from advisor.text.numbers import quantity
from advisor.verdict.result import Recommendation
from ui.report import labels as L
from ui.report.formatting import esc, figure, hours, mark_row, number, percent, table, times
from ui.report.plot_images import PlotImage


def projection_html(rec: Recommendation, lang: str, images: dict[str, PlotImage]) -> str:
    proj = rec.projection
    header = [esc(h) for h in L.PROJ_HEAD.get(lang).split("|")]
    rows = []
    for i, n in enumerate(proj.gpus):
        memory = f"{number(proj.memory_per_gpu_gb[i], 1)} GB"
        if not proj.fits[i]:
            memory += f" ({L.DOES_NOT_FIT.get(lang)})"
        parallelism = L.PARALLELISM_SHORT.get(proj.parallelism[i])
        speedup = (f"{times(proj.speedup[i])} ({proj.speedup_low[i]:.2f}–"
                   f"{proj.speedup_high[i]:.2f})")
        row = [str(n), str(proj.nodes[i]), speedup, percent(proj.efficiency[i]),
               hours(proj.run_hours[i], lang), memory,
               parallelism.get(lang) if parallelism else proj.parallelism[i],
               L.BOTTLENECK[proj.bottleneck[i]].get(lang)]
        rows.append(mark_row([esc(cell) for cell in row], n == rec.verdict.gpus))
    parts = [f'<h2 class="pagebreak">{esc(L.H_PROJECTION.get(lang))}</h2>',
             figure(images.get("speedup"), L.PLOT_SPEEDUP.get(lang)),
             table(header, rows, numeric_from=1)]
    # The model's notes come in both languages when it provides the Chinese (notes_zh).
    notes = list(proj.notes_zh if lang == "zh" and proj.notes_zh else proj.notes)
    # the projection's own notes say when one GPU cannot hold the model; the report's
    # sentence only stands in for a projection that does not (each note said once)
    if not proj.single_gpu_fits and not says_one_gpu_cannot_hold(notes):
        notes.insert(0, L.SINGLE_GPU_DOES_NOT_FIT.get(lang))
    if proj.layout:
        parts.append(layouts_html(rec, lang))
    notes = list(dict.fromkeys(notes))
    if notes:
        items = "".join(f"<li>{esc(note)}</li>" for note in notes)
        parts.append(f"<h3>{esc(L.NOTES.get(lang))}</h3><ul>{items}</ul>")
    return "".join(parts)


def layouts_html(rec: Recommendation, lang: str) -> str:
    """A large model's split per count (tensor x pipeline x data parallel, sharding,
    recomputation, micro-batches), its throughput, MFU and memory margin, and what each
    layout means in one sentence."""
    proj = rec.projection
    header = [esc(h) for h in L.LAYOUT_HEAD.get(lang).split("|")]
    rows = []
    for i, n in enumerate(proj.gpus):
        layout = proj.layout_zh[i] if lang == "zh" and proj.layout_zh else proj.layout[i]
        rate = proj.tokens_per_s_per_gpu[i] if proj.tokens_per_s_per_gpu else None
        per = L.LAYOUT_RATE.get(lang).format(rate=quantity(rate)) if rate else "—"
        margin = f"{number(proj.memory_margin_gb[i], 1)} GB" if proj.memory_margin_gb else "—"
        row = [str(n), layout, per, percent(proj.mfu[i]) if proj.mfu else "—", margin]
        rows.append(mark_row([esc(cell) for cell in row], n == rec.verdict.gpus))
    items = "".join(f"<li><b>{esc(name)}</b> — {esc(text)}</li>"
                    for name, text in glossary(lang))
    return (f"<h3>{esc(L.H_LAYOUTS.get(lang))}</h3>" + table(header, rows, numeric_from=2)
            + f"<h3>{esc(L.H_GLOSSARY.get(lang))}</h3><ul>{items}</ul>")
