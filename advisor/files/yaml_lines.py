"""Safe YAML loading that remembers where each key sits, so errors can name the line.

One loader for every user YAML file (profile, catalog override, autosave):

- *Safe*: PyYAML's SafeLoader (no tags that construct objects); duplicate keys refused.
- *Bounded*: anchors and aliases are refused (a few bytes of nested aliases expand to billions
  of nodes, "billion laughs"), and so are nesting deeper than ``MAX_NESTING`` and more than
  ``MAX_ITEMS`` entries in one mapping or list, all from the event stream before anything is
  composed, so a hostile file costs no more than the part read before the refusal (brackets
  inside quoted text are text, not nesting). Integers longer than
  ``MAX_INT_DIGITS`` are refused before Python's 4,300-digit limit raises in the constructor.
- *YAML 1.2 numbers*: YAML 1.1 (PyYAML's default) reads ``1:30`` as 90 (base 60), ``010`` as
  8 (octal) and ``yes`` as true. Here only YAML 1.2's forms are numbers and booleans; the
  1.1-only forms load as :class:`Yaml11Scalar` text, which a field expecting a number refuses
  with the line (``number_problem``) and a text field keeps as written.

``dump_yaml`` writes with the same rules, quoting any text that would read back as something
else.
"""

from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.composer import ComposerError
from yaml.constructor import ConstructorError

from advisor.files.errors import InputError

MAX_NESTING = 64  # a profile nests 3 levels
MAX_INT_DIGITS = 40  # no bound in any input is near 10**40
# entries of one mapping or list: a profile has a few dozen keys, a catalog section reads 500
MAX_ITEMS = 10_000

_BOOL = "tag:yaml.org,2002:bool"
_INT = "tag:yaml.org,2002:int"
_FLOAT = "tag:yaml.org,2002:float"
YAML11_TAG = "tag:gpu-advisor,2026:yaml11"

# YAML 1.2 core schema
_BOOL_12 = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_INT_12 = re.compile(r"^(?:[-+]?(?:0|[1-9][0-9]*)|0o[0-7]+|0x[0-9a-fA-F]+)$")
_FLOAT_12 = re.compile(r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
                       r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$")
# what YAML 1.1 reads as a number or a boolean and YAML 1.2 does not (or reads otherwise)
_ONLY_11 = re.compile(r"^(?:yes|Yes|YES|no|No|NO|on|On|ON|off|Off|OFF|y|Y|n|N"
                      r"|[-+]?0[0-9_]+(?:\.[0-9_]*)?"  # 010: octal 8 in 1.1, 10 in 1.2
                      r"|[-+]?0b[01_]+"
                      r"|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?"  # 1:30 = 90
                      r"|[-+]?[0-9][0-9_]*_[0-9_]*(?:\.[0-9_]*)?(?:[eE][-+][0-9]+)?)$")
_FIRST = list("-+0123456789.tTfFyYnNoO")


class Yaml11Scalar(str):
    """Plain text that YAML 1.1 reads as a number or a boolean (``1:30``, ``010``, ``yes``):
    text here; ``meaning`` is what YAML 1.1 makes of it."""

    meaning: str

    def __new__(cls, value: str, meaning: str) -> Yaml11Scalar:
        obj = super().__new__(cls, value)
        obj.meaning = meaning
        return obj

    def __reduce__(self):  # copied, deep-copied and pickled with its meaning (a str
        return (type(self), (str(self), self.meaning))  # subclass would lose the argument)


def _yaml11_meaning(value: str) -> str:
    if value.lower() in ("yes", "y", "on"):
        return "true"
    if value.lower() in ("no", "n", "off"):
        return "false"
    try:
        node = yaml.ScalarNode(_FLOAT if "." in value else _INT, value)
        number = yaml.SafeLoader("").construct_object(node)
        return str(number)
    except (ValueError, ConstructorError, OverflowError):
        return "a number"


def _resolvers_12(cls: type) -> None:
    """Replace YAML 1.1's implicit number and boolean resolvers of ``cls`` by YAML 1.2's."""
    kept = {first: [(tag, rx) for tag, rx in pairs if tag not in (_BOOL, _INT, _FLOAT)]
            for first, pairs in yaml.SafeLoader.yaml_implicit_resolvers.items()}
    cls.yaml_implicit_resolvers = kept
    # first: a resolver list is tried in order, and YAML 1.2's float pattern matches "010" too
    cls.add_implicit_resolver(YAML11_TAG, _ONLY_11, _FIRST)
    cls.add_implicit_resolver(_BOOL, _BOOL_12, list("tTfF"))
    cls.add_implicit_resolver(_INT, _INT_12, list("-+0123456789"))
    cls.add_implicit_resolver(_FLOAT, _FLOAT_12, list("-+0123456789."))


def _construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False):
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)  # type: ignore[arg-type]
        try:
            hash(key)
        except TypeError:
            raise ConstructorError(None, None, "a key must be plain text",
                                   key_node.start_mark) from None
        if key in seen:
            raise ConstructorError(None, None, f"duplicate key {key!r} (first at line "
                                   f"{seen[key]})", key_node.start_mark)
        seen[key] = key_node.start_mark.line + 1
    return loader.construct_mapping(node, deep=deep)


