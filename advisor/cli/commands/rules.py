"""gpu-advisor rules list | explain ID: the rule base, generated from rules/*.yaml (no second
copy of any text: titles, reasons and conditions are read from the rule files)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from advisor.files.errors import InputError
from advisor.files.paths import rules_dir
from advisor.profile.labels import CONCLUSION_KEY, conclusion_value, label
from advisor.rulebase import default_rules, rule_by_id
from advisor.rulebase.article_facts import fact_text
from advisor.rulebase.conditions import AllOf, AnyOf, Cond, Node
from advisor.rulebase.fact_names import fact_name
from advisor.rulebase.model import FactRef, Rule
from advisor.text.i18n import pick

_OP_TEXT = {"eq": "=", "ne": "≠", "lt": "<", "le": "≤", "gt": ">", "ge": "≥",
            "in": ("in", "属于"), "not_in": ("not in", "不属于"), "is_true": ("is true", "为是"),
            "is_false": ("is false", "为否"), "exists": ("is known", "已知")}
_PLACEHOLDER = re.compile(r"\{(\w+)(?::[^}]*)?\}")


def _op(op: str, lang: str) -> str:
    text = _OP_TEXT[op]
    return text if isinstance(text, str) else pick(lang, *text)


def template_text(template: str, lang: str) -> str:
    """A message template with its placeholders as the facts' names (``{推荐卡数}``), not ids
    and format codes (``{verdict_gpus:.0f}``)."""
    return _PLACEHOLDER.sub(lambda m: "{" + fact_name(m.group(1), lang) + "}", template)


def register(sub) -> None:
    p = sub.add_parser("rules", help="list or explain the rules of the rule base")
    actions = p.add_subparsers(dest="rules_action", metavar="ACTION")
    ls = actions.add_parser("list", help="every rule with its sources")
    ls.add_argument("--lang", choices=["en", "zh"], default=argparse.SUPPRESS)
    ls.set_defaults(handler=run_list)
    ex = actions.add_parser("explain", help="one rule: condition, conclusion, why, sources")
    ex.add_argument("rule_id", metavar="ID")
    ex.add_argument("--lang", choices=["en", "zh"], default=argparse.SUPPRESS)
    ex.set_defaults(handler=run_explain)
    p.set_defaults(handler=run_list)


def describe_when(node: Node, lang: str = "en", positive: bool = True) -> str:
    """The condition as one readable line (``a ≥ 2 and (b = x or not c is known)``)."""
    if isinstance(node, Cond):
        if node.op == "exists" and not positive:  # "not ... is known" reads "is unknown"
            return f"{fact_name(node.fact, lang)} [{node.fact}] {pick(lang, 'is unknown', '未知')}"

        def shown(v: object) -> str:  # an enum value in words, its id beside it
            words = label(node.fact, v, lang)
            return str(v) if words == v else f"{words} ({v})"
        value = "" if node.value is None else (
            " [" + ", ".join(map(shown, node.value)) + "]" if isinstance(node.value, tuple)
            else f" {shown(node.value)}")
        # the fact in the reader's words, its id after it for looking it up in rules/*.yaml
        return f"{fact_name(node.fact, lang)} [{node.fact}] {_op(node.op, lang)}{value}"
    if isinstance(node, AllOf | AnyOf):
        word = pick(lang, " and ", " 且 ") if isinstance(node, AllOf) else pick(lang, " or ", " 或 ")
        parts = [describe_when(n, lang) for n in node.items]
        text = word.join(parts)
        return f"({text})" if len(parts) > 1 else text
    if isinstance(node.item, Cond) and node.item.op == "exists":
        return describe_when(node.item, lang, positive=False)
    return pick(lang, "not ", "非 ") + describe_when(node.item, lang)


def describe_then(rule: Rule, lang: str = "en") -> str:
    """The conclusion in words (``rating: worth it, GPUs: {best_value_gpus}``): labels in
    ``lang``, a count taken from a fact shown as that fact's name in braces."""
    colon, sep = ("：", "，") if lang == "zh" else (": ", ", ")
    parts = []
    for key, value in rule.then.items():
        name = CONCLUSION_KEY[key].get(lang) if key in CONCLUSION_KEY else key
        shown = f"{{{fact_name(value.fact, lang)}}}" if isinstance(value, FactRef) \
            else conclusion_value(key, value, lang)
        parts.append(f"{name}{colon}{shown}")
    return sep.join(parts)


def _shown_path(file: str) -> str:
    """rules/<file>.yaml as the user knows it, wherever the data is installed."""
    path = Path(file)
    return f"rules/{path.name}" if path.parent == rules_dir() else file


def run_list(args) -> int:
    lang = args.lang
    current = None
    for rule in sorted(default_rules(), key=lambda r: (r.concern, r.id)):
        if rule.concern != current:
            current = rule.concern
            print(f"\n[{current}]")
        print(f"  {rule.id:<48} {describe_then(rule, lang):<42} {', '.join(rule.sources)}")
        print(f"      {template_text(rule.message.get(lang), lang)}")
    return 0


def run_explain(args) -> int:
    lang = args.lang
    rule = rule_by_id(args.rule_id)
    from advisor.verdict.policy_steps import policy_step  # only where a step is explained

    step = policy_step(args.rule_id) if rule is None else None
    if step is not None:  # a policy step the Why list shows beside the rules
        print(f"{step.rule}  ({step.path})")
        print(step.explanation.get(lang))
        print(f"\n{pick(lang, 'article facts:', '文章依据：')}")
        for fact_id in step.sources:
            print(f"  {fact_id}: {fact_text(fact_id, lang)}")
        return 0
    if rule is None:
        raise InputError.single(f"unknown rule {args.rule_id!r}; see `gpu-advisor rules list`",
                                f"未知规则 {args.rule_id!r}；请查看 `gpu-advisor rules list`")
    label = {"when": ("when", "条件"), "then": ("then", "结论"), "why": ("why", "原因"),
             "remedy": ("remedy", "对策"), "sources": ("article facts", "文章依据"),
             "order": ("conflict rank", "冲突排序")}
    c = "：" if lang == "zh" else ": "
    print(f"{rule.id}  ({_shown_path(rule.file)}:{rule.line})")
    print(template_text(rule.message.get(lang), lang))
    print(f"\n{pick(lang, *label['when'])}{c}{describe_when(rule.when, lang)}")
    print(f"{pick(lang, *label['then'])}{c}{describe_then(rule, lang)}")
    print(f"{pick(lang, *label['order'])}{c}"
          + pick(lang, f"veto: {'yes' if rule.is_veto else 'no'}, conditions: "
                       f"{rule.specificity}, priority: {rule.priority}",
                 f"否决：{'是' if rule.is_veto else '否'}，条件数：{rule.specificity}，"
                 f"优先级：{rule.priority}"))
    print(f"\n{pick(lang, *label['why'])}{c}{template_text(rule.why.get(lang), lang)}")
    if rule.remedy:
        print(f"{pick(lang, *label['remedy'])}{c}{template_text(rule.remedy.get(lang), lang)}")
    print(f"\n{pick(lang, *label['sources'])}{c.strip()}")
    for fact_id in rule.sources:
        print(f"  {fact_id}: {fact_text(fact_id, lang)}")
    return 0
