"""The title page: the verdict, its headline and the numbers a reader acts on."""

from __future__ import annotations

import math
from datetime import datetime

from advisor.catalog.gpus import resolve_gpu
from advisor.diagnosis.result import Diagnosis
from advisor.diagnosis.text_report import LEVEL_LABEL
from advisor.files.errors import InputError
from advisor.profile import Profile
from advisor.text.i18n import pick
from advisor.verdict.result import Recommendation
from ui.forms.choices import choice_label
from ui.report import labels as L
from ui.report.cost_section import fits_at, fits_count
from ui.report.formatting import colon, esc, hours, money, number, times


def index_of(values: list[int], n: int) -> int | None:
    return values.index(n) if n in values else None


def gpu_name(profile: Profile) -> str:
    try:
        return resolve_gpu(profile.hardware.gpu).name
    except InputError:
        return str(profile.hardware.gpu)


def interconnect(profile: Profile, lang: str) -> str:
    hw = profile.hardware
    inside = L.INSIDE.get(lang) + colon(lang) + choice_label("intra_link", hw.intra_link.value, lang)
    if hw.nodes > 1 or hw.inter_link.value != "none":
        between = choice_label("inter_link", hw.inter_link.value, lang)
        return inside + pick(lang, "; ", "；") + L.BETWEEN.get(lang) + colon(lang) + between
    return inside


def runnable(rec: Recommendation) -> bool:
    """The contract's ``verdict.runnable``: False when the job fits on no setup of this card."""
    return bool(getattr(rec.verdict, "runnable", True))


def buy_rent_compared(rec: Recommendation) -> bool:
    """Both owning and renting priced, as ``gpu-advisor costs`` requires to compare them."""
    return bool(getattr(rec.costs, "own_priced", True) and getattr(rec.costs, "cloud_priced", True))


def recommended_setup(rec: Recommendation, lang: str) -> str:
    v = rec.verdict
    if v.gpus == 1:
        return L.ONE_GPU.get(lang)
    return L.GPUS_ON_NODES.get(lang).format(gpus=L.gpus(v.gpus, lang), n=v.gpus, nodes=v.nodes,
                                            machines=L.machines(v.nodes, lang))


def net_value_label(rec: Recommendation, lang: str) -> str:
    """"Net value per month vs one GPU", or vs the real baseline when one GPU cannot run it."""
    base = getattr(rec, "baseline_gpus", 1)
    if base is None:  # no count can run the job: nothing to compare with ("—" follows)
        return L.NET_VALUE_NONE.get(lang)
    if base == 1:
        return L.NET_VALUE.get(lang)
    return L.NET_VALUE_VS.get(lang).format(gpus=L.gpus(base, lang))


def _covered(counts: list[int]) -> dict[str, int]:
    return {"low": min(counts, default=1), "high": max(counts, default=1)}


def not_costed_text(rec: Recommendation, lang: str) -> str | None:
    """Said plainly when the recommended count lies beyond the counts costed (the job fits only
    on more GPUs than the profile's machines): none of those rows is the recommended setup."""
    n = rec.verdict.gpus
    if n in rec.costs.gpus or not runnable(rec):
        return None
    return L.NOT_COSTED.get(lang).format(gpus=L.gpus(n, lang), **_covered(rec.costs.gpus))


def breakeven_text(rec: Recommendation, lang: str) -> str:
    """When owning beats renting (F31): after how many months, above how many hours a month."""
    bvr = rec.costs.buy_vs_rent
    beyond = not_costed_text(rec, lang)
    if beyond and not fits_count(rec.costs, bvr.gpus):  # not "nothing can run" beside "8 GPUs"
        return beyond
    if not fits_count(rec.costs, bvr.gpus) or not runnable(rec):  # no setup: no break-even
        return L.BREAKEVEN_NONE.get(lang)
    if not buy_rent_compared(rec):
        own = not rec.costs.own_priced
        why = L.OWN_NOT_PRICED if own else L.CLOUD_NOT_PRICED
        field = "economics.gpu_price" if own else "economics.cloud_price_per_gpu_hour"
        return L.BUY_RENT_NOT_COMPARED.get(lang).format(why=why.get(lang), field=field)
    if bvr.breakeven_months is None:
        text = L.BREAKEVEN_NEVER.get(lang).format(gpus=L.gpus(bvr.gpus, lang))
    elif bvr.breakeven_months < 0.05:  # cards already owned (price 0)
        text = L.BREAKEVEN_NOTHING_UP_FRONT.get(lang).format(gpus=L.gpus(bvr.gpus, lang))
    else:
        text = L.BREAKEVEN_AT.get(lang).format(gpus=L.gpus(bvr.gpus, lang),
                                               months=number(bvr.breakeven_months, 1))
    if bvr.breakeven_hours_per_month is not None and not (
            bvr.breakeven_months is not None and bvr.breakeven_months < 0.05):
        text += pick(lang, " ", "") + L.OWNING_WINS_ABOVE.get(lang).format(
            hours=number(round(bvr.breakeven_hours_per_month)))
    return text


