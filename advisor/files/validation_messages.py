"""Turn pydantic validation errors into short bilingual messages that name the field."""

from __future__ import annotations

import difflib
import types
import typing
from collections.abc import Callable, Sequence
from typing import Any

from pydantic import BaseModel, ValidationError

from advisor.files.errors import Problem, Problems
from advisor.files.yaml_lines import FULL_WIDTH
from advisor.text.numbers import quantity
from advisor.text.safe import shown


def _fmt(value: Any, lang: str = "en") -> str:
    return shown(value, 60, lang)


_TEMPLATES: dict[str, tuple[str, str]] = {
    "greater_than_equal": ("must be ≥ {ge}, got {input}", "必须 ≥ {ge}，实际为 {input}"),
    "greater_than": ("must be > {gt}, got {input}", "必须 > {gt}，实际为 {input}"),
    "less_than_equal": ("must be ≤ {le}, got {input}", "必须 ≤ {le}，实际为 {input}"),
    "less_than": ("must be < {lt}, got {input}", "必须 < {lt}，实际为 {input}"),
    "missing": ("is required", "必须填写"),
    "extra_forbidden": ("unknown key {input_key}", "未知字段 {input_key}"),
    "finite_number": ("must be a finite number, got {input}", "必须是有限数值，实际为 {input}"),
    "int_type": ("must be a whole number, got {input}", "必须是整数，实际为 {input}"),
    "int_parsing": ("must be a whole number, got {input}", "必须是整数，实际为 {input}"),
    "int_from_float": ("must be a whole number, got {input}", "必须是整数，实际为 {input}"),
    "float_type": ("must be a number, got {input}", "必须是数值，实际为 {input}"),
    "float_parsing": ("must be a number, got {input}", "必须是数值，实际为 {input}"),
    "bool_type": ("must be true or false, got {input}", "必须是 true 或 false，实际为 {input}"),
    "bool_parsing": ("must be true or false, got {input}", "必须是 true 或 false，实际为 {input}"),
    "string_type": ("must be text, got {input}", "必须是文本，实际为 {input}"),
    "string_too_short": ("must not be empty", "不能为空"),
    "string_too_long": ("is too long (at most {max_length} characters)",
                        "太长（最多 {max_length} 个字符）"),
    "too_short": ("needs at least {min_length} entries", "至少需要 {min_length} 项"),
    "too_long": ("has too many entries (at most {max_length})", "条目过多（最多 {max_length} 项）"),
    "enum": ("must be one of {expected}, got {input}", "必须是 {expected} 之一，实际为 {input}"),
    "literal_error": ("must be {expected}, got {input}", "必须是 {expected}，实际为 {input}"),
    "model_type": ("must be a mapping of keys to values, got {input}",
                   "必须是键值映射，实际为 {input}"),
    "model_attributes_type": ("must be a mapping of keys to values, got {input}",
                              "必须是键值映射，实际为 {input}"),
    "dict_type": ("must be a mapping of keys to values, got {input}",
                  "必须是键值映射，实际为 {input}"),
    "list_type": ("must be a list, got {input}", "必须是列表，实际为 {input}"),
    "invalid_key": ("keys must be text, got {input}", "键必须是文本，实际为 {input}"),
    # advisor.files.number_fields: YAML 1.1-only text (1:30, 010, yes) where a number is due
    "yaml11_number": ("must be a plain number, got {input}: YAML 1.1 reads it as {meaning} - "
                      "write the number you mean",
                      "必须是普通数字，实际为 {input}：YAML 1.1 会把它读作 {meaning}——请直接写出"
                      "您想要的数字"),
    # advisor.files.number_fields: true/false where a number is due (issue 35)
    "bool_not_number": ("must be a number, got {input}", "必须是数值，实际为 {input}"),
    # catalog bands (advisor/catalog/entries.py)
    "band_order": ("must not exceed {high_name} ({high}), got {input}",
                   "不能大于 {high_name}（{high}），实际为 {input}"),
    "band_outside": ("must lie between {low_name} ({low}) and {high_name} ({high}), got {input}",
                     "必须在 {low_name}（{low}）与 {high_name}（{high}）之间，实际为 {input}"),
    # raised by the profile's own validators (advisor/profile/)
    "number_between": ("must be between {low} and {high}, got {input}",
                       "必须在 {low} 到 {high} 之间，实际为 {input}"),
    "one_key_of": ("give only one of {keys}", "只能填写 {keys} 其中之一"),
    "revenue_value_missing": (
        "time_value is revenue, but what a day of revenue is worth is not given: fill in "
        "economics.value_per_day, or set time_value to none",
        "time_value 为 revenue，但没有填写一天的收入值多少：请填写 economics.value_per_day，"
        "或把 time_value 设为 none"),
    "deadline_value_missing": (
        "time_value is deadline, but neither what a day saved is worth nor the deadline is "
        "given: fill in economics.value_per_day or economics.deadline_days, or set time_value "
        "to none",
        "time_value 为 deadline，但既没有填写省下一天值多少，也没有填写截止时间：请填写 "
        "economics.value_per_day 或 economics.deadline_days，或把 time_value 设为 none"),
    "sequence_length_missing": (
        "the single-GPU throughput counts {unit}, which become samples only through the "
        "sequence length: fill in model.sequence_length (tokens or frames in one sample), or give "
        "the throughput in samples per second",
        "单卡吞吐按 {unit} 计，需要序列长度才能折算成样本：请填写 model.sequence_length（每个样本的 "
        "token 数或帧数），或按每秒样本数填写吞吐"),
    "pure_16bit_needs_16bit": (
        "pure 16-bit training keeps the weights and optimizer states in bf16 or fp16: set "
        "training.precision to bf16 or fp16 (it is {precision}), or pure_16bit to false",
        "纯 16 位训练的权重和优化器状态是 bf16 或 fp16：请把 training.precision 设为 bf16 或 fp16"
        "（现在是 {precision}），或把 pure_16bit 设为 false"),
    "audio_samples_per_sample_missing": (
        "the single-GPU throughput counts audio samples: fill in "
        "training.audio_samples_per_sample (audio samples in one training sample), or give the "
        "throughput in samples per second",
        "单卡吞吐按音频采样点计：请填写 training.audio_samples_per_sample（一个训练样本的采样点数），"
        "或按每秒样本数填写吞吐"),
}

