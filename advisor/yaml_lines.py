"""Safe YAML loading that remembers where each key sits, so errors can name the line."""

from __future__ import annotations

from typing import Any

import yaml

from advisor.errors import InputError


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


def load_yaml_text(text: str, *, source: str = "<yaml>") -> tuple[Any, LineIndex]:
    """Parse YAML safely; errors become InputError with the line of the problem."""
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
