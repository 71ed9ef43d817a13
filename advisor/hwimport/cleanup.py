"""Undo what terminals, chat windows and Markdown do to pasted `nvidia-smi` output.

Whole-text substitutions only, on the UTF-8 bytes of the paste: a 1 MB paste must parse in well
under 50 ms, and on bytes every "is there a ..." test is a memchr-speed scan (on a str that
holds one Chinese character, each scan is several times slower). UTF-8 is self-synchronising, so
byte-level replaces of ASCII and of whole multi-byte characters never cut a character.
Multi-byte needles ("||", "```") are searched by one-byte finds (memchr) of their first byte
while it is rare (``_find``): a substring search costs about 1 ms per MB, a one-byte find a few
microseconds.
"""

from __future__ import annotations

import re

# Real escape sequences, and their residue when the ESC byte was lost in a paste ("[4m…[0m").
# Two literal-first patterns: one alternation of both scans ~10x slower (no fast prefix skip).
_ESCAPE = re.compile(rb"\x1b(?:\[[0-9;?]*[A-Za-z]|[()][A-Za-z0-9])")
_ANSI_RESIDUE = re.compile(rb"\[[0-9]{1,3}(?:;[0-9]{1,3})*m")
# Control bytes deleted (tab and newline kept); invisible characters deleted, odd spaces made
# plain.
_CONTROL_BYTES = bytes([*range(0, 9), 0x0B, 0x0C, *range(0x0E, 0x20), 0x7F])
_ASCII_BYTES = bytes(range(128))
_INVISIBLE = tuple(c.encode() for c in ("\u200b", "\u200c", "\u200d", "\ufeff"))
_SPACES = tuple(c.encode() for c in ("\u00a0", "\u3000", "\u2009", "\u202f"))
# Line-start patterns written with a leading newline (applied to b"\n" + text): a literal first
# character lets the regex engine skip ahead quickly, a ^ with re.M does not.
_QUOTE_NL = re.compile(rb"\n[ \t]{0,3}(?:>[ \t]?)+")
_ENTITIES = {b"&gt;": b">", b"&lt;": b"<", b"&amp;": b"&", b"&nbsp;": b" ", b"&#124;": b"|",
             b"&#x27;": b"'", b"&quot;": b'"'}
_ENTITY = re.compile(b"|".join(re.escape(e) for e in _ENTITIES))  # one pass, literal "&" first


def clean_text(text: str) -> str:
    """Normalise line ends, drop ANSI codes and control bytes, Markdown quotes and fences,
    doubled table pipes, HTML entities, and a code block's common indentation."""
    raw = text.encode("utf-8", "surrogatepass")
    if b"\r" in raw:
        raw = raw.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    if b"\x1b" in raw:
        raw = _strip_escapes(raw)
    if b"[" in raw:
        raw = _remove(raw, b"[", _ANSI_RESIDUE)
    raw = _drop_control(raw, text.isascii())
    if b"&" in raw and b";" in raw:
        raw = _ENTITY.sub(lambda m: _ENTITIES[m.group(0)], raw)
    if _contains(raw, b"\\|"):
        raw = raw.replace(b"\\|", b"|")
    if b">" in raw and _has_quote_lines(raw):
        raw = _unquote(raw)
    if _contains(raw, b"```") or _contains(raw, b"~~~"):
        raw = _drop_fences(raw)
    if _contains(raw, b"||"):  # a Markdown converter doubled the table's first pipe
        raw = b"\n|".join(raw.split(b"\n||"))  # = replace, twice as fast when "|" is common
        if raw[:2] == b"||":
            raw = raw[1:]
    return _dedent_code_block(raw).decode("utf-8", "surrogatepass")


def _find(raw: bytes, needle: bytes, start: int = 0) -> int:
    """``raw.find(needle, start)``, by one-byte finds of the needle's first byte while that
    byte is rare: a multi-byte search scans the whole paste (~1 ms per MB, more when a space
    shares the needle's skip-filter bits, as "`" does), a one-byte find is memchr-fast."""
    first = needle[:1]
    at = raw.find(first, start)
    for _ in range(64):
        if at == -1 or raw.startswith(needle, at):
            return at
        at = raw.find(first, at + 1)
    return raw.find(needle, at)


def _contains(raw: bytes, needle: bytes) -> bool:
    return _find(raw, needle) != -1


def _strip_escapes(raw: bytes) -> bytes:
    """Escape sequences and residue removed in one left-to-right pass, as a single alternation
    would: a residue never holds an ESC byte, so it never spans an escape sequence, and the
    residue matches are those of each stretch between sequences."""
    return b"".join([_remove(part, b"[", _ANSI_RESIDUE)
                     for part in _between(raw, b"\x1b", _ESCAPE)])


