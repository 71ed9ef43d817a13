"""Large-model layouts against published runs: throughput, scaling ratios, memory claims.

    .venv/bin/python -m benchmarks.llm_accuracy           # writes benchmarks/results/llm_accuracy.md
    .venv/bin/python -m benchmarks.llm_accuracy --quick   # in-sample only (no cross-validation)

1. Absolute tokens/s per GPU on the runs of ``benchmarks/llm_points.py`` (sets ``layout`` and
   ``auto``), in-sample and leave-one-paper-out: the parameters are refitted without every
   point of one paper (``benchmarks/fit_llm.fit``) and that paper's runs predicted. MAPE =
   mean |predicted / published - 1|; the 80th percentile of the left-out errors becomes the
   projection's band (``band_log_width`` in resources/scaling/llm_parameters.yaml).
2. Scaling ratios: per-GPU throughput at N2 over N1 GPUs of the same run (strong scaling at a
   fixed global batch, data-parallel growth, Megatron 2019's weak scaling), also left out.
3. Memory: every fit / out-of-memory claim of ``benchmarks/llm_claims.py`` and the measured GB.
4. Recomputation cost: Korthikanti et al. 2022 Table 4 (per-layer time of the 22B model).
   Megatron-LM 2019's weak- and strong-scaling tables are reported beside the ratios, not
   scored (``benchmarks/llm_megatron2019.py``).
5. llm-analysis at its ``flops_efficiency`` 0.5 on the same points and layouts, when installed
   (``pip install llm-analysis``; the column is skipped otherwise).
"""

from __future__ import annotations

import argparse
import csv
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from advisor.scaling.card_memory import usable_gb
from advisor.scaling.layouts.layout import candidates_of
from advisor.scaling.layouts.memory import memory_parts
from advisor.scaling.layouts.search import Fixed
from advisor.scaling.layouts.shape import ModelShape
from advisor.scaling.layouts.states import mixed_precision_adam
from advisor.scaling.llm_compute import LlmParams, compute_per_micro_batch_s, load_llm_params
from advisor.scaling.parameters import load_params
from benchmarks import llm_baseline
from benchmarks.fit_llm import fit, training_points
from benchmarks.fit_llm import write as write_band
from benchmarks.llm_claims import Claim, claims
from benchmarks.llm_claims import check_against_csv as check_claims
from benchmarks.llm_megatron2019 import section as megatron2019_section
from benchmarks.llm_points import DATA, Point, check_against_csv, cluster, points
from benchmarks.llm_predict import predict

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "results" / "llm_accuracy.md"


def paper(source: str) -> str:
    """Sources from one paper leave together (Narayanan Table 1 and Table 2, ...)."""
    return source.split("_")[0] if source != "megatron_v1_blog" else "megatron_v1"


@dataclass(frozen=True)
class RatioCase:
    key: str
    base: Point
    other: Point
    observed: float  # per-GPU throughput at other / at base
    note: str = ""


def _ratio_only(pt: Point, gpus: int, batch: int) -> Point:
    return replace(pt, key=f"{pt.key}-at-{gpus}", gpus=gpus, global_batch=batch)


def ratio_cases(by_key: dict[str, Point]) -> list[RatioCase]:
    out = []
    for base, others in (("narayanan-t2-ptdp-175B-384", ("768", "1536")),
                         ("narayanan-t2-ptdp-530B-560", ("1120", "2240")),
                         ("narayanan-t2-zero3-175B-384", ("768", "1536")),
                         ("narayanan-t2-zero3-530B-640", ("1120", "2240")),
                         ("llama3-405B-8192", ("16384",))):
        for n in others:
            key = base.rsplit("-", 1)[0] + "-" + n
            b, o = by_key[base], by_key[key]
            out.append(RatioCase(f"{key} / {b.gpus}", b, o,
                                 o.tokens_per_s_per_gpu() / b.tokens_per_s_per_gpu()))
    k1, k8 = by_key["korthikanti-t5-530B-selective"], by_key["korthikanti-s63-530B-dp8"]
    out.append(RatioCase("korthikanti 530B DP 1 -> 8", k1, k8,
                         k8.tokens_per_s_per_gpu() / k1.tokens_per_s_per_gpu()))
    one = by_key["megatron2019-1.2B-1gpu"]
    for key, note in (("megatron2019-8.3B-tp8", "weak scaling 1.2B -> 8.3B, 77 % of linear"),
                      ("megatron2019-8.3B-512", "weak scaling to 512 GPUs, Figure 5's 74 %")):
        out.append(RatioCase(key + " / 1", one, by_key[key],
                             by_key[key].tokens_per_s_per_gpu() / one.tokens_per_s_per_gpu(),
                             note))
    mingpt = by_key["fsdp-mingpt-175B-b1"]
    out.append(RatioCase("fsdp minGPT-175B 128 -> 512", _ratio_only(mingpt, 128, 128),
                         _ratio_only(mingpt, 512, 512), 1.0, "'linear scalability'"))
    t5 = Point("fsdp-t5-11B", "fsdp2023_s54", "T5-11B", 8, "tflops_per_gpu", 0.0,
               ModelShape(11e9, 48, 1024, 128, 512, 32128), "fsdp_roce", 64, ("full",),
               Fixed(tp=1, pp=1, sharding=("fsdp",), micro_batch=8), "narayanan", set="ratio")
    out.append(RatioCase("fsdp T5-11B 8 -> 512", t5, _ratio_only(t5, 512, 4096), 0.93,
                         "'a 7% regression in per-GPU TFLOPS'"))
    return out


