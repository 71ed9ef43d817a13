"""Text from a file or a device made safe to show: control and bidirectional characters
escaped, long values shortened.

A profile's ``model.name`` or a GPU name read from nvidia-smi output is the user's (or a
stranger's) text. Printed raw, ``ESC ] 0 ; … BEL`` retitles the terminal and ``ESC [ 2 J``
clears it; a right-to-left override (U+202E) makes ``exe.txt`` read ``txt.exe``; a NUL ends
a PDF's metadata string. Every line the command line prints goes through :func:`escape`
(``advisor.cli.output``); the PDF report strips them (:func:`strip`); messages that echo a
value shorten it (:func:`shown`).
"""

from __future__ import annotations

import re

# C0 controls but tab and newline (a carriage return moves the cursor back over the line), DEL,
# the C1 controls, and the characters that change the
# direction of the text around them (bidi embeddings, overrides, isolates and marks).
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                     "\u2066-\u2069]")

SHOWN_CHARS = 80  # a value echoed in a message: enough to recognise it


def _escaped(match: re.Match[str]) -> str:
    # \uXXXX: what a reader can look up, and a valid escape inside a JSON string as well
    return f"\\u{ord(match.group(0)):04x}"


def escape(text: str) -> str:
    """``text`` with every control and bidi character written as ``\\uXXXX`` (tab and newline
    kept)."""
    return _UNSAFE.sub(_escaped, text) if _UNSAFE.search(text) else text


def strip(text: str) -> str:
    """``text`` without control and bidi characters (tab and newline become spaces): for
    places where an escape would be noise, such as a PDF's title."""
    return _UNSAFE.sub("", text.replace("\t", " ").replace("\n", " ").replace("\r", " "))


def shorten(text: str, limit: int = SHOWN_CHARS, lang: str = "en") -> str:
    """``text`` cut to ``limit`` characters, saying in ``lang`` how much was left out."""
    if len(text) <= limit:
        return text
    left = len(text) - limit
    return f"{text[:limit]}…（另有 {left} 个字符）" if lang == "zh" else \
        f"{text[:limit]}… (+{left} characters)"


def shown(value: object, limit: int = SHOWN_CHARS, lang: str = "en") -> str:
    """A value as a message quotes it: ``repr`` for text, shortened and escaped."""
    if isinstance(value, str):
        return escape(repr(shorten(value, limit, lang)) if len(value) > limit else repr(value))
    text = str(value)
    return escape(shorten(text, limit, lang))