def _between(raw: bytes, first: bytes, pattern: re.Pattern[bytes]) -> list[bytes]:
    """``pattern.split(raw)`` for a pattern whose matches start with the byte ``first``: a
    match is tried only where a one-byte find (memchr) lands, while that byte is rare, instead
    of the regex engine stepping through every byte of the paste."""
    parts: list[bytes] = []
    done = 0
    at = raw.find(first)
    for _ in range(256):
        if at == -1:
            break
        m = pattern.match(raw, at)
        if m:
            parts.append(raw[done:at])
            done = at = m.end()
            at = raw.find(first, at)
        else:
            at = raw.find(first, at + 1)
    else:  # the byte is common here: the regex engine scans the rest
        for m in pattern.finditer(raw, at):
            parts.append(raw[done:m.start()])
            done = m.end()
    parts.append(raw[done:])
    return parts


def _remove(raw: bytes, first: bytes, pattern: re.Pattern[bytes]) -> bytes:
    """``pattern.sub(b"", raw)``, found as ``_between`` finds it."""
    return b"".join(_between(raw, first, pattern))


def _drop_control(raw: bytes, ascii_only: bool) -> bytes:
    raw = raw.translate(None, _CONTROL_BYTES)
    if ascii_only:
        return raw
    wide = raw.translate(None, _ASCII_BYTES)  # the multi-byte characters alone: a short text
    for char in _INVISIBLE:
        if char in wide:
            raw = raw.replace(char, b"")
    for char in _SPACES:
        if char in wide:
            raw = raw.replace(char, b" ")
    return raw


def _unquote(raw: bytes) -> bytes:
    """Drop Markdown quote marks ("> ", ">> ", "> > ") at line starts: a split on "\\n>" for
    the usual column-0 quotes (a C-speed pass), the regex only for indented ones."""
    parts = _split_at_quotes(b"\n" + raw)
    if len(parts) > 1:
        raw = b"\n".join([parts[0], *map(_after_quote_mark, parts[1:])])[1:]
    if _has_quote_lines(raw):
        raw = _QUOTE_NL.sub(b"\n", b"\n" + raw)[1:]
    return raw


def _split_at_quotes(text: bytes) -> list[bytes]:
    """``text.split(b"\\n>")``, found from the one-byte finds of ">" (rare in a paste) rather
    than a two-byte search through every line."""
    cuts: list[int] = []
    at = text.find(b">")
    for _ in range(256):
        if at == -1:
            break
        if at and text[at - 1] == 0x0A:
            cuts.append(at - 1)
        at = text.find(b">", at + 1)
    else:
        return text.split(b"\n>")
    parts, done = [], 0
    for cut in cuts:
        parts.append(text[done:cut])
        done = cut + 2
    parts.append(text[done:])
    return parts


def _after_quote_mark(rest: bytes) -> bytes:
    """A quoted line after its first ">": one space, then any further "> " marks, dropped.
    Tabs stay (a `topo -m` header starts with one) and so does deeper indentation (`-q`
    nesting is read from it)."""
    i = 1 if rest[:1] == b" " else 0
    while rest[i:i + 1] == b">":
        i += 2 if rest[i + 1:i + 2] == b" " else 1
    return rest[i:]


def _has_quote_lines(raw: bytes) -> bool:
    """Does any line start with a Markdown quote mark (after up to 3 spaces or tabs)? Cheaper
    than a regex scan when ">" only appears inside lines, e.g. in prompts."""
    at = raw.find(b">")
    while at != -1:
        before = at - 1
        while before >= 0 and at - before <= 4 and raw[before] in b" \t":
            before -= 1
        if before < 0 or raw[before] == 0x0A:
            return True
        at = raw.find(b">", at + 1)
    return False


def _drop_fences(raw: bytes) -> bytes:
    """Empty every line that starts (after spaces and tabs) with a code fence, ``` or ~~~.
    Found with ``find`` (a fence is rare; a line-start regex tries every line of the paste);
    a line with text before its first fence mark cannot become a fence line, so the search
    goes on from the next line."""
    fences: list[tuple[int, int]] = []  # (line start, line end) of each fence line
    for mark in (b"```", b"~~~"):
        at = _find(raw, mark)
        while at != -1:
            start = raw.rfind(b"\n", 0, at) + 1
            end = raw.find(b"\n", at)
            end = len(raw) if end == -1 else end
            if not raw[start:at].strip(b" \t"):
                fences.append((start, end))
            at = _find(raw, mark, end)
    if not fences:
        return raw
    parts, done = [], 0
    for start, end in sorted(set(fences)):
        parts.append(raw[done:start])
        done = end
    parts.append(raw[done:])
    return b"".join(parts)


def _dedent_code_block(raw: bytes) -> bytes:
    """Remove the indentation shared by every non-blank line (Markdown 4-space code blocks).
    Tabs are left alone: `topo -m` headers start with one on purpose."""
    indent: int | None = None
    for line in raw.split(b"\n", 200)[:200]:
        if not line.strip():
            continue
        n = len(line) - len(line.lstrip(b" "))
        if n == 0 or line[n:n + 1] == b"\t":
            return raw
        indent = n if indent is None else min(indent, n)
    if not indent:
        return raw
    return re.sub(rb"^ {1,%d}" % indent, b"", raw, flags=re.M)
