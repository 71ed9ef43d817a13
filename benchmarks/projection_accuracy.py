"""Accuracy of the projected speed-up on published measurements, through the real path a
user's profile takes, against three baselines on the same folds.

    .venv/bin/python -m benchmarks.projection_accuracy

Every series of benchmarks/data/scaling-dev.csv with a known per-GPU batch becomes the
profile its user would fill (``series_profiles.profile_for``) and is projected by
``advisor.scaling.project`` with parameters fitted without the series' fold. Headline: leave
one *source* out (publisher x snapshot, ``projection_eval.source``); beside it, leave one
model family out. Baselines on the same folds: linear N x, the article's table (F04) and
Amdahl's law with one serial fraction fitted on the training folds. The 80 % band is
calibrated on the other folds' out-of-sample residuals and scored on the held-out fold.
Quality-flagged series are scored separately. Writes benchmarks/results/projection_accuracy.md.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from advisor.profile import Profile
from advisor.scaling.parameters import ScalingParams, load_params
from benchmarks import band_chance as bc
from benchmarks import projection_eval as ev
from benchmarks.profile_points import ProfilePoints, agreement, flatten
from benchmarks.scaling_series import Series, load_series
from benchmarks.series_profiles import profile_for, projected

OUT = Path(__file__).resolve().parent / "results" / "projection_accuracy.md"
PROJECTION = "projection"
BASELINES = ("linear N x", "article table", "Amdahl (1 parameter)")


@dataclass
class Scored:
    """The series, their profiles and points, and every method's out-of-fold speed-ups."""

    series: list[Series]
    profiles: list[Profile]
    points: ProfilePoints
    labels: np.ndarray
    params: dict[str, ScalingParams]
    preds: dict[str, np.ndarray]  # method -> speed-up per point
    covered: np.ndarray  # inside the 80 % band calibrated without the point's fold
    inputs: ev.BandInputs | None = None  # what the band reads of each point
    bands: dict[str, ev.Band] | None = None  # each fold's band (calibrated without it)


def _points(series: list[Series], profiles: list[Profile]) -> ProfilePoints:
    return flatten(profiles, [s.gpus for s in series], [s.baseline for s in series],
                   [s.actual for s in series])


def through_project(series: list[Series], profiles: list[Profile], points: ProfilePoints,
                    params_of: list[ScalingParams | None]) -> np.ndarray:
    """Every point's speed-up from ``advisor.scaling.project`` (one call per series)."""
    out = [projected(s, pr, p)[0] for s, pr, p in zip(series, profiles, params_of, strict=True)]
    return np.concatenate(out) if out else np.empty(0)


def _per_fold_project(series: list[Series], profiles: list[Profile], points: ProfilePoints,
                      labels: np.ndarray, params: dict[str, ScalingParams]) -> np.ndarray:
    """Every point's speed-up from ``project`` with the parameters of its own fold: one call
    per series and fold (a series whose points span two regimes is projected twice)."""
    out = np.empty_like(points.actual)
    for i, (s, pr) in enumerate(zip(series, profiles, strict=True)):
        mine = np.flatnonzero(points.series == i)
        for g in sorted(set(labels[mine].tolist())):
            got = np.asarray(projected(s, pr, params[g])[0])
            take = labels[mine] == g
            out[mine[take]] = got[take]
    return out