def unvalued_rows(rec: Recommendation, c: int, lang: str) -> list[str]:
    """What a day saved is worth not said: no net value (it would count the time saved as
    worth nothing, which nobody said) but the extra cost a month and the value of a day that
    pays for it (F02; rules/README.md, "What time is worth")."""
    costs, base = rec.costs, getattr(rec, "baseline_gpus", 1) or 1
    vs = L.ONE_GPU_SHORT.get(lang) if base == 1 else L.gpus(base, lang)
    extra = costs.cost_per_month[c] - (costs.baseline_cost_per_month or 0.0)
    rows = [_row(L.EXTRA_COST_VS.get(lang).format(vs=vs), esc(money(extra, costs.currency)))]
    to_pay = costs.day_value_to_pay(rec.verdict.gpus)
    if to_pay is not None and extra > 0:
        rows.append(_row(L.PAYS_IF_DAY_WORTH.get(lang),
                         esc(L.AT_LEAST_NOT_SAID.get(lang).format(
                             money=money(float(math.ceil(to_pay)), costs.currency)))))
    return rows


def pitfall_summary(rec: Recommendation, lang: str) -> str:
    """The pitfalls' titles, worst first, so the warnings are seen on the first page."""
    if not rec.pitfalls:
        return ""
    items = "".join(
        f'<li><span style="color: {L.SEVERITY_COLOUR[p.severity]}">'
        f"[{esc(L.SEVERITY[p.severity].get(lang))}]</span> {esc(p.title.get(lang))}</li>"
        for p in sorted(rec.pitfalls, key=lambda p: L.SEVERITY_ORDER[p.severity]))
    return f"<h3>{esc(L.WATCH_OUT.get(lang))}</h3><ul>{items}</ul>"


def in_short(rec: Recommendation, lang: str) -> str:
    """The answer in five lines (issue 29: do this, why, cost, main risk, next step), the
    same lines `gpu-advisor recommend` prints first."""
    from advisor.verdict.summary import LABELS

    if not rec.summary:
        return ""
    sep = colon(lang)
    return "".join(f'<p style="font-size: 11pt"><b>{esc(LABELS[line.key].get(lang))}{sep}</b>'
                   f"{esc(line.text.get(lang))}</p>" for line in rec.summary)


def _row(label: str, value: str) -> str:
    return (f'<tr><td width="38%" bgcolor="#eef1f6"><b>{esc(label)}</b></td>'
            f"<td>{value}</td></tr>")


def measured_summary(diagnosis: Diagnosis | None, lang: str) -> str:
    """The measured run's F30 grade on the first page, pointing to its diagnosis."""
    if diagnosis is None or diagnosis.grade is None:
        return ""
    g = diagnosis.grade
    top = diagnosis.suspects[0].title.get(lang) if diagnosis.suspects else "—"
    text = L.MEASURED_SUMMARY.get(lang).format(speedup=times(g.speedup), gpus=L.gpus(g.gpus, lang),
                                               level=LEVEL_LABEL[g.level].get(lang), suspect=top)
    return f"<h3>{esc(L.H_DIAGNOSIS.get(lang))}</h3><p>{esc(text)}</p>"