# Errors that only say the input is of another type: in a union (hardware.gpu: text or a
# custom GPU's numbers) such a branch is noise when another branch took the input's type.
_TYPE_ERRORS = frozenset({"string_type", "model_type", "model_attributes_type", "dict_type"})

# Sentences raised by our own validators, translated for the Chinese message.
_VALUE_ERRORS_ZH: dict[str, str] = {
    "give single_gpu_hours, single_gpu_throughput with dataset_samples and epochs, "
    "or the data's size to plan from (dataset_tokens, or dataset_samples and epochs)":
        "请填写 single_gpu_hours，或同时填写 single_gpu_throughput、dataset_samples 和 epochs，"
        "或填写数据规模以按计算量规划（dataset_tokens，或 dataset_samples 和 epochs）",
    "attention_heads must divide hidden_size": "attention_heads 必须整除 hidden_size",
    "kv_heads must divide attention_heads": "kv_heads 必须整除 attention_heads",
    "inter_link: several machines need a network between them (inter_link is none)":
        "inter_link：多台机器之间需要网络（当前为 none）",
    "training.method: LoRA and QLoRA apply to transformer language models (task llm or nlp) "
    "and diffusion models (task diffusion)":
        "training.method：LoRA 和 QLoRA 只适用于 Transformer 语言模型（任务 llm 或 nlp）和扩散模型"
        "（任务 diffusion）",
    "training.offload applies to transformer language models (task llm or nlp) and diffusion "
    "models (task diffusion)":
        "training.offload 只适用于 Transformer 语言模型（任务 llm 或 nlp）和扩散模型（任务 diffusion）",
    "training.loss applies to language models (task llm or nlp)":
        "training.loss 只适用于语言模型（任务 llm 或 nlp）",
    "training.optimizer: adafactor is not modelled for language models (task llm or nlp) yet; "
    "choose adamw or adamw_8bit":
        "training.optimizer：暂不支持为语言模型（任务 llm 或 nlp）估算 adafactor；请选择 adamw 或 "
        "adamw_8bit",
    "give either throughput or step_time_s": "throughput 与 step_time_s 二选一",
    "each GPU count may appear only once": "每个卡数只能出现一次",
    "use throughput for every point, or step_time_s for every point":
        "所有测量点须统一使用 throughput 或 step_time_s",
    # catalog override entries (advisor/catalog/entries.py)
    "source must name where the number comes from": "source 必须注明数字的出处",
    "low must not exceed high": "low 不能大于 high",
}