def score(series: list[Series], profiles: list[Profile], by: str,
          points: ProfilePoints | None = None, fit_points: ProfilePoints | None = None,
          band: bool = True) -> Scored:
    """Out-of-fold projections of ``profiles`` through ``project`` (folds by ``source``,
    ``family`` or ``regime``; each fold's parameters fitted on ``fit_points`` without it, by
    default the same profiles), the baselines on the same folds, and the out-of-sample
    coverage of the conformal band (``band=False``: not computed). The band of a held-out
    regime is calibrated on the other regimes by leaving their sources out in turn."""
    points = points or _points(series, profiles)
    labels = ev.fold_labels(series, points, by)
    params = ev.fold_params(fit_points or points, labels)
    ours = _per_fold_project(series, profiles, points, labels, params)
    stacked = ev.out_of_fold(points, labels, params)
    assert np.max(np.abs(stacked / ours - 1.0)) < 1e-3, "stacked fit inputs != project()"
    covered = np.zeros_like(points.actual, dtype=bool)
    inner = ev.fold_labels(series, points, "source") if by == "regime" else labels
    inputs = ev.band_inputs(points, profiles) if band else None
    bands: dict[str, ev.Band] = {}
    for g in sorted(set(labels)) if band else ():
        held = labels == g
        bands[g] = ev.calibrate_band(inputs.subset(~held), ours[~held],
                                     points.actual[~held], inner[~held])
        covered[held] = ev.coverage(inputs.subset(held), ours[held], points.actual[held],
                                    bands[g])
    preds = {PROJECTION: ours, "linear N x": ev.linear(points),
             "article table": ev.article(points),
             "Amdahl (1 parameter)": ev.amdahl_out_of_fold(points, labels)}
    return Scored(series, profiles, points, labels, params, preds, covered, inputs, bands)


def _errors(pred: np.ndarray, actual: np.ndarray) -> np.ndarray:
    return np.abs(pred / actual - 1.0) * 100.0


def multi_machine(points: ProfilePoints) -> np.ndarray:
    return points.gpus > points.at_n.gpus_per_node


def summary(sc: Scored, band: bool = True) -> dict[str, float]:
    """MAPE of the projection: all, one machine, several machines; band coverage."""
    e = _errors(sc.preds[PROJECTION], sc.points.actual)
    multi = multi_machine(sc.points)
    return {"all": e.mean(), "single": e[~multi].mean(), "multi": e[multi].mean(),
            "median": float(np.median(e)),
            "coverage": 100.0 * sc.covered.mean() if band else float("nan")}


def table(title: str, groups: dict[str, np.ndarray], sc: Scored,
          coverage: bool = True) -> list[str]:
    methods = (PROJECTION, *BASELINES)
    head = "| group | points | " + " | ".join(f"{m} MAPE %" for m in methods)
    head += " | 80 % band holds |" if coverage else " |"
    lines = [f"### {title}", "", head,
             "|---|---:|" + "---:|" * len(methods) + ("---:|" if coverage else "")]
    for name, mask in groups.items():
        if not mask.any():
            continue
        cells = [f"{_errors(sc.preds[m][mask], sc.points.actual[mask]).mean():.1f}"
                 for m in methods]
        tail = f" | {100 * sc.covered[mask].mean():.0f} %" if coverage else ""
        lines.append(f"| {name} | {int(mask.sum())} | " + " | ".join(cells) + tail + " |")
    return lines + [""]


def _by(labels: list[str]) -> dict[str, np.ndarray]:
    arr = np.array(labels)
    return {label: arr == label for label in sorted(set(labels))}


def regimes(sc: Scored) -> dict[str, np.ndarray]:
    """The band's regimes: one machine with NVLink/NVSwitch, one machine with PCIe (and
    NVLink bridges), several machines."""
    multi = multi_machine(sc.points)
    return {"one machine, NVLink / NVSwitch": ~multi & sc.points.nvlink,
            "one machine, PCIe / bridges": ~multi & ~sc.points.nvlink,
            "several machines": multi}


def variant(series: list[Series], by: str, fit_points: ProfilePoints,
            **options) -> dict[str, float]:
    """The headline's summary (no band) with the profiles filled differently
    (``profile_for`` options), each fold fitted on ``fit_points``; defaults-path variants
    hide the measured throughput."""
    profiles = [profile_for(s, **options) for s in series]
    if options.get("measured", True):
        return summary(score(series, profiles, by, fit_points=fit_points, band=False), False)
    # without a measured throughput the memory estimate may pick another layout, which the
    # stacked fit cannot follow: the folds' parameters come from the measured profiles
    points = _points(series, [profile_for(s) for s in series])
    labels = ev.fold_labels(series, points, by)
    params = ev.fold_params(fit_points, labels)
    fold_of = {int(i): str(g) for i, g in zip(points.series, labels, strict=True)}
    ours = through_project(series, profiles, points,
                           [params[fold_of[i]] for i in range(len(series))])
    e = _errors(ours, points.actual)
    multi = multi_machine(points)
    return {"all": e.mean(), "single": e[~multi].mean(), "multi": e[multi].mean(),
            "median": float(np.median(e)), "coverage": float("nan")}


