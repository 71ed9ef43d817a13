"""Diagnosis of the measured run (F30): measured speed-up and efficiency per GPU count with the
F30 grade and the Karp–Flatt serial fraction (F03), the projection refitted to the
measurements with its extrapolation and band, and the ranked suspects with evidence and remedy.

Every number comes from ``advisor.diagnosis.Diagnosis``; the level and parameter names are the
diagnosis's own (``advisor.diagnosis.text_report``), so the report, the CLI and the wizard say
the same thing.
"""

from __future__ import annotations

from advisor.diagnosis.result import Diagnosis, FittedScaling, SuspectReport
from advisor.diagnosis.text_report import LEVEL_LABEL, PARAMETER_LABEL
from advisor.text.i18n import Text, pick
from ui.report import labels as L
from ui.report.formatting import colon, esc, figure, number, percent, table, times
from ui.report.guidance_sections import sources
from ui.report.plot_images import PlotImage

# Grades as the title page colours ratings: poor red, below normal amber, normal and better green.
LEVEL_COLOUR = {"poor": "#b3261e", "below_normal": "#8a6d00", "normal": "#1b7f3b",
                "well_tuned": "#1b7f3b", "superlinear": "#1f4fa3"}


def _level(level: str | None, lang: str) -> str:
    if level is None:
        return "—"
    return (f'<span style="color: {LEVEL_COLOUR.get(level, "#1a1a1a")}">'
            f"{esc(LEVEL_LABEL[level].get(lang))}</span>")


def _measured_html(d: Diagnosis, lang: str) -> str:
    m = d.measured
    header = [esc(h) for h in L.DIAG_MEASURED_HEAD.get(lang).format(unit=m.unit).split("|")]
    rows = [[str(n), esc(number(m.throughput[i])), esc(times(m.speedup[i])),
             esc(percent(m.efficiency[i])),
             "—" if m.karp_flatt[i] is None else f"{m.karp_flatt[i]:.3f}",
             _level(m.grades[i], lang)]
            for i, n in enumerate(m.gpus)]
    c = colon(lang)
    parts = [f"<h3>{esc(L.DIAG_MEASURED_H.get(lang))}</h3>", table(header, rows)]
    if d.grade is not None:
        parts.append(f"<p><b>{esc(L.DIAG_GRADE.get(lang))}{c}</b>{_level(d.grade.level, lang)} "
                     f"— {esc(d.grade.message.get(lang))} {sources(d.grade.sources, lang)}</p>")
    trend = L.DIAG_TREND_NAME[m.karp_flatt_trend].get(lang)
    stop = pick(lang, ". ", "。")
    parts.append(f"<p><b>{esc(L.DIAG_TREND.get(lang))}{c}</b>{esc(trend)}{stop}"
                 f"{esc(m.trend_meaning.get(lang))}</p>")
    return "".join(parts)


def _parameters_html(fit: FittedScaling, lang: str) -> str:
    header = [esc(h) for h in L.DIAG_PARAM_HEAD.get(lang).split("|")]
    names = list(fit.parameters) + [k for k in fit.shipped_parameters if k not in fit.parameters]
    rows = []
    for name in names:
        label = PARAMETER_LABEL.get(name, Text(en=name, zh=name)).get(lang)
        fitted = fit.parameters.get(name)
        shipped = fit.shipped_parameters.get(name)
        rows.append([esc(label), f'<span class="code">{esc(name)}</span>',
                     esc(L.DIAG_NOT_FITTED.get(lang)) if fitted is None else f"{fitted:.4g}",
                     "—" if shipped is None else f"{shipped:.4g}"])
    return (f"<h3>{esc(L.DIAG_FIT_H.get(lang))}</h3><p>{esc(L.DIAG_FIT_INTRO.get(lang))}</p>"
            + table(header, rows, numeric_from=2))


def _extrapolation_html(fit: FittedScaling, lang: str, images: dict[str, PlotImage]) -> str:
    header = [esc(h) for h in L.DIAG_EXTRA_HEAD.get(lang).split("|")]
    rows = []
    for i, n in enumerate(fit.gpus):
        point = (L.DIAG_MEASURED_PT if fit.measured[i] else L.DIAG_EXTRAPOLATED).get(lang)
        row = [str(n), esc(times(fit.speedup[i])),
               esc(f"{fit.speedup_low[i]:.2f}–{fit.speedup_high[i]:.2f}"),
               esc(times(fit.amdahl_speedup[i])), esc(point)]
        rows.append(row if fit.measured[i] else [f"<i>{cell}</i>" for cell in row])
    amdahl = L.DIAG_AMDAHL.get(lang).format(serial=f"{fit.amdahl_serial_fraction:.4f}",
                                            misfit=f"{100 * fit.rms_log_residual:.1f}")
    notes = [amdahl] + ([L.DIAG_PLATEAU.get(lang)] if fit.plateau else [])
    return (f"<h3>{esc(L.DIAG_EXTRA_H.get(lang))}</h3>"
            + figure(images.get("diagnosis"), L.PLOT_DIAGNOSIS.get(lang))
            + table(header, rows) + "".join(f"<p>{esc(note)}</p>" for note in notes))


def _suspect_html(rank: int, s: SuspectReport, lang: str) -> str:
    score = L.DIAG_SCORE.get(lang).format(score=f"{s.score:.2f}")
    score = pick(lang, f"({score})", f"（{score}）")
    evidence = "".join(f"<li>{esc(e.get(lang))}</li>" for e in s.evidence)
    return (f"<h3>{rank}. {esc(s.title.get(lang))} "
            f'<span class="muted">{esc(score)}</span></h3>'
            + (f"<p><b>{esc(L.DIAG_EVIDENCE.get(lang))}{colon(lang)}</b></p><ul>{evidence}</ul>"
               if evidence else "")
            + f"<p><b>{esc(L.REMEDY.get(lang))}{colon(lang)}</b>{esc(s.remedy.get(lang))}</p>"
            f"<p>{sources(s.sources, lang)}</p>")


def diagnosis_html(d: Diagnosis | None, lang: str, images: dict[str, PlotImage]) -> str:
    """The section, on its own pages; empty when there is no diagnosis."""
    if d is None:
        return ""
    m = d.measured
    intro = L.DIAG_INTRO.get(lang).format(
        counts=pick(lang, ", ", "、").join(str(n) for n in m.gpus), unit=m.unit,
        scaling=L.DIAG_SCALING[m.scaling].get(lang))
    parts = [f'<h2 class="pagebreak">{esc(L.H_DIAGNOSIS.get(lang))}</h2>', f"<p>{esc(intro)}</p>",
             _measured_html(d, lang)]
    if d.fit is not None:
        parts += [_parameters_html(d.fit, lang), _extrapolation_html(d.fit, lang, images)]
    else:
        parts.append(f"<p>{esc(L.DIAG_NO_FIT.get(lang))}</p>")
    # The suspects start their own page: each is a heading, evidence and a remedy.
    parts.append(f'<h3 class="pagebreak">{esc(L.DIAG_SUSPECTS_H.get(lang))}</h3>')
    if not d.suspects:
        parts.append(f"<p>{esc(L.DIAG_NO_SUSPECTS.get(lang))}</p>")
    parts += [_suspect_html(rank, s, lang) for rank, s in enumerate(d.suspects, start=1)]
    if d.notes:
        items = "".join(f"<li>{esc(note.get(lang))}</li>" for note in d.notes)
        parts.append(f"<h3>{esc(L.NOTES.get(lang))}</h3><ul>{items}</ul>")
    return "".join(parts)