def _is_branch(item: Any) -> bool:
    return isinstance(item, str) and (item in {"str", "CustomGpu"} or "[" in item)


def _path(loc: Sequence[Any]) -> str:
    parts: list[str] = []
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        elif _is_branch(item):
            continue  # union branch names are noise for a user
        else:
            parts.append(("." if parts else "") + str(item))
    return "".join(parts)


def _branch(loc: tuple[Any, ...]) -> tuple[tuple[Any, ...], Any] | None:
    """(the union's location, the branch) of an error inside a union, else None."""
    for i, item in enumerate(loc):
        if _is_branch(item):
            return loc[:i], item
    return None


def _meant_branches(errors: list[dict[str, Any]]) -> set[tuple[tuple[Any, ...], Any]]:
    """Union branches whose errors are about the value itself, not its type: the branch the
    user meant (a mapping for hardware.gpu is a custom GPU, not a catalog name)."""
    return {b for err in errors if err.get("type") not in _TYPE_ERRORS
            and (b := _branch(tuple(err.get("loc", ())))) is not None}


def _wrong_branch(loc: tuple[Any, ...], kind: str, meant: set[tuple[tuple[Any, ...], Any]]) -> bool:
    branch = _branch(loc)
    return (branch is not None and kind in _TYPE_ERRORS
            and any(where == branch[0] and other != branch[1] for where, other in meant))


def _child(value: Any, key: Any) -> Any:
    if isinstance(value, dict):
        return value.get(key)
    if isinstance(value, list | tuple) and isinstance(key, int):
        return value[key] if 0 <= key < len(value) else None
    return getattr(value, key, value) if isinstance(key, str) else value


MAX_PROBLEMS = 200  # described, each with its line; the rest are counted