def _construct_int(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> int:
    text = loader.construct_scalar(node)
    digits = text.lstrip("+-")
    if len(digits) > MAX_INT_DIGITS:
        raise ConstructorError(None, None, f"a number of {len(digits)} digits is too long",
                               node.start_mark)
    sign = -1 if text.startswith("-") else 1
    if digits.startswith("0x"):
        return sign * int(digits[2:], 16)
    if digits.startswith("0o"):
        return sign * int(digits[2:], 8)
    return sign * int(digits)


def _construct_float(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> float:
    text = loader.construct_scalar(node)
    lowered = text.lower()
    if lowered.endswith(".inf"):
        return float("-inf") if text.startswith("-") else float("inf")
    if lowered == ".nan":
        return float("nan")
    return float(text)


def _construct_yaml11(loader: yaml.SafeLoader, node: yaml.ScalarNode) -> Yaml11Scalar:
    text = loader.construct_scalar(node)
    if len(text) > MAX_INT_DIGITS:
        return Yaml11Scalar(text, "a number")
    return Yaml11Scalar(text, _yaml11_meaning(text))


class _UniqueKeyLoader(yaml.SafeLoader):
    """SafeLoader with YAML 1.2 numbers that refuses duplicate keys, aliases, anchors and deep
    nesting."""

    _depth = 0

    def compose_node(self, parent, index):  # type: ignore[no-untyped-def]
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise ComposerError(None, None, "YAML anchors and aliases (&name, *name) are not "
                                "supported", event.start_mark)
        self._depth += 1
        try:
            if self._depth > MAX_NESTING:
                raise ComposerError(None, None, "nested too deeply", event.start_mark)
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


_resolvers_12(_UniqueKeyLoader)
_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
                                 _construct_mapping)
_UniqueKeyLoader.add_constructor(_INT, _construct_int)
_UniqueKeyLoader.add_constructor(_FLOAT, _construct_float)
_UniqueKeyLoader.add_constructor(YAML11_TAG, _construct_yaml11)


_CLoader = getattr(yaml, "CSafeLoader", None)


class _FastLoader(_CLoader or yaml.SafeLoader):  # type: ignore[misc]
    """libyaml's parser and composer (four times faster on a 1 MB file) with the same
    resolvers and constructors; its events are checked for aliases and depth first
    (``_check_events``), since its composer cannot be."""


for _cls in (_FastLoader,):
    _resolvers_12(_cls)
    _cls.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
    _cls.add_constructor(_INT, _construct_int)
    _cls.add_constructor(_FLOAT, _construct_float)
    _cls.add_constructor(YAML11_TAG, _construct_yaml11)


def _check_events(text: str) -> None:
    """Refuse anchors, aliases, deep nesting and oversized collections from the event stream
    (libyaml's when built with it), before a composer builds anything; stops at the first
    refusal, so a hostile file costs only the part read before it."""
    sizes: list[list[int]] = []  # [nodes so far, most allowed] of each open collection
    for event in yaml.parse(text, Loader=_FastLoader):
        if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
            raise ComposerError(None, None, "YAML anchors and aliases (&name, *name) are not "
                                "supported", event.start_mark)
        if isinstance(event, yaml.CollectionEndEvent):
            sizes.pop()
            continue
        if not isinstance(event, yaml.NodeEvent):
            continue
        if sizes:
            sizes[-1][0] += 1
            if sizes[-1][0] > sizes[-1][1]:
                raise ComposerError(None, None, "too many entries", event.start_mark)
        if isinstance(event, yaml.CollectionStartEvent):  # a mapping's nodes: keys and values
            sizes.append([0, (2 if isinstance(event, yaml.MappingStartEvent) else 1) * MAX_ITEMS])
            if len(sizes) > MAX_NESTING:
                raise ComposerError(None, None, "nested too deeply", event.start_mark)


class _Dumper(yaml.SafeDumper):
    """SafeDumper whose idea of "plain text" is the loader's: text that would read back as a
    number, a boolean or YAML 1.1-only text is quoted."""


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    # PyYAML writes a NEL (U+0085) as it is inside single quotes, where the reader folds it
    # like a line break (a note "a\x85b" read back as "a b"): double quotes escape it (\N).
    if "\x85" in value:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"')
    return yaml.SafeDumper.represent_str(dumper, value)


_resolvers_12(_Dumper)
_Dumper.add_representer(str, _represent_str)
_Dumper.add_representer(Yaml11Scalar, _represent_str)


def dump_yaml(data: Any) -> str:
    """``data`` as YAML that ``load_yaml_text`` reads back to the same values."""
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True)


