"""Undo what terminals, chat windows and Markdown do to pasted `nvidia-smi` output.

Whole-text substitutions only (C speed): a 1 MB paste must parse in well under 50 ms.
"""

from __future__ import annotations

import re

# Real escape sequences, and their residue when the ESC byte was lost in a paste ("[4m…[0m").
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Za-z0-9]|\[[0-9]{1,3}(?:;[0-9]{1,3})*m")
_ANSI_RESIDUE = re.compile(r"\[[0-9]{1,3}(?:;[0-9]{1,3})*m")
# Control bytes deleted (tab and newline kept); invisible characters deleted, odd spaces made
# plain. str.translate is fast only on ASCII text, so other text goes through bytes.
_CONTROL_BYTES = bytes([*range(0, 9), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])
_ASCII_TABLE = dict.fromkeys(_CONTROL_BYTES)
_INVISIBLE = ("\u200b", "\u200c", "\u200d", "\ufeff")
_SPACES = ("\u00a0", "\u3000", "\u2009", "\u202f")
_QUOTE = re.compile(r"^[ \t]{0,3}(?:>[ \t]?)+", re.M)
_FENCE = re.compile(r"^[ \t]*(?:```|~~~).*$", re.M)
_ENTITIES = {"&gt;": ">", "&lt;": "<", "&amp;": "&", "&nbsp;": " ", "&#124;": "|", "&#x27;": "'",
             "&quot;": '"'}


def clean_text(text: str) -> str:
    """Normalise line ends, drop ANSI codes and control bytes, Markdown quotes and fences,
    doubled table pipes, HTML entities, and a code block's common indentation."""
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\x1b" in text:
        text = _ANSI.sub("", text)
    if "[" in text and _ANSI_RESIDUE.search(text):  # literal-first pattern: a fast scan
        text = _ANSI_RESIDUE.sub("", text)
    text = _drop_control(text)
    if "&" in text and ";" in text:
        for entity, char in _ENTITIES.items():
            text = text.replace(entity, char)
    if "\\" in text and "\\|" in text:
        text = text.replace("\\|", "|")
    if ">" in text and _has_quote_lines(text):
        text = _unquote(text)
    if ("`" in text and "```" in text) or ("~" in text and "~~~" in text):
        text = _FENCE.sub("", text)
    if "|" in text and "||" in text:  # a Markdown converter doubled the table's first pipe
        text = ("\n" + text).replace("\n||", "\n|")[1:]
    return _dedent_code_block(text)


def _drop_control(text: str) -> str:
    if text.isascii():
        return text.translate(_ASCII_TABLE)
    for char in _INVISIBLE:
        if char in text:
            text = text.replace(char, "")
    for char in _SPACES:
        if char in text:
            text = text.replace(char, " ")
    raw = text.encode("utf-8", "surrogatepass")
    kept = raw.translate(None, _CONTROL_BYTES)
    return text if len(kept) == len(raw) else kept.decode("utf-8", "replace")


def _unquote(text: str) -> str:
    """Drop Markdown quote marks ("> ", ">> ") at line starts; plain replaces for the usual
    column-0 form, the regex only when quotes are indented."""
    text = "\n" + text
    while "\n>" in text:
        text = text.replace("\n> ", "\n").replace("\n>", "\n")
    text = text[1:]
    return _QUOTE.sub("", text) if _has_quote_lines(text) else text


def _has_quote_lines(text: str) -> bool:
    """Does any line start with a Markdown quote mark? (cheaper than a multiline regex scan
    when ">" only appears inside lines, e.g. in prompts)"""
    at = text.find(">")
    while at != -1:
        before = at - 1
        while before >= 0 and at - before <= 4 and text[before] in " \t":
            before -= 1
        if before < 0 or text[before] == "\n":
            return True
        at = text.find(">", at + 1)
    return False


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