def _row(name: str, values: dict[str, float]) -> str:
    cov = "—" if np.isnan(values["coverage"]) else f"{values['coverage']:.0f} %"
    return (f"| {name} | {values['all']:.2f} | {values['single']:.2f} | "
            f"{values['multi']:.2f} | {values['median']:.2f} | {cov} |")


def report() -> str:
    series, skipped = load_series()
    clean = [s for s in series if not s.flagged]
    flagged = [s for s in series if s.flagged]
    profiles = [profile_for(s) for s in clean]  # input sizes left at auto, as users do
    points = _points(clean, profiles)
    # fitted on what each job's inputs are (training.input_sizes stated), as shipped
    fit_points = _points(clean, [profile_for(s, input_sizes="stated") for s in clean])
    loso = score(clean, profiles, "source", points, fit_points)
    lofo = score(clean, profiles, "family", points, fit_points)
    shipped = load_params()
    in_sample = through_project(clean, profiles, points, [shipped] * len(clean))
    lines = [
        "# Projection accuracy on published multi-GPU measurements", "",
        "Generated by `benchmarks/projection_accuracy.py` from `benchmarks/data/scaling-dev.csv`"
        f" ({len(series) + len(skipped)} series). Scored: {len(clean)} series with a known "
        f"per-GPU batch and no quality flag, {len(points.actual)} points (each GPU count above "
        f"the series' baseline). Left out: {len(skipped)} series without a batch per GPU; "
        f"{len(flagged)} quality-flagged series are scored separately below.", "",
        "Each series is the profile its user would fill (`benchmarks/series_profiles.py`: "
        "task, parameters, GPU, machines and links, precision, batch per GPU, gradient "
        "accumulation, whether the global batch is held, the measured single-GPU throughput in "
        "the source's unit with a data set size and epochs; the sequence length empty unless "
        "the throughput counts tokens or frames; a tuned input pipeline in a server chassis) "
        "and is projected by `advisor.scaling.project` with parameters fitted without its fold "
        f"(the stacked fit path agrees with `project` to {agreement(points, in_sample, shipped):.1e}). "
        "The input sizes are left at `auto` (by task), as a user who does not touch that field; "
        "the folds are fitted on the same series with the input sizes stated "
        "(`series_profiles.stated_input_sizes`), as the shipped parameters are.",
        "",
        "Error = |predicted speed-up / measured speed-up - 1| over the series' baseline count. "
        "Folds: *leave one source out* (publisher x snapshot: "
        + ", ".join(sorted(set(loso.labels))) + "); *leave one model family out* (" +
        ", ".join(sorted(set(lofo.labels))) + "); *leave one regime out* (one NVLink / "
        "NVSwitch machine, one PCIe machine, several machines). Amdahl's serial fraction is "
        "fitted on the "
        "training folds of the same split. *80 % band holds*: share of the held-out fold's "
        "measured speed-ups inside the band calibrated on the other folds' out-of-sample "
        "residuals (`projection_eval.calibrate_band`).", ""]
    multi = multi_machine(points)
    everything = {"all": np.ones_like(multi), "one machine": ~multi,
                  "several machines": multi}
    lines += table("Leave one source out (headline)", everything, loso)
    lines += table("Leave one model family out", everything, lofo)
    lines += table("Band coverage by regime (leave one source out)", regimes(loso), loso)
    lines += table("Band coverage by regime (leave one model family out)", regimes(lofo), lofo)
    lorr = score(clean, profiles, "regime", points, fit_points)
    lines += table("Leave one regime out (each regime predicted, and its band calibrated, "
                   "without any of its points)", regimes(lorr), lorr)
    lines += _band_notes(loso, {"leave one source out": loso, "leave one family out": lofo,
                                "leave one regime out": lorr})
    per = [loso.series[i] for i in points.series]
    lines += table("By source (each predicted by the fit without it)", _by(
        [ev.source(s) for s in per]), loso)
    lines += table("By GPU count (leave one source out)", _by(
        [f"N = {int(n):>3d}" for n in points.gpus]), loso)
    lines += table("By task (leave one source out)", _by([s.task for s in per]), loso)
    lines += table("By link (leave one source out)", _by(
        [s.link + ("+" + s.inter if s.inter != "none" else "") for s in per]), loso)
    e_in = _errors(in_sample, points.actual)
    lines += ["### In-sample (shipped parameters, fitted on every source)", "",
              f"MAPE {e_in.mean():.2f} % (one machine {e_in[~multi].mean():.2f} %, several "
              f"machines {e_in[multi].mean():.2f} %), median {np.median(e_in):.2f} %. The "
              "out-of-sample figures above are the ones to quote.", ""]
    lines += ["### The same folds with the profiles filled differently", "",
              "| profiles | all | one machine | several machines | median | band holds |",
              "|---|---:|---:|---:|---:|---:|",
              _row("headline (leave one source out)", summary(loso)),
              _row("input sizes stated (`training.input_sizes` from the model)",
                   variant(clean, "source", fit_points, input_sizes="stated")),
              _row("input pipeline left at its default (typical)",
                   variant(clean, "source", fit_points, pipeline="typical")),
              _row("cooling left at its default (open-air)",
                   variant(clean, "source", fit_points, cooling="open_air")),
              _row("no measured throughput (run hours only: the defaults path)",
                   variant(clean, "source", fit_points, measured=False)), ""]
    lines += _worst(loso)
    lines += unit_check(series)
    lines += _flagged(flagged, shipped)
    lines += _rerun_note(clean, loso)
    return "\n".join(lines)