class LineIndex:
    """Maps a field path (as pydantic reports it) to the 1-based line of the YAML node.

    Each mapping's keys are indexed the first time the mapping is looked into, so reporting
    every problem of a file with many keys stays linear (a scan per lookup was quadratic)."""

    def __init__(self, root: yaml.Node | None) -> None:
        self._root = root
        self._keys: dict[int, dict[str, tuple[yaml.Node, yaml.Node]]] = {}

    def _children(self, node: yaml.MappingNode) -> dict[str, tuple[yaml.Node, yaml.Node]]:
        table = self._keys.get(id(node))
        if table is None:
            table = {}
            for key_node, value_node in node.value:
                if isinstance(key_node, yaml.ScalarNode):
                    table.setdefault(key_node.value, (key_node, value_node))
            self._keys[id(node)] = table
        return table

    def line_of(self, loc: tuple[Any, ...]) -> int | None:
        node = self._root
        best = node.start_mark.line + 1 if node is not None else None
        for part in loc:
            if isinstance(node, yaml.MappingNode):
                found = self._children(node).get(str(part))
                if found is None:
                    return best
                best = found[0].start_mark.line + 1
                node = found[1]
            elif isinstance(node, yaml.SequenceNode) and isinstance(part, int):
                if 0 <= part < len(node.value):
                    node = node.value[part]
                    best = node.start_mark.line + 1
                else:
                    return best
            else:
                return best
        if isinstance(node, yaml.ScalarNode):
            return node.start_mark.line + 1
        return best


def _refusal(exc: yaml.MarkedYAMLError) -> tuple[str, str]:
    problem = exc.problem or "invalid YAML"
    if "anchors and aliases" in problem:
        return ("YAML anchors and aliases (&name, *name) are not supported in these files",
                "此类文件不支持 YAML 锚点和别名（&name、*name）")
    if problem == "nested too deeply":
        return "YAML nested too deeply", "YAML 嵌套过深"
    if problem == "too many entries":
        return (f"more than {MAX_ITEMS:,} entries in one mapping or list",
                f"一个映射或列表中超过 {MAX_ITEMS:,} 项")
    if (digits := re.search(r"(\d+) digits is too long", problem)) is not None:
        return problem, f"数字过长（{digits.group(1)} 位）"
    if "could not determine a constructor" in problem:
        tag = re.search(r"tag '([^']*)'", problem)
        said = tag.group(1) if tag else "?"
        return (f"YAML tags that construct objects are not allowed ({problem})",
                f"不允许构造对象的 YAML 标签（无法识别标签 '{said}'）")
    if problem == "but found another document":  # a second '---' (a user review)
        return ("a second YAML document (another '---'): a file holds one profile; remove "
                "the '---' and what follows it, or put it in a file of its own",
                "文件里有第二个 YAML 文档（又一个“---”）：一个文件只放一份配置；请删掉这个“---”及其后"
                "的内容，或把它放进单独的文件")
    return f"not valid YAML: {problem}", f"不是有效的 YAML：{_problem_zh(problem)}"