def _rate(pt: Point, q: LlmParams) -> float:
    return predict(pt, q).tokens_per_s_per_gpu


def _fmt(x: float | None) -> str:
    return "—" if x is None else f"{x:+.1%}"


def claim_memory(c: Claim) -> float:
    cl = cluster(c.machines, c.flash, 4.0 if c.fp32 else 2.0)
    states = mixed_precision_adam(cl.bytes_per_value)
    parts = memory_parts(c.shape, candidates_of([c.layout]), cl, states,
                         load_llm_params().context_overhead_gb)
    return float(parts.total[0])


def recompute_overheads(q: LlmParams) -> list[tuple[str, float, float]]:
    """(mode, published per-layer overhead, predicted) for Korthikanti Table 4's 22B layer."""
    shape = ModelShape(22e9, 48, 6144, 64, 2048, 51200)
    cl = cluster("selene", False)
    rows = []
    base = None
    for mode, sp, published in (("none", False, None), ("full", False, 0.39),
                                ("selective", False, 0.07), ("selective", True, 0.04)):
        from advisor.scaling.layouts.layout import Layout
        lay = Layout(8, 1, 1, micro_batch=4, checkpointing=mode, sequence_parallel=sp)
        t = float(compute_per_micro_batch_s(shape, candidates_of([lay]), cl, q)[0])
        if base is None:
            base = t
            continue
        rows.append((mode + (" + sequence parallel" if sp else ""), published, t / base - 1))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the cross-validation")
    args = parser.parse_args()
    items = points()
    check_against_csv(items)
    scored = [pt for pt in items if pt.set in ("layout", "auto")]
    by_key = {pt.key: pt for pt in items}
    q = load_llm_params()
    train = training_points()
    held: dict[str, LlmParams] = {}
    if not args.quick:
        for name in sorted({paper(pt.source) for pt in scored}):
            held[name] = fit([pt for pt in train if paper(pt.source) != name])
            print(f"left out {name}", flush=True)
    lines = ["# Large-model layouts against published runs", "",
             "Written by `python -m benchmarks.llm_accuracy`; data: `benchmarks/data/"
             "llm_runs.csv`, `llm_memory_claims.csv` (sources: `llm-sources.md`).", "",
             "## Absolute throughput (tokens/s per GPU)", "",
             "| run | set | GPUs | published | in-sample | left out | llm-analysis | layout |",
             "|---|---|---|---|---|---|---|---|"]
    errs, cv_errs, base_errs, base_same = [], [], [], []
    for pt in items:
        y = pt.tokens_per_s_per_gpu()
        pred = predict(pt, q)
        e = pred.tokens_per_s_per_gpu / y - 1
        cv = (_rate(pt, held[paper(pt.source)]) / y - 1) if held and pt.set != "context" \
            else None
        la = llm_baseline.tokens_per_s_per_gpu(pt, pred.choice) if llm_baseline.available() \
            else None
        be = None if la is None else la / y - 1
        if pt.set in ("layout", "auto"):
            errs.append(abs(e))
            if cv is not None:
                cv_errs.append(abs(cv))
            if be is not None:
                base_errs.append(abs(be))
                base_same.append(abs(cv if cv is not None else e))
        lines.append(f"| {pt.key} | {pt.set} | {pt.gpus} | {y:,.1f} | {_fmt(e)} | {_fmt(cv)} | "
                     f"{_fmt(be)} | {pred.choice.layout.label().en} |")
    summary = [f"- in-sample MAPE: {np.mean(errs):.1%} on {len(errs)} runs"]
    if cv_errs:
        summary.append(f"- leave-one-paper-out MAPE: {np.mean(cv_errs):.1%} "
                       f"(median {np.median(cv_errs):.1%}, 80th percentile "
                       f"{np.percentile(cv_errs, 80):.1%}; the projection's band)")
        write_band(q, float(np.log1p(np.percentile(cv_errs, 80))))
    if base_errs:
        summary.append(f"- llm-analysis (flops_efficiency {llm_baseline.FLOPS_EFFICIENCY}) on "
                       f"the same {len(base_errs)} runs: MAPE {np.mean(base_errs):.1%} (the "
                       f"advisor {'left out' if cv_errs else 'in-sample'}: "
                       f"{np.mean(base_same):.1%})")
    lines[4:4] = summary + [""]
    # scaling ratios
    lines += ["", "## Scaling ratios (per-GPU throughput at N2 / at N1)", "",
              "| case | published | in-sample | left out | llm-analysis | note |",
              "|---|---|---|---|---|---|"]
    r_errs, r_cv, r_base = [], [], []
    for case in ratio_cases(by_key):
        pred = _rate(case.other, q) / _rate(case.base, q)
        e = pred / case.observed - 1
        r_errs.append(abs(e))
        cv = None
        if held:
            h = held.get(paper(case.base.source), q)
            cv = _rate(case.other, h) / _rate(case.base, h) / case.observed - 1
            r_cv.append(abs(cv))
        be = None
        if llm_baseline.available():
            lo = llm_baseline.tokens_per_s_per_gpu(case.other, predict(case.other, q).choice)
            lb = llm_baseline.tokens_per_s_per_gpu(case.base, predict(case.base, q).choice)
            if lo and lb:
                be = lo / lb / case.observed - 1
                r_base.append(abs(be))
        lines.append(f"| {case.key} | {case.observed:.3f} | {_fmt(e)} | {_fmt(cv)} | "
                     f"{_fmt(be)} | {case.note} |")
    rs = [f"- in-sample MAPE {np.mean(r_errs):.1%} on {len(r_errs)} ratios"]
    if r_cv:
        rs.append(f"- leave-one-paper-out MAPE {np.mean(r_cv):.1%}")
    same = [k for k, case in enumerate(ratio_cases(by_key)) if "weak scaling" not in case.note]
    rs.append(f"- without Megatron 2019's two weak-scaling ratios (1.2B on one GPU against 8.3B "
              f"on 8 and 512, derived): in-sample {np.mean([r_errs[k] for k in same]):.1%}"
              + (f", left out {np.mean([r_cv[k] for k in same]):.1%}" if r_cv else ""))
    if r_base:
        rs.append(f"- llm-analysis: MAPE {np.mean(r_base):.1%} (it has no communication: "
                  "per-GPU throughput changes only with the micro-batches)")
    lines += [""] + rs
    lines += megatron2019_section(q, held.get("shoeybi2019"))
    # memory
    check_claims(cl := claims())
    usable = load_params().memory_usable_fraction
    lines += ["", f"## Memory claims (usable memory = {usable:.0%} of the GPU's bytes, its "
              "nominal GB read as GiB)", "",
              "| claim | source says | model GB | usable GB | agrees | note |",
              "|---|---|---|---|---|---|"]
    agree, gb_errs = 0, []
    for c in cl:
        need = claim_memory(c)
        limit = usable_gb(cluster(c.machines, c.flash).memory_gb, load_params())
        if c.claim == "gb":
            err = need / c.value_gb - 1
            gb_errs.append(abs(err))
            ok = abs(err) <= 0.15
            said = f"{c.value_gb:g} GB"
        else:
            ok = (need <= limit) == (c.claim == "fits")
            said = c.claim
        agree += ok
        lines.append(f"| {c.key} | {said} | {need:.1f} | {limit:.1f} | "
                     f"{'yes' if ok else 'NO'} | {c.note} |")
    lines += ["", f"- {agree} of {len(cl)} claims agree; measured GB within "
              f"{max(gb_errs):.1%}" if gb_errs else ""]
    # recomputation
    lines += ["", "## Recomputation cost per layer (Korthikanti et al. 2022, Table 4, 22B)", "",
              "| mode | published | model |", "|---|---|---|"]
    for mode, pub, pred in recompute_overheads(q):
        lines.append(f"| {mode} | {pub:+.0%} | {pred:+.1%} |")
    _ = csv, DATA
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(summary + rs + lines[-12:]))
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