def band_regimes(sc: Scored) -> dict[str, np.ndarray]:
    """The regimes the band must hold in: the three of the folds, then the flags that widen it
    (``advisor.scaling.band``) and the points with none of them."""
    inputs = sc.inputs
    short = load_params().band_short_step_s
    flagged = inputs.no_p2p | (inputs.work_s < short) | inputs.ethernet | inputs.default_loader
    return {**regimes(sc),
            "no peer-to-peer (GeForce on PCIe)": inputs.no_p2p,
            "little work per GPU (micro-batch under 0.1 s)": inputs.work_s < 0.1,
            f"micro-batch under {short:g} s (band widened)": inputs.work_s < short,
            "Ethernet / RoCE between machines": inputs.ethernet,
            "default or starved input pipeline": inputs.default_loader,
            f"none of these (plain: micro-batch of {short:g} s or more)": ~flagged}


def band_coverage_table(folds: dict[str, Scored]) -> list[str]:
    """Coverage of the band in every regime under each fold scheme, with its 95 %
    Clopper-Pearson interval (points of one series are correlated: the true interval is
    wider)."""
    first = next(iter(folds.values()))
    names = list(band_regimes(first))
    head = "| regime | points | " + " | ".join(f"{k}: holds (95 % interval)" for k in folds)
    lines = [head + " |", "|---|---:|" + "---:|" * len(folds)]
    for name in names:
        n = int(band_regimes(first)[name].sum())
        cells = []
        for sc in folds.values():
            mask = band_regimes(sc)[name]
            if not mask.any():
                cells.append("no point")
                continue
            hits = int(sc.covered[mask].sum())
            lo, hi = ev.binomial_interval(hits, int(mask.sum()))
            cells.append(f"{100 * hits / mask.sum():.0f} % ({100 * lo:.0f}-{100 * hi:.0f})")
        lines.append(f"| {name} | {n} | " + " | ".join(cells) + " |")
    return lines + [""]