def summary_html(rec: Recommendation, profile: Profile, lang: str, generated: datetime,
                 diagnosis: Diagnosis | None = None) -> str:
    v, proj, costs = rec.verdict, rec.projection, rec.costs
    rating = L.RATING[v.rating].get(lang)
    colour = L.RATING_COLOUR[v.rating]
    rows = []
    i = index_of(proj.gpus, v.gpus)
    if i is not None:
        band = f"{times(proj.speedup_low[i])} – {times(proj.speedup_high[i])}"
        rows.append(_row(L.SPEEDUP_VS_ONE.get(lang),
                         f"<b>{times(proj.speedup[i])}</b> <span class='muted'>({band})</span>"))
        if v.gpus > 1 and runnable(rec):  # one GPU's run time is the next row
            setup = recommended_setup(rec, lang)
            rows.append(_row(L.RUN_TIME.get(lang) + pick(lang, f" ({setup})", f"（{setup}）"),
                             esc(hours(proj.run_hours[i], lang))))
    elif v.gpus > 1:  # beyond the counts projected: say so, not figures of another count
        rows.append(_row(L.AT_RECOMMENDED.get(lang).format(gpus=L.gpus(v.gpus, lang)),
                         esc(L.NOT_PROJECTED.get(lang).format(
                             gpus=L.gpus(v.gpus, lang), n=v.gpus, **_covered(proj.gpus)))))
    one = hours(proj.run_hours_one_gpu or profile.run_hours_one_gpu, lang)
    if not getattr(proj, "single_gpu_fits", True):  # the speed-ups' reference, not a run
        one = L.IF_ONE_GPU_HELD.get(lang).format(time=one)
    rows.append(_row(L.RUN_TIME_ONE_GPU.get(lang), esc(one)))
    c = index_of(costs.gpus, v.gpus)
    if c is None and i is not None and (beyond := not_costed_text(rec, lang)):
        rows.append(_row(L.COST_PER_RUN.get(lang), esc(beyond)))  # projected, not costed
    if c is not None and not costs.mode_priced:  # renting with no cloud price: no figure
        rows.append(_row(L.COST_PER_RUN.get(lang), "—"))
    elif c is not None:
        rows.append(_row(L.COST_PER_RUN.get(lang), esc(money(costs.cost_per_run[c], costs.currency))))
        rows.append(_row(L.COST_PER_MONTH.get(lang),
                         esc(money(costs.cost_per_month[c], costs.currency))))
        if getattr(rec, "baseline_gpus", 1) != v.gpus:  # not "vs 8 GPUs" at 8 GPUs
            rows += unvalued_rows(rec, c, lang) if not getattr(costs, "time_value_given", True) \
                and fits_at(costs, c) else [
                _row(net_value_label(rec, lang),
                     esc(money(costs.net_value_per_month[c], costs.currency)
                         if fits_at(costs, c) else "—"))]
        over = rec.over_yours_apart()
        if over is not None:
            rows.append(_row(L.NET_VALUE_OVER_YOURS.get(lang).format(
                against=pick(lang, over.against.en, over.against.zh)),
                esc(money(over.net_value_per_month, costs.currency))))
    rows.append(_row(L.BREAKEVEN.get(lang), esc(breakeven_text(rec, lang))))
    parallelism = "—" if v.gpus == 1 else L.PARALLELISM[v.parallelism].get(lang)
    rows.append(_row(L.PARALLELISM_L.get(lang), esc(parallelism)))
    rows.append(_row(L.FRAMEWORK_L.get(lang), esc(L.FRAMEWORK[v.framework].get(lang))))
    # Nothing to buy or rent when it cannot run here: no "rent in the cloud" beside that.
    deployment = L.DEPLOYMENT[v.deployment].get(lang) if runnable(rec) else "—"
    rows.append(_row(L.DEPLOYMENT_L.get(lang), esc(deployment)))
    rows.append(_row(L.INTERCONNECT_L.get(lang), esc(interconnect(profile, lang))))
    task = choice_label("task", profile.task.value, lang)
    setup = recommended_setup(rec, lang) if runnable(rec) else L.CANNOT_RUN_HERE.get(lang)
    keys = (L.KEY_NUMBERS.get(lang) if runnable(rec)
            else L.KEY_NUMBERS_AS_IF.get(lang).format(gpus=recommended_setup(rec, lang)))
    generated_line = L.GENERATED.get(lang).format(date=generated.strftime("%Y-%m-%d %H:%M"),
                                                   model=profile.model.name)
    return f"""
<p class="muted">{esc(L.APP_NAME.get(lang))}</p>
<h1>{esc(L.REPORT_TITLE.get(lang))}</h1>
<p><b>{esc(profile.model.name)}</b> · {esc(task)} · {esc(gpu_name(profile))}</p>
<p>&nbsp;</p>
<table width="100%" cellspacing="0" cellpadding="10" border="0" bgcolor="#f6f8fb">
<tr><td>
<p class="muted">{esc(L.RATING_L.get(lang))}</p>
<p style="font-size: 26pt; font-weight: bold; color: {colour}">{esc(rating)}</p>
<p style="font-size: 13pt"><b>{esc(L.RECOMMENDED.get(lang))}{colon(lang)}</b>{esc(setup)}</p>
{in_short(rec, lang)}
<p style="font-size: 9pt" class="muted">{esc(v.headline.get(lang))}</p>
</td></tr></table>
<h3>{esc(keys)}</h3>
<table class="keys" width="100%" cellspacing="0" cellpadding="4" border="0">{"".join(rows)}</table>
{pitfall_summary(rec, lang)}
{measured_summary(diagnosis, lang)}
<p>&nbsp;</p>
<p class="muted">{esc(generated_line)}</p>
"""
