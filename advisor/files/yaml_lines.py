"""Safe YAML loading that remembers where each key sits, so errors can name the line."""

from __future__ import annotations

from typing import Any

import yaml

from advisor.files.errors import InputError


class _UniqueKeyLoader(yaml.SafeLoader):
    """SafeLoader (no tags that construct objects) that also refuses duplicate keys."""


def _construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False):
    seen: dict[Any, int] = {}
    for key_node, _ in node.value:
        key = loader.construct_object(key_node, deep=deep)  # type: ignore[arg-type]
        try:
            hash(key)
        except TypeError:
            raise yaml.constructor.ConstructorError(
                None, None, "a key must be plain text", key_node.start_mark) from None
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, f"duplicate key {key!r} (first at line {seen[key]})",
                key_node.start_mark)
        seen[key] = key_node.start_mark.line + 1
    return loader.construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
                                 _construct_mapping)


class LineIndex:
    """Maps a field path (as pydantic reports it) to the 1-based line of the YAML node."""

    def __init__(self, root: yaml.Node | None) -> None:
        self._root = root

    def line_of(self, loc: tuple[Any, ...]) -> int | None:
        node = self._root
        best = node.start_mark.line + 1 if node is not None else None
        for part in loc:
            if isinstance(node, yaml.MappingNode):
                nxt = None
                for key_node, value_node in node.value:
                    if isinstance(key_node, yaml.ScalarNode) and key_node.value == str(part):
                        best = key_node.start_mark.line + 1
                        nxt = value_node
                        break
                if nxt is None:
                    return best
                node = nxt
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


def _refuse_aliases(text: str, source: str) -> None:
    """Anchors and aliases are refused: a few bytes of nested aliases expand to billions of
    nodes ("billion laughs"), and a profile never needs them."""
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                line = event.start_mark.line + 1
                raise InputError.single(
                    "YAML anchors and aliases (&name, *name) are not supported in profiles",
                    "配置文件不支持 YAML 锚点和别名（&name、*name）", line=line, source=source)
    except yaml.YAMLError:
        return  # the full load below reports the syntax error with its line


MAX_NESTING = 64  # a profile nests 3 levels; PyYAML slows quadratically with depth
MAX_INDENT = 256


def _refuse_deep_nesting(text: str, source: str) -> None:
    """Refuse absurd nesting in linear time, before the parser (slow on deep input) sees it."""
    depth = 0
    for line_no, line in enumerate(text.splitlines(), start=1):
        if len(line) - len(line.lstrip(" ")) > MAX_INDENT:
            depth = MAX_NESTING + 1
        else:
            for ch in line:
                if ch in "[{":
                    depth += 1
                elif ch in "]}":
                    depth = max(depth - 1, 0)
                elif ch == "#":
                    break
                if depth > MAX_NESTING:
                    break
        if depth > MAX_NESTING:
            raise InputError.single("YAML nested too deeply", "YAML 嵌套过深", line=line_no,
                                    source=source)


def load_yaml_text(text: str, *, source: str = "<yaml>") -> tuple[Any, LineIndex]:
    """Parse YAML safely; errors become InputError with the line of the problem."""
    _refuse_deep_nesting(text, source)
    _refuse_aliases(text, source)
    try:
        root = yaml.compose(text, Loader=_UniqueKeyLoader)
        data = yaml.load(text, Loader=_UniqueKeyLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = exc.problem or "invalid YAML"
        if "could not determine a constructor" in str(exc.problem or ""):
            en = f"YAML tags that construct objects are not allowed ({problem})"
            zh = f"不允许构造对象的 YAML 标签（{problem}）"
        else:
            en = f"not valid YAML: {problem}"
            zh = f"不是有效的 YAML：{problem}"
        raise InputError.single(en, zh, line=line, source=source) from None
    except yaml.YAMLError as exc:
        raise InputError.single(f"not valid YAML: {exc}", f"不是有效的 YAML：{exc}",
                                source=source) from None
    except RecursionError:
        raise InputError.single("YAML nested too deeply", "YAML 嵌套过深", source=source) from None
    return data, LineIndex(root)