def _band_notes(sc: Scored, folds: dict[str, Scored]) -> list[str]:
    """Why the band is what it is: the error's growth with the doublings, the coverage in
    every regime, and the shipped band's width in each flagged regime."""
    one = (sc.points.baseline == 1) & ~multi_machine(sc.points)
    err = np.abs(np.log(sc.preds[PROJECTION] / sc.points.actual))
    growth = ", ".join(f"{int(n)} GPUs {np.quantile(err[one & (sc.points.gpus == n)], 0.8):.3f}"
                       for n in (2, 4, 8))
    return ["80th percentile of |log error| (one machine, baseline 1 GPU, leave one source "
            f"out): {growth}; the lower edge widens with the square root of the doublings.", "",
            "### Band coverage in every regime (each fold's band calibrated without it)", "",
            *band_coverage_table(folds), *band_chance_lines(folds), *shipped_band_widths()]


def band_chance_lines(folds: dict[str, Scored]) -> list[str]:
    """The measured cells outside 78-85 % against what a perfectly calibrated band would show
    on cells of the same sizes (``benchmarks.band_chance``)."""
    schemes = [list(band_regimes(sc).values()) for sc in folds.values()]
    series = next(iter(folds.values())).points.series
    seen, cells = bc.observed_outside(schemes, [sc.covered for sc in folds.values()])
    free = bc.ideal_band_outside(schemes, series, together=False)
    tied = bc.ideal_band_outside(schemes, series, together=True)
    return [f"Cells outside 78-85 %: {seen} of {cells}. A band that holds exactly 80 % of "
            "unseen points would leave, on cells of these sizes, "
            f"{free.mean_outside:.1f} of them outside on average with independent points "
            f"(every cell inside in {100 * free.all_inside:.2f} % of draws), "
            f"{tied.mean_outside:.1f} with each series' points inside or outside together "
            f"({100 * tied.all_inside:.2f} %): `benchmarks/band_chance.py`, 4,000 draws.", ""]


def shipped_band_widths() -> list[str]:
    """The shipped band at 8 GPUs of one machine around a projection of 7x, in each regime
    (what the flags do to it)."""
    from advisor.scaling.band import band_log_edges

    p = load_params()
    cases = {"plain (peer-to-peer, 1 s of compute per micro-batch)": {},
             "no peer-to-peer": {"no_p2p": True},
             "little work per GPU (50 ms per micro-batch)": {"work": 0.05},
             "default input pipeline": {"default_loader": True},
             "2 x 8 GPUs over InfiniBand (16 GPUs)": {"machines": 1.0},
             "2 x 8 GPUs over Ethernet / RoCE (16 GPUs)": {"machines": 1.0, "ethernet": True}}
    rows = ["Shipped band around a projection at 87.5 % efficiency (8 GPUs: 7x; 16 GPUs: 14x):",
            "", "| regime | low x | high x |", "|---|---:|---:|"]
    for name, case in cases.items():
        machines = case.get("machines", 0.0)
        ideal = 8.0 * 2 ** machines
        low, high = band_log_edges(np.array([3.0]), np.array([machines]),
                                   np.array([np.log(1 / 0.875)]),
                                   np.array([case.get("work", 1.0)]), p,
                                   no_p2p=case.get("no_p2p", False),
                                   ethernet=case.get("ethernet", False),
                                   default_loader=case.get("default_loader", False))
        speed = 0.875 * ideal
        rows.append(f"| {name} | {speed * np.exp(low[0]):.2f} | "
                    f"{min(speed * np.exp(high[0]), ideal):.2f} |")
    return rows + [""]


