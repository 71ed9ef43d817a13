"""Load ``rules/*.yaml`` and check every rule against the schema and the fact catalog.

A rule file is ``{concern: <file stem>, rules: [...]}``; each rule has ``id`` (``<concern>.<name>``),
``when``, ``then``, ``message`` and ``why`` in ``en`` and ``zh``, ``sources`` (article fact ids),
optional ``priority`` and, for pitfalls, ``remedy``. Every problem names the file, the line and
the rule id; nothing in a rule is executed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from advisor.files.errors import InputError, Problem
from advisor.files.yaml_lines import LineIndex, _construct_mapping, load_yaml_text
from advisor.rulebase.conditions import OPS, leaves
from advisor.rulebase.fact_catalog import FACTS
from advisor.rulebase.model import (
    ADVICE_KEYS,
    COUNT_SLOTS,
    DURATION,
    PITFALL_KEYS,
    READABLE_FACT_STAGES,
    SETUP_KEYS,
    SLOT_CHOICES,
    VERDICT_KEYS,
    FactRef,
    Rule,
    format_text,
    placeholders,
)
from advisor.rulebase.when import parse_when
from advisor.text.i18n import Text

RULE_ID = re.compile(r"^[a-z][a-z0-9_]*\.[a-z0-9_]+$")
NAME_ID = re.compile(r"^[a-z][a-z0-9_]*$")
RULE_KEYS = ("id", "when", "then", "message", "why", "remedy", "sources", "priority")
SAMPLE = {"str": "x", "int": 1, "float": 1.5, "bool": True}


class _FastUniqueKeyLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """libyaml's safe loader, refusing duplicate keys like ``advisor.files.yaml_lines``' loader."""


_FastUniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
                                     _construct_mapping)


def _parse(text: str, source: str) -> tuple[Any, LineIndex]:
    """Data and line index through libyaml (the rule base loads at start-up: the pure-Python
    parser took over a second); on any error the line-aware loader reports it."""
    try:
        root = yaml.compose(text, Loader=_FastUniqueKeyLoader)
        data = yaml.load(text, Loader=_FastUniqueKeyLoader)  # noqa: S506 - a safe loader
    except (yaml.YAMLError, RecursionError):
        return load_yaml_text(text, source=source)
    return data, LineIndex(root)


def _known_sources() -> set[str]:
    from advisor.rulebase.article_facts import load_facts

    return set(load_facts())


class _FileCheck:
    """Collects the problems of one file, each with its line and rule id."""

    def __init__(self, source: str, index: LineIndex) -> None:
        self.source, self.index = source, index
        self.problems: list[Problem] = []

    def add(self, loc: tuple[Any, ...], rule_id: str | None, en: str, zh: str) -> None:
        path = ".".join(str(p) for p in loc[2:]) if len(loc) > 2 else ""
        label = f"rule {rule_id}" if rule_id else (f"rules[{loc[1]}]" if len(loc) > 1 else "")
        full = f"{label}: {path}" if label and path else (label or path)
        self.problems.append(Problem(full, en, zh, self.index.line_of(loc)))


def _text(check: _FileCheck, raw: Any, loc: tuple, rid: str | None, name: str) -> Text | None:
    if not isinstance(raw, dict):
        check.add(loc, rid, f"{name} must have en and zh texts", f"{name} 必须包含 en 与 zh 文本")
        return None
    ok = True
    for lang in ("en", "zh"):
        if not isinstance(raw.get(lang), str) or not raw[lang].strip():
            check.add(loc + (lang,) if lang in raw else loc, rid,
                      f"{name}.{lang} is missing or empty", f"{name}.{lang} 缺失或为空")
            ok = False
    extra = set(raw) - {"en", "zh"}
    if extra:
        check.add(loc, rid, f"{name}: unknown keys {sorted(extra)}", f"{name}：未知字段 {sorted(extra)}")
    return Text(en=raw["en"], zh=raw["zh"]) if ok and not extra else None


def _then(check: _FileCheck, raw: Any, loc: tuple, rid: str | None) -> tuple[dict, str] | None:
    if not isinstance(raw, dict) or not raw:
        check.add(loc, rid, "then must be a conclusion record, e.g. {rating: worth_it, gpus: 4}",
                  "then 必须是结论记录，例如 {rating: worth_it, gpus: 4}")
        return None
    keys = set(raw)
    for kind, allowed in (("pitfall", PITFALL_KEYS), ("advice", ADVICE_KEYS),
                          ("verdict", VERDICT_KEYS), ("setup", SETUP_KEYS)):
        if keys <= set(allowed) and (kind not in ("pitfall", "advice") or kind in keys):
            break
    else:
        check.add(loc, rid, f"then mixes or misnames conclusion keys {sorted(keys)}; one of: "
                  f"{VERDICT_KEYS} | {SETUP_KEYS} | {PITFALL_KEYS} | {ADVICE_KEYS}",
                  f"then 的结论字段混用或拼错 {sorted(keys)}", )
        return None
    if kind == "pitfall" and "severity" not in raw:
        check.add(loc, rid, "a pitfall needs a severity (info, warning, critical)",
                  "注意事项必须给出 severity（info、warning、critical）")
    if kind == "verdict" and "rating" in raw and "veto" not in raw and "gpus" not in raw:
        check.add(loc, rid, "a rating needs gpus (or make the rule a veto)",
                  "给出 rating 时必须给出 gpus（或声明为 veto）")
    if kind == "setup" and keys == {"veto"} or kind == "verdict" and keys == {"veto"}:
        check.add(loc, rid, "a veto must set something", "veto 必须给出结论")
    then: dict[str, Any] = {}
    for key, value in raw.items():
        here = loc + (key,)
        if isinstance(value, dict):
            ref = value.get("fact")
            spec = FACTS.get(ref) if isinstance(ref, str) and set(value) == {"fact"} else None
            good = spec is not None and (
                (key in COUNT_SLOTS and spec.kind == "int")
                or (key in SLOT_CHOICES and spec.kind == "str"
                    and set(spec.choices) <= set(SLOT_CHOICES[key])))
            if not good:
                check.add(here, rid, f"{key}: {{fact: NAME}} must name a fact whose values fit {key}",
                          f"{key}：{{fact: 名称}} 必须引用取值与 {key} 相符的事实")
                continue
            then[key] = FactRef(ref)
        elif key in COUNT_SLOTS:
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 100_000:
                check.add(here, rid, f"{key} must be a whole number >= 1, got {value!r}",
                          f"{key} 必须是 >= 1 的整数，实际为 {value!r}")
                continue
            then[key] = value
        elif key in SLOT_CHOICES:
            if value not in SLOT_CHOICES[key]:
                check.add(here, rid, f"{key} must be one of {list(SLOT_CHOICES[key])}, got {value!r}",
                          f"{key} 必须是 {list(SLOT_CHOICES[key])} 之一，实际为 {value!r}")
                continue
            then[key] = value
        else:  # veto, pitfall, advice: stable ids
            if not isinstance(value, str) or not NAME_ID.match(value):
                check.add(here, rid, f"{key} must be a snake_case id, got {value!r}",
                          f"{key} 必须是 snake_case 标识，实际为 {value!r}")
                continue
            then[key] = value
    return then, kind


def _rule(check: _FileCheck, raw: Any, i: int, concern: str, sources: set[str]) -> Rule | None:
    loc: tuple[Any, ...] = ("rules", i)
    if not isinstance(raw, dict):
        check.add(loc, None, "a rule must be a mapping", "规则必须是键值映射")
        return None
    rid = raw.get("id")
    if not isinstance(rid, str) or not RULE_ID.match(rid) or rid.split(".")[0] != concern:
        check.add(loc + ("id",), rid if isinstance(rid, str) else None,
                  f"id must be '{concern}.<snake_case name>', got {rid!r}",
                  f"id 必须形如 '{concern}.<snake_case 名称>'，实际为 {rid!r}")
        rid = rid if isinstance(rid, str) else None
    before = len(check.problems)
    for key in sorted(set(raw) - set(RULE_KEYS)):
        check.add(loc + (key,), rid, f"unknown key {key!r}", f"未知字段 {key!r}")
    for key in ("when", "then", "message", "why", "sources"):
        if key not in raw:
            check.add(loc, rid, f"{key} is required", f"必须填写 {key}")
    when = parse_when(raw["when"], loc + ("when",), lambda at, en, zh: check.add(at, rid, en, zh)) \
        if "when" in raw else None
    then_kind = _then(check, raw["then"], loc + ("then",), rid) if "then" in raw else None
    message = _text(check, raw.get("message"), loc + ("message",), rid, "message")
    why = _text(check, raw.get("why"), loc + ("why",), rid, "why")
    remedy = _text(check, raw["remedy"], loc + ("remedy",), rid, "remedy") \
        if "remedy" in raw else None
    cited = raw.get("sources")
    if not isinstance(cited, list) or not cited:
        check.add(loc + ("sources",), rid, "sources must list article facts, e.g. [F17]",
                  "sources 必须列出文章事实编号，例如 [F17]")
        cited = []
    for j, src in enumerate(cited):
        if src not in sources:
            check.add(loc + ("sources", j), rid, f"unknown source {src!r} (article facts: F01-F32)",
                      f"未知来源 {src!r}（文章事实为 F01–F32）")
    priority = raw.get("priority", 0)
    if isinstance(priority, bool) or not isinstance(priority, int) or not -1000 <= priority <= 1000:
        check.add(loc + ("priority",), rid, "priority must be a whole number from -1000 to 1000",
                  "priority 必须是 -1000 到 1000 的整数")
    if len(check.problems) > before or when is None or then_kind is None or rid is None:
        return None
    then, kind = then_kind
    if kind == "pitfall" and remedy is None:
        check.add(loc, rid, "a pitfall needs a remedy in en and zh", "注意事项必须给出 en 与 zh 的 remedy")
        return None
    rule = Rule(id=rid, concern=concern, when=when, then=then, message=message, why=why,
                sources=tuple(cited), priority=priority, remedy=remedy, file=check.source,
                line=check.index.line_of(loc) or 0, kind=kind,
                facts_used=tuple(dict.fromkeys(c.fact for c in leaves(when))))
    _check_stage_and_quotes(check, rule, raw, loc)
    return None if len(check.problems) > before else rule


def _check_stage_and_quotes(check: _FileCheck, rule: Rule, raw: dict, loc: tuple) -> None:
    late = [f for f in rule.facts_used
            if FACTS[f].stage not in READABLE_FACT_STAGES[rule.stage]]
    if late and rule.stage == "decide":
        check.add(loc + ("when",), rule.id, f"a verdict rule cannot read verdict facts {late}",
                  f"裁决规则不能读取裁决事实 {late}")
    elif late:
        check.add(loc + ("when",), rule.id,
                  f"a setup rule cannot read the setup it chooses {late}",
                  f"选择配置的规则不能读取配置事实 {late}")
    quotable = rule.quotable_facts()
    for key, value in rule.then.items():
        if isinstance(value, FactRef) and value.fact not in quotable:
            check.add(loc + ("then", key), rule.id,
                      f"{value.fact} may be absent here: test it in when first",
                      f"{value.fact} 此处可能不存在：请先在 when 中判断")
    for name in ("message", "why", "remedy"):
        for lang in ("en", "zh"):
            template = (raw.get(name) or {}).get(lang) or ""
            try:
                fields = placeholders(template)
            except ValueError as exc:
                check.add(loc + (name, lang), rule.id, f"bad placeholder in {name}.{lang}: {exc}",
                          f"{name}.{lang} 的占位符有误：{exc}")
                continue
            bad = [fact for fact, _ in fields if fact not in FACTS or fact not in quotable]
            for fact in bad:
                check.add(loc + (name, lang), rule.id,
                          f"{name}.{lang} quotes {{{fact}}}, which is unknown or may be absent",
                          f"{name}.{lang} 引用的 {{{fact}}} 未知或可能不存在")
            if bad:
                continue
            timed = [f for f, spec in fields if spec == DURATION
                     and FACTS[f].kind not in ("int", "float")]
            for fact in timed:
                check.add(loc + (name, lang), rule.id,
                          f"{name}.{lang}: {{{fact}:duration}} needs a number of hours",
                          f"{name}.{lang}：{{{fact}:duration}} 须是小时数")
            if timed:
                continue
            try:
                format_text(template, {f: SAMPLE[FACTS[f].kind] for f, _ in fields}, lang)
            except (ValueError, KeyError, IndexError) as exc:
                check.add(loc + (name, lang), rule.id, f"bad placeholder in {name}.{lang}: {exc}",
                          f"{name}.{lang} 的占位符有误：{exc}")


def load_rule_file(path: Path, sources: set[str] | None = None) -> list[Rule]:
    """The rules of one file; InputError naming file, line and rule id for every problem."""
    from advisor.files.reading import read_text_file

    source = str(path)
    data, index = _parse(read_text_file(path), source)
    check = _FileCheck(source, index)
    concern = path.stem
    if not isinstance(data, dict) or set(data) - {"concern", "description", "rules"}:
        check.add((), None, "a rule file is {concern, description, rules}",
                  "规则文件的结构为 {concern, description, rules}")
        raise InputError(check.problems, source)
    if data.get("concern") != concern:
        check.add(("concern",), None, f"concern must be the file name {concern!r}",
                  f"concern 必须与文件名一致 {concern!r}")
    items = data.get("rules")
    if not isinstance(items, list) or not items:
        check.add(("rules",), None, "rules must be a non-empty list", "rules 必须是非空列表")
        raise InputError(check.problems, source)
    known = sources if sources is not None else _known_sources()
    rules = [r for i, raw in enumerate(items) if (r := _rule(check, raw, i, concern, known))]
    if check.problems:
        raise InputError(check.problems, source)
    return rules


def load_rules(paths: Iterable[Path]) -> list[Rule]:
    """Every rule of ``paths``; a duplicate id is an error in the file where it comes second."""
    sources = _known_sources()
    seen: dict[str, Rule] = {}
    for path in sorted(paths):
        for rule in load_rule_file(path, sources):
            first = seen.get(rule.id)
            if first:
                raise InputError([Problem(
                    f"rule {rule.id}: id", f"duplicate rule id (first at {first.file}:{first.line})",
                    f"规则 id 重复（首次出现于 {first.file}:{first.line}）", rule.line)], rule.file)
            seen[rule.id] = rule
    return list(seen.values())


__all__ = ["OPS", "load_rule_file", "load_rules"]
