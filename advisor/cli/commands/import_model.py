"""gpu-advisor import-model CONFIG.json: a Hugging Face ``config.json`` read (offline) into a
profile's task and model section, printed as YAML to paste into a profile (or JSON).

The parameters are counted from the shapes (``advisor.catalog.hf_config``); a mixture of
experts' experts, experts per token, active parameters and expert width go in the model section
(issue 32); what the profile has no field for (context length, tied embeddings) is said in
comments. When the shape is a catalog model's, a comment names its id. ``-`` reads
standard input. A file that is not a config.json, or one missing a key the count needs, exits
with status 2 and names the file and the key.
"""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from advisor.catalog.hf_config import ImportedModel, import_config, read_config
from advisor.files.errors import InputError, Problem
from advisor.files.json_text import dumps_strict
from advisor.files.validation_messages import problems_from_validation
from advisor.files.yaml_lines import dump_yaml
from advisor.text.i18n import pick
from advisor.text.numbers import quantity


def register(sub) -> None:
    p = sub.add_parser("import-model", help="read a Hugging Face config.json (offline) into a "
                                            "profile's model section")
    p.add_argument("config", metavar="CONFIG", help="a model's config.json; '-' reads "
                                                    "standard input")
    p.add_argument("--format", choices=["yaml", "json"], default="yaml")
    p.set_defaults(handler=run)


def _checked(imported: ImportedModel, source: str) -> dict[str, Any]:
    """The model section, with the fields the profile has of what the config says beyond it,
    validated as a profile's model section would be."""
    from advisor.profile import ModelSpec

    section = {"name": imported.name, **imported.fields,
               **{k: v for k, v in imported.facts.items() if k in ModelSpec.model_fields}}
    try:
        ModelSpec.model_validate(section)
    except ValidationError as exc:
        problems = problems_from_validation(exc)
        raise InputError([Problem(f"model.{p.path}", p.message_en, p.message_zh)
                          for p in problems], source) from None
    return section


def catalog_match(imported: ImportedModel) -> str | None:
    """The id of the catalog model with this shape (layers, width, heads, key/value heads,
    vocabulary, feed-forward width, experts), if one has it."""
    from advisor.catalog.models import load_models

    f, facts = imported.fields, imported.facts
    want = (f.get("layers"), f.get("hidden_size"), f.get("attention_heads"),
            f.get("kv_heads") or f.get("attention_heads"), f.get("vocab_size"),
            facts.get("intermediate_size"), facts.get("experts"))
    for entry in load_models():
        have = (entry.layers, entry.hidden_size, entry.attention_heads,
                entry.kv_heads or entry.attention_heads, entry.vocab_size,
                entry.intermediate_size, entry.experts)
        if have == want and entry.task.value == imported.task:
            return entry.id
    return None


def _comments(imported: ImportedModel, source: str, section: dict[str, Any], lang: str,
              match: str | None) -> list[str]:
    params = quantity(imported.params / 1e6)
    lines = [pick(lang, f"# gpu-advisor import-model: {source} (model_type "
                        f"{imported.model_type}), read offline",
                  f"# gpu-advisor import-model：{source}（model_type {imported.model_type}），离线读取"),
             pick(lang, f"# parameters counted from the shapes: {params} M",
                  f"# 按结构计算的参数量：{params} M")]
    facts = imported.facts
    if facts.get("experts"):
        active = quantity(imported.active_params / 1e6)
        lines.append(pick(
            lang, f"# mixture of experts: {facts['experts']} experts, "
                  f"{facts['experts_per_token']} per token: {active} M of the {params} M "
                  "parameters run for each token",
            f"# 混合专家：{facts['experts']} 个专家，每个 token 用 {facts['experts_per_token']} "
            f"个：{params} M 参数中每个 token 经过 {active} M"))
    left = {k: v for k, v in facts.items() if k not in section}
    if left:
        listed = ", ".join(f"{k} {str(v).lower() if isinstance(v, bool) else v}"
                           for k, v in left.items())
        lines.append(pick(lang, f"# not in a profile's model section: {listed}",
                          f"# 配置的模型部分没有这些字段：{listed}"))
    lines += [f"# {pick(lang, en, zh)}" for en, zh in imported.notes]
    if match:
        lines.append(pick(lang, f"# the catalog's {match} has this shape: `model: {{id: "
                                f"{match}}}` names it",
                          f"# 模型库中的 {match} 结构相同：可写 `model: {{id: {match}}}`"))
    return lines


def run(args) -> int:
    source = "<stdin>" if args.config == "-" else args.config
    imported = import_config(read_config(args.config), args.config)
    section = _checked(imported, source)
    match = catalog_match(imported)
    if args.format == "json":
        print(dumps_strict({"task": imported.task, "model": section,
                            "model_type": imported.model_type, "facts": imported.facts,
                            "active_params_millions": round(imported.active_params / 1e6, 1),
                            "catalog_id": match,
                            "notes": [{"en": en, "zh": zh} for en, zh in imported.notes]}))
        return 0
    print("\n".join(_comments(imported, source, section, args.lang, match)))
    print(dump_yaml({"task": imported.task, "model": section}), end="")
    return 0