def _models_in(annotation: Any) -> list[type[BaseModel]]:
    """The pydantic models an annotation holds (through Optional, unions, lists, dicts)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    out: list[type[BaseModel]] = []
    if typing.get_origin(annotation) is not None or isinstance(annotation, types.UnionType):
        for arg in typing.get_args(annotation):
            out += _models_in(arg)
    return out


def _keys_at(model: type[BaseModel] | None, path: tuple[Any, ...]) -> list[str]:
    """The keys a mapping at ``path`` under ``model`` may hold (fields and their aliases);
    [] where the path leaves the models."""
    models = [model] if model is not None else []
    for part in path:
        if isinstance(part, int) or not models:
            continue
        named = [m for m in models if m.__name__ == part]  # a union's branch in the path
        if named:
            models = named
            continue
        found: list[type[BaseModel]] = []
        for m in models:
            for name, field in m.model_fields.items():
                if part in (name, field.alias):
                    found += _models_in(field.annotation)
        models = found
    return sorted({k for m in models for name, f in m.model_fields.items()
                   for k in (name, f.alias) if k})


_COUNT_WORDS = frozenset({"gpus", "num_gpus", "n_gpus", "gpu_count", "gpus_count", "ngpus"})


def _unknown_key(key: Any, known: list[str]) -> tuple[str, str]:
    """What to add after "unknown key 'x'": the full-width character an input method left in
    it, or the known key it is closest to (" (did you mean 'batch_per_gpu'?)")."""
    text = str(key)
    wide = next((c for c in FULL_WIDTH if c in text), None)
    if wide is not None:
        # (a user review: "hardware.gpus_per_node：4: unknown key" never named the colon)
        meant = text.split(wide, 1)[0].strip()
        what_en, what_zh, use_en, use_zh = FULL_WIDTH[wide]
        return (f" ({what_en} after {meant!r}: write {use_en})",
                f"（{meant!r} 后面是{what_zh}：请改成{use_zh}）")
    if text.lower() in _COUNT_WORDS and "gpus_per_node" in known:  # "gpus: 2" in hardware
        return (" (did you mean 'gpus_per_node', the GPUs in one machine, with 'nodes'?)",
                "（是否想写 'gpus_per_node'（每台机器的卡数），以及 'nodes'？）")
    close = difflib.get_close_matches(text, known, n=1, cutoff=0.75)
    if not close:
        return "", ""
    return f" (did you mean {close[0]!r}?)", f"（是否想写 {close[0]!r}？）"


def problems_from_validation(
    error: ValidationError, line_of: Callable[[tuple[Any, ...]], int | None] | None = None,
    *, limit: int = MAX_PROBLEMS, model: type[BaseModel] | None = None,
) -> Problems:
    """One Problem per error, deduplicated, with the YAML line when ``line_of`` knows it; past
    ``limit`` problems the rest are only counted (``Problems.more``). ``model``: the model
    validated, whose keys an unknown key is matched against ("did you mean ...?")."""
    problems = Problems()
    seen: set[tuple[str, str]] = set()
    errors = error.errors(include_url=False)
    meant = _meant_branches(errors)
    for number, err in enumerate(errors):
        if len(problems) >= limit:
            problems.more = len(errors) - number
            break
        loc = tuple(err.get("loc", ()))
        kind = err.get("type", "")
        if _wrong_branch(loc, kind, meant):
            continue
        ctx = dict(err.get("ctx") or {})
        value = err.get("input")
        if "at" in ctx:  # a section's validator speaking about one of its keys
            loc += (ctx["at"],)
            value = _child(value, ctx["at"])
        for part in ctx.get("at_path", ()):  # ... or about a key further down
            loc += (part,)
            value = _child(value, part)
        line_loc = loc
        if "line_at" in ctx and value is None:  # absent: the key that asks for it has the line
            # relative to the validator's own section ("training.throughput_unit" from the top)
            line_loc = tuple(err.get("loc", ())) + tuple(str(ctx["line_at"]).split("."))
        ctx["input"] = _fmt(value)
        for bound in ("ge", "gt", "le", "lt"):  # 1 s in hours: 0.000278, not 17 digits
            if isinstance(ctx.get(bound), float) and len(repr(ctx[bound])) > 10:
                ctx[bound] = quantity(ctx[bound])
        hint = ("", "")
        if kind == "extra_forbidden":
            ctx["input_key"] = repr(loc[-1]) if loc else "?"
            if loc:
                hint = _unknown_key(loc[-1], _keys_at(model, loc[:-1]))
        if "message_zh" in ctx:  # a validator's own sentence, with its Chinese
            msg_en, msg_zh = str(err.get("msg", kind)), str(ctx["message_zh"])
        elif kind in ("value_error", "assertion_error"):
            raw = str(ctx.get("error", err.get("msg", "")))
            msg_en = raw
            msg_zh = _VALUE_ERRORS_ZH.get(raw, raw)
        elif kind in _TEMPLATES:
            en, zh = _TEMPLATES[kind]
            try:
                # pydantic joins the choices in English ("'a', 'b' or 'c'"); 或 in Chinese
                zh_ctx = {**ctx, "input": _fmt(value, "zh")}
                if ctx.get("meaning") == "a number":  # YAML 1.1's reading, said in Chinese
                    zh_ctx["meaning"] = "一个数"
                if "expected" in ctx:
                    zh_ctx["expected"] = str(ctx["expected"]).replace(" or ", " 或 ")
                msg_en, msg_zh = en.format(**ctx), zh.format(**zh_ctx)
            except (KeyError, IndexError):
                msg_en = msg_zh = err.get("msg", kind)
        else:
            msg_en = f"{err.get('msg', kind)} (got {ctx['input']})"
            msg_zh = f"{err.get('msg', kind)}（实际为 {ctx['input']}）"
        msg_en, msg_zh = msg_en + hint[0], msg_zh + hint[1]
        path = _path(loc)
        if (path, msg_en) in seen:
            continue
        seen.add((path, msg_en))
        line = line_of(line_loc) if line_of else None
        problems.append(Problem(path, msg_en, msg_zh, line))
    return problems