# PyYAML's own words for what it found, in Chinese (the English is PyYAML's)
_PROBLEMS_ZH: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), zh) for pattern, zh in (
        (r"^mapping values are not allowed here$",
         "这里不能有“键: 值”（值里的冒号要加引号，或检查缩进）"),
        (r"^found character '(.+)' that cannot start any token$",
         r"字符 '\1' 不能出现在这里（缩进只能用空格，不能用制表符；特殊字符要加引号）"),
        (r"^found unexpected end of stream$", "文件意外结束（引号或括号没有闭合）"),
        (r"^duplicate key (.+) \(first at line (\d+)\)$", r"重复的键 \1（第 \2 行已有）"),
        (r"^expected <block end>, but found '(.+)'$", r"缩进不一致：这里出现了 '\1'"),
        (r"^expected ',' or '(.)', but got '(.+)'$", r"应为 ',' 或 '\1'，却是 '\2'"),
        (r"^found unknown escape character '(.+)'$",
         r"未知的转义字符 '\1'（反斜杠在双引号里要写成 \\\\）"),
        (r"^could not find expected '(.+)'$", r"找不到应有的 '\1'"),
        (r"^a key must be plain text$", "键必须是普通文本"),
        (r"^expected the node content, but found '(.+)'$", r"这里应有一个值，却是 '\1'"),
        (r"^expected a single document in the stream$", "应只有一个文档"),
        (r"^did not find expected key$", "找不到应有的键（检查缩进，或是否少了“:”）"),
        (r"^did not find expected node content$", "找不到应有的值"),
        (r"^found undefined tag handle '(.+)'$", r"未定义的标签前缀 '\1'"),
    ))


def _problem_zh(problem: str) -> str:
    for pattern, zh in _PROBLEMS_ZH:
        if pattern.match(problem):
            return pattern.sub(zh, problem)
    return problem


def load_yaml_text(text: str, *, source: str = "<yaml>") -> tuple[Any, LineIndex]:
    """Parse YAML safely; errors become InputError with the line of the problem."""
    try:
        _check_events(text)
    except ComposerError as exc:
        _raise(exc, source, text)
    except (yaml.YAMLError, ValueError):
        pass  # a syntax error: the loader below names it and its line
    if _CLoader is not None:
        try:
            fast = _FastLoader(text)
            try:
                root = fast.get_single_node()
                data = fast.construct_document(root) if root is not None else None
            finally:
                fast.dispose()
            return data, LineIndex(root)
        except (yaml.YAMLError, RecursionError, *_BUILD_ERRORS):
            pass  # the pure-Python loader below names the problem and its line
    return _load_slowly(text, source)


# what building a value can raise for text its tag cannot hold (issue 35: ``!!int abc``,
# ``!!bool maybe``, ``!!timestamp 2023-02-29``)
_BUILD_ERRORS = (ValueError, KeyError, TypeError, OverflowError, AttributeError)


def _unbuildable(loader: Any, root: Any) -> Any:
    """The first scalar under ``root`` that its tag cannot build (None: none found)."""
    stack = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, yaml.ScalarNode):
            loader.constructed_objects, loader.recursive_objects = {}, {}  # a failed build's
            try:
                loader.construct_object(node, deep=True)
            except _BUILD_ERRORS:
                return node
            except yaml.YAMLError:
                continue
        elif isinstance(node, yaml.SequenceNode):
            stack.extend(reversed(node.value))
        elif isinstance(node, yaml.MappingNode):
            stack.extend(item for pair in reversed(node.value) for item in reversed(pair))
    return None


# what a Chinese input method leaves where YAML wants ASCII (a user review: "：" after a key
# was reported on the next line as "mapping values are not allowed here", with advice to quote;
# an unknown key holding one names it too, validation_messages): what it is and what to write,
# in English and Chinese
FULL_WIDTH = {"：": ("a full-width colon '：'", "全角冒号“：”", "':' and a space", "半角“: ”"),
              "，": ("a full-width comma '，'", "全角逗号“，”", "','", "半角“,”"),
              "\u3000": ("a full-width space", "全角空格", "a plain space", "半角空格")}
_WIDE_REACH = 3  # lines before the one PyYAML stopped at where the character may stand