def unit_check(series: list[Series]) -> list[str]:
    """The impossible-throughput check on the data set's own rates, and on its token rates
    typed as samples per second (the mistake it is for)."""
    from advisor.catalog.gpus import resolve_gpu
    from advisor.profile import ThroughputUnit
    from advisor.scaling.throughput_check import impossible_throughput

    flagged = wrong = tokens = 0
    for s in series:
        p = profile_for(s)
        gpu = resolve_gpu(p.hardware.gpu, p.hardware.intra_link)
        flagged += impossible_throughput(p, gpu) is not None
        if p.training.throughput_unit == ThroughputUnit.tokens:
            tokens += 1
            typed = p.model_copy(update={
                "training": p.training.model_copy(update={"throughput_unit":
                                                          ThroughputUnit.samples}),
                "model": p.model.model_copy(update={"sequence_length": None})})
            wrong += impossible_throughput(typed, gpu) is not None
    return ["### Impossible-throughput check on these rates", "",
            f"Published single-GPU rates flagged as a likely unit mistake: {flagged} of "
            f"{len(series)}. Token rates typed as samples per second (sequence length "
            f"left empty) flagged: {wrong} of {tokens} (the rest are Transformer-big's, whose "
            "batch counts tokens too: one token is one sample there).", ""]


def _worst(sc: Scored) -> list[str]:
    e = _errors(sc.preds[PROJECTION], sc.points.actual)
    lines = ["### Ten worst points (leave one source out)", "",
             "| series | N | measured | projected | error % |", "|---|---:|---:|---:|---:|"]
    for i in np.argsort(-e)[:10]:
        s = sc.series[sc.points.series[i]]
        lines.append(f"| {s.sid} ({s.gpu}, {s.link}) | {int(sc.points.gpus[i])} | "
                     f"{sc.points.actual[i]:.2f} | {sc.preds[PROJECTION][i]:.2f} | {e[i]:.0f} |")
    return lines + [""]


def _flagged(flagged: list[Series], shipped: ScalingParams) -> list[str]:
    if not flagged:
        return []
    errors = []
    for s in flagged:
        try:
            got, _ = projected(s, profile_for(s), shipped)
        except Exception:  # noqa: BLE001 - a broken row must not stop the report
            continue
        errors += list(_errors(np.array(got), np.array(s.actual)))
    e = np.array(errors)
    return ["### Quality-flagged series (scored separately, shipped parameters)", "",
            f"{len(flagged)} series, {len(e)} points: MAPE {e.mean():.1f} %, worst "
            f"{e.max():.0f} % (flags: super-linear, throughput drops, below half ideal).", ""]


def _rerun_note(clean: list[Series], sc: Scored) -> list[str]:
    """How well the measurements reproduce themselves: Lambda measured some configurations
    twice (2022 and '(2023)' snapshots). Their disagreement is a floor for any projection."""
    import re

    runs: dict[tuple[str, str, str], list[Series]] = defaultdict(list)
    for s in clean:
        if s.source.startswith("LAMBDA"):
            _, system, model_name, _ = s.sid.split("|")
            runs[(re.sub(r"\s*\((20\d\d)\)", "", system), model_name, s.precision)].append(s)
    diffs = []
    for group in runs.values():
        for i, a in enumerate(group):
            for b in group[i + 1:]:
                for n in sorted(set(a.gpus) & set(b.gpus)):
                    x, y = a.actual[a.gpus.index(n)], b.actual[b.gpus.index(n)]
                    diffs.append(abs(x / y - 1.0) * 100.0)
    if not diffs:
        return []
    d = np.array(diffs)
    return ["### Reproducibility of the measurements themselves", "",
            f"{len(d)} speed-ups were measured twice by the same source on the same system "
            "type, model and precision (Lambda's 2022 and '(2023)' snapshots). They disagree by "
            f"{d.mean():.1f} % on average (median {np.median(d):.1f} %, worst {d.max():.0f} %): "
            "identical inputs cannot predict both.", ""]


def main() -> None:
    text = report()
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text + "\n", encoding="utf-8")
    print(text)
    print(f"\nwrote {OUT}")


if __name__ == "__main__":
    main()
