"""The projected speed-up: the wizard's plot, a row per GPU count, and the model's notes."""

from __future__ import annotations

from advisor.scaling.project import NOTE_NO_FIT
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
    if not proj.single_gpu_fits and NOTE_NO_FIT.get(lang) not in notes:
        notes.insert(0, L.SINGLE_GPU_DOES_NOT_FIT.get(lang))
    notes = list(dict.fromkeys(notes))
    if notes:
        items = "".join(f"<li>{esc(note)}</li>" for note in notes)
        parts.append(f"<h3>{esc(L.NOTES.get(lang))}</h3><ul>{items}</ul>")
    return "".join(parts)