def _wide_character(text: str, line: int) -> tuple[int, str] | None:
    """The nearest line at or before ``line`` (0-based, at most ``_WIDE_REACH`` back) that
    holds a full-width colon, comma or space outside a comment, and the character."""
    lines = text.splitlines()
    for i in range(min(line, len(lines) - 1), max(-1, line - _WIDE_REACH - 1), -1):
        code = lines[i].split("#", 1)[0]
        for wide, where in _WIDE_WHERE.items():
            if where.search(code):
                return i, wide
    return None


# where each stands in the structure (after a key, between a flow's items, in the
# indentation), not inside a value's text ("name: 我的模型，第二版" is a value)
_WIDE_WHERE = {"：": re.compile(r"(^\s*(- )?|[{,]\s*)[A-Za-z_][\w.-]*\s*："),
               "，": re.compile(r"\{[^}]*，\s*[A-Za-z_][\w.-]*\s*[:：]"),
               "\u3000": re.compile(r"^[ \u3000]*\u3000")}


def _raise(exc: yaml.MarkedYAMLError, source: str, text: str = "") -> None:
    mark = exc.problem_mark or exc.context_mark
    wide = _wide_character(text, mark.line) if mark is not None and text else None
    if wide is not None:
        line, char = wide
        what_en, what_zh, use_en, use_zh = FULL_WIDTH[char]
        raise InputError.single(
            f"not valid YAML: {what_en} (a Chinese input method?): write {use_en}",
            f"不是有效的 YAML：这一行有{what_zh}（中文输入法？），请改成{use_zh}",
            line=line + 1, source=source) from None
    en, zh = _refusal(exc)
    # a value refused while it was read (a number too long) belongs to the key before it
    path = _key_path(text, mark.line, mark.column) \
        if mark is not None and "digits is too long" in (exc.problem or "") else ""
    raise InputError.single(en, zh, path=path or "", line=mark.line + 1 if mark else None,
                            source=source) from None


_KEY = re.compile(r"([A-Za-z_][\w-]*)\s*:(?=\s|$)")


def _key_path(text: str, line: int, column: int) -> str | None:
    """The dotted path of the key whose value starts at ``line``/``column`` of block-style
    YAML (``training.single_gpu_hours``; a flow mapping on one line adds its keys before the
    column); None where a list or an unkeyed line stands in the way."""
    lines = text.splitlines()
    if not 0 <= line < len(lines):
        return None
    here = lines[line]
    found = list(_KEY.finditer(here[:column]))
    if not found or here.lstrip().startswith("-"):
        return None
    leaf = found[-1]
    between = here[:leaf.start()]  # keys whose flow mapping is still open at the leaf
    keys = [m.group(1) for m in found[:-1]
            if between[m.end():].count("{") > between[m.end():].count("}")] + [leaf.group(1)]
    indent = len(here) - len(here.lstrip())
    parents: list[str] = []
    for prev in reversed(lines[:line]):
        stripped = prev.lstrip()
        if not stripped or stripped.startswith("#") or len(prev) - len(stripped) >= indent:
            continue
        found = _KEY.match(stripped)
        if found is None or stripped.startswith("-"):
            return None
        parents.append(found.group(1))
        indent = len(prev) - len(stripped)
        if indent == 0:
            break
    return ".".join([*reversed(parents), *keys])


def _load_slowly(text: str, source: str) -> tuple[Any, LineIndex]:
    loader = None
    try:
        loader = _UniqueKeyLoader(text)  # its reader refuses control characters at once
        root = loader.get_single_node()
        try:
            data = loader.construct_document(root) if root is not None else None
        except _BUILD_ERRORS:
            node = _unbuildable(loader, root)
            line = node.start_mark.line + 1 if node is not None else None
            value = node.value if node is not None else "?"
            tag = node.tag.rsplit(":", 1)[-1] if node is not None else "?"
            raise InputError.single(
                f"{value!r} cannot be read as {tag} (an explicit tag, or a date that does "
                "not exist)", f"{value!r} 无法按 {tag} 读取（显式标签，或不存在的日期）",
                line=line, source=source) from None
    except yaml.MarkedYAMLError as exc:
        _raise(exc, source, text)
    except yaml.YAMLError as exc:
        text = str(exc).replace("\n", " ")
        raise InputError.single(f"not valid YAML: {text}", f"不是有效的 YAML：{text}",
                                source=source) from None
    except RecursionError:
        raise InputError.single("YAML nested too deeply", "YAML 嵌套过深", source=source) from None
    finally:
        if loader is not None:
            loader.dispose()
    return data, LineIndex(root)
