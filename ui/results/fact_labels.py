"""The rule facts and conclusions as a reader sees them, in English and Simplified Chinese.

The "why" trace keeps the rule base's fact names (``day_value_covers_energy``) and raw values
(``True``, ``worth_it``); the wizard's Why tab and the PDF appendix show them through here:
``fact_name`` for the name, ``fact_value`` for the value (labels from ``advisor.profile.labels``, yes/no,
counts with their unit), ``facts_text`` / ``conclusion_text`` for a whole record. Plain Python:
the report and the wizard share it.
"""

from __future__ import annotations

import math
from typing import Any

from advisor.profile import labels as core
from advisor.rulebase.fact_names import FACT_NAMES, OBSERVED, T, fact_name, humanise  # noqa: F401
from advisor.text.i18n import Text
from ui.forms.choices import choice_label

YES_NO = {True: T("yes", "是"), False: T("no", "否")}
BOTTLENECK = {
    "compute": T("compute", "计算"), "communication": T("communication", "通信"),
    "input_pipeline": T("input pipeline", "数据加载"), "memory": T("memory", "显存"),
    "synchronisation": T("synchronisation", "同步"),
    "pipeline_bubble": T("pipeline bubble", "流水线气泡"),
    "alternating_training": T("alternating training", "交替训练"),
    "virtualization": T("virtualisation", "虚拟化"),
}
GPU_CLASS = {
    "consumer": T("consumer card", "消费级显卡"), "workstation": T("workstation card", "工作站显卡"),
    "datacenter": T("data-centre card", "数据中心显卡"), "unknown": T("unknown", "未知"),
}
# fact name -> its value table (advisor.profile.labels for links, virtualisation, cooling, parallelism)
_BY_FACT: dict[str, dict[str, Text]] = {
    "bottleneck_max": BOTTLENECK, "verdict_bottleneck": BOTTLENECK, "gpu_class": GPU_CLASS,
    "verdict_rating": core.RATING, "verdict_deployment": core.DEPLOYMENT,
}
COUNT_FACTS = {"verdict_gpus", "verdict_wanted_gpus", "verdict_gpus_short", "best_value_gpus",
               "deadline_gpus", "min_gpus_fit", "fit_gpus_beyond", "fit_gpus_checkpointing",
               "useful_gpus",
               "max_gpus_projected", "total_gpus", "gpus_per_node"}


def number_text(value: float) -> str:
    if not math.isfinite(value):
        return "—"
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.3g}" if abs(value) < 1000 else f"{value:,.0f}"


def fact_value(name: str, value: Any, lang: str) -> str:
    """A fact's value in words: yes/no, a label, a GPU count with its unit, a short number."""
    if isinstance(value, bool):
        return YES_NO[value].get(lang)
    if name in COUNT_FACTS and isinstance(value, int | float):
        return core.conclusion_value("gpus", int(value), lang)
    if isinstance(value, str):
        table = _BY_FACT.get(name)
        if table is not None and value in table:
            return table[value].get(lang)
        labelled = core.label(name, value, lang)
        if labelled != value:
            return str(labelled)
        return choice_label(name, value, lang)  # the wizard's labels of the profile's enums
    if isinstance(value, int | float):
        return number_text(float(value))
    if isinstance(value, dict) and set(value) == {"en", "zh"}:
        return str(value["zh" if lang == "zh" else "en"])
    if isinstance(value, list | tuple):
        return ", ".join(fact_value(name, v, lang) for v in value)
    return str(value)


def facts_text(facts: dict[str, Any], lang: str) -> str:
    """``a day saved pays a month's extra electricity: yes; …`` in the reader's language."""
    colon, sep = ("：", "；") if lang == "zh" else (": ", "; ")
    return sep.join(f"{fact_name(k, lang)}{colon}{fact_value(k, v, lang)}"
                    for k, v in facts.items())


def conclusion_text(conclusion: dict[str, Any], lang: str) -> str:
    """A rule's conclusion in words (``rating: worth it, GPUs: 4 GPUs``)."""
    return core.conclusion_text(conclusion, lang)
