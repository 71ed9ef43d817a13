"""How well one card's measured speed moves to another card: the advisor times a run on
another card by the ratio of the two cards' sustained TFLOP/s at the run's task and precision
(``advisor.scaling.inputs.single_gpu_speed_ratio``), and every setup on other cards (bought,
rented at an offer, rented larger cards) rests on that ratio. Measured on the single-GPU
throughputs of ``data/scaling-dev.csv`` (the allowed published measurements): for every model,
precision and framework published on two or more cards, each pair's measured throughput ratio
against the ratio the advisor uses. Rerun: ``.venv/bin/python -m benchmarks.card_ratio``."""

from __future__ import annotations

import csv
import math
import sys
from collections import defaultdict
from itertools import combinations

from advisor.catalog import resolve_gpu
from advisor.catalog.gpus import GpuSpec
from advisor.profile import Profile
from advisor.profile.enums import Precision, Task
from advisor.scaling.inputs import single_gpu_speed_ratio
from advisor.scaling.parameters import load_params
from benchmarks.scaling_series import DATA, model_info
from benchmarks.series_profiles import gpu_field

_PRECISION = {"AMP": "amp", "FP16/AMP": "amp", "FP16": "amp", "BF16": "bf16", "TF32": "tf32"}
_OLD = ("V100", "T4", "RTX 2080", "Quadro RTX", "TITAN RTX", "GV100")


def _precision(label: str, gpu: str) -> str:
    if label in _PRECISION:
        return _PRECISION[label]
    if label == "FP32/TF32" and not any(k in gpu for k in _OLD):
        return "tf32"
    return "fp32"


def _spec(name: str) -> GpuSpec | None:
    """The catalog's card for the data set's name (None: a card the catalog lacks)."""
    field = gpu_field(name)
    return resolve_gpu(field) if isinstance(field, str) else None


def rows() -> list[tuple[tuple, str, float, GpuSpec, Task, Precision]]:
    out = []
    with open(DATA, newline="", encoding="utf-8") as f:
        for r in csv.DictReader(f):
            if r["gpus"] != "1" or r["nodes"] != "1":
                continue
            try:
                spec = _spec(r["gpu_model"])
            except (KeyError, ValueError):
                continue
            if spec is None:
                continue
            _, _, _, task = model_info(r["model"])
            prec = _precision(r["precision"], r["gpu_model"])
            key = (r["model"], prec, r["framework"].split(" (")[0], r["throughput_unit"])
            out.append((key, r["gpu_model"], float(r["throughput"]), spec, Task(task),
                        Precision(prec)))
    return out


def _ratio(task: Task, prec: Precision, a: GpuSpec, b: GpuSpec, p) -> float:
    """The advisor's ratio for the pair, through the function every moved run takes."""
    profile = Profile.model_validate({
        "task": task.value, "model": {"name": "m", "params_millions": 100},
        "training": {"single_gpu_hours": 1, "precision": prec.value},
        "hardware": {"gpu": a.id, "gpus_per_node": 1}})
    return single_gpu_speed_ratio(profile, a, b, p)


def pairs() -> list[tuple[tuple, str, str, float, float]]:
    """(group, slower card, faster card, measured ratio, the advisor's ratio) for every pair of
    cards published on one model, precision and framework, each from the card the advisor
    holds slower (the best throughput a card per group: batches differ with memory)."""
    p = load_params()
    groups: dict[tuple, dict[str, list]] = defaultdict(dict)
    for key, _gpu, thr, spec, task, prec in rows():
        held = groups[key].get(spec.id)
        if held is None or thr > held[0]:
            groups[key][spec.id] = [thr, spec, task, prec]
    out = []
    for key, cards in groups.items():
        for a, b in combinations(sorted(cards), 2):
            ta, sa, task, prec = cards[a]
            tb, sb, _, _ = cards[b]
            predicted = _ratio(task, prec, sa, sb, p)
            if predicted < 1.0:
                a, b, ta, tb, predicted = b, a, tb, ta, 1.0 / predicted
            out.append((key, a, b, tb / ta, predicted))
    return out


def main() -> int:
    found = pairs()
    groups = {k for k, *_ in found}
    if not found:
        print("no pairs")
        return 1
    errs = [abs(pr / ac - 1.0) for *_, ac, pr in found]
    logs = [math.log(pr / ac) for *_, ac, pr in found]
    print(f"{len(found)} card pairs over {len(groups)} model/precision/framework groups "
          f"(single-GPU throughputs of scaling-dev.csv)")
    print(f"ratio error: MAPE {100 * sum(errs) / len(errs):.1f} %, median "
          f"{100 * sorted(errs)[len(errs) // 2]:.1f} %, mean log bias "
          f"{100 * (math.exp(sum(logs) / len(logs)) - 1):+.1f} % (the faster card's advantage, "
          "predicted over measured)")
    consumer = [(k, a, b, ac, pr) for k, a, b, ac, pr in found
                if resolve_gpu(a).is_consumer != resolve_gpu(b).is_consumer]
    if consumer:
        ce = [abs(pr / ac - 1.0) for *_, ac, pr in consumer]
        cl = [math.log(pr / ac) for *_, ac, pr in consumer]
        print(f"consumer card against data-centre card: {len(consumer)} pairs, MAPE "
              f"{100 * sum(ce) / len(ce):.1f} %, mean log bias "
              f"{100 * (math.exp(sum(cl) / len(cl)) - 1):+.1f} %")
    by_card: dict[str, list[float]] = defaultdict(list)
    for *_, b, ac, pr in found:
        by_card[b].append(math.log(pr / ac))
    print("by the faster card (its advantage over the slower, predicted over measured):")
    for card, v in sorted(by_card.items(), key=lambda t: -len(t[1])):
        if len(v) >= 5:
            print(f"  {card}: {len(v)} pairs, mean log bias "
                  f"{100 * (math.exp(sum(v) / len(v)) - 1):+.1f} %, MAPE "
                  f"{100 * sum(abs(math.expm1(x)) for x in v) / len(v):.1f} %")
    by_task: dict[str, list[float]] = defaultdict(list)
    for k, *_, ac, pr in found:
        by_task[model_info(k[0])[3]].append(math.log(pr / ac))
    for task, v in sorted(by_task.items()):
        print(f"  {task}: {len(v)} pairs, mean log bias {100 * (math.exp(sum(v) / len(v)) - 1):+.1f} %,"
              f" MAPE {100 * sum(abs(math.expm1(x)) for x in v) / len(v):.1f} %")
    print("largest misses (model, precision, framework: card a -> card b, measured, advisor):")
    for k, a, b, ac, pr in sorted(found, key=lambda t: -abs(math.log(t[4] / t[3])))[:12]:
        print(f"  {k[0]}, {k[1]}, {k[2]}: {a} -> {b}: {ac:.2f}x, {pr:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
