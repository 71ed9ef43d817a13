"""Undo what terminals, chat windows and Markdown do to pasted `nvidia-smi` output.

Whole-text substitutions only (C speed): a 1 MB paste must parse in well under 50 ms.
"""

from __future__ import annotations

import re

# Real escape sequences, and their residue when the ESC byte was lost in a paste ("[4m…[0m").
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\[[0-9]{1,3}(?:;[0-9]{1,3})*m")
_ANSI_RESIDUE = re.compile(r"\[[0-9]{1,3}(?:;[0-9]{1,3})*m")
# Control bytes and invisible characters deleted, odd spaces made plain (one C-speed pass).
_TRANSLATE = {c: None for c in (*range(0, 9), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F, 0x200B,
                                0x200C, 0x200D, 0xFEFF)}
_TRANSLATE.update({0xA0: " ", 0x3000: " ", 0x2009: " ", 0x202F: " "})
_QUOTE = re.compile(r"^[ \t]{0,3}(?:>[ \t]?)+", re.M)
_FENCE = re.compile(r"^[ \t]*(?:```|~~~).*$", re.M)
_DOUBLE_PIPE = re.compile(r"^\|\|", re.M)
_ENTITIES = {"&gt;": ">", "&lt;": "<", "&amp;": "&", "&nbsp;": " ", "&#124;": "|", "&#x27;": "'",
             "&quot;": '"'}


def clean_text(text: str) -> str:
    """Normalise line ends, drop ANSI codes and control bytes, Markdown quotes and fences,
    doubled table pipes, HTML entities, and a code block's common indentation."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\x1b" in text or ("[" in text and _ANSI_RESIDUE.search(text)):
        text = _ANSI.sub("", text)
    text = text.translate(_TRANSLATE)
    if "&" in text and ";" in text:
        for entity, char in _ENTITIES.items():
            text = text.replace(entity, char)
    if "\\" in text and "\\|" in text:
        text = text.replace("\\|", "|")
    if ">" in text:
        text = _QUOTE.sub("", text)
    if "`" in text or "~" in text:
        text = _FENCE.sub("", text)
    if "|" in text and "||" in text:
        text = _DOUBLE_PIPE.sub("|", text)
    return _dedent_code_block(text)


def _dedent_code_block(text: str) -> str:
    """Remove the indentation shared by every non-blank line (Markdown 4-space code blocks).
    Tabs are left alone: `topo -m` headers start with one on purpose."""
    indent: int | None = None
    for line in text.split("\n", 200)[:200]:
        if not line.strip():
            continue
        n = len(line) - len(line.lstrip(" "))
        if n == 0 or line[n:n + 1] == "\t":
            return text
        indent = n if indent is None else min(indent, n)
    if not indent:
        return text
    return re.sub(rf"^ {{1,{indent}}}", "", text, flags=re.M)
