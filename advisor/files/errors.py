"""Errors a user can act on: each names the file, the field path and, for YAML, the line."""

from __future__ import annotations

from dataclasses import dataclass, field

from advisor.files.records import record
from advisor.text.lang import pick
from advisor.text.safe import escape, shorten

# A file with 88,000 unknown keys has 88,000 problems: a reader acts on the first few.
MAX_SHOWN_PROBLEMS = 20
# A message quotes the user's value; a 500 KB value is cut (the file still has it whole).
MAX_MESSAGE_CHARS = 400


@record
class Problem:
    """One thing wrong with an input: where, and what, in both languages."""

    path: str  # dotted field path, e.g. "hardware.nodes"; "" for the whole file
    message_en: str
    message_zh: str
    line: int | None = None  # 1-based line in the source file, when known

    def render(self, lang: str = "en", source: str | None = None) -> str:
        where = []
        if source:
            where.append(f"{source}:{self.line}" if self.line else source)
        elif self.line:
            where.append(pick(lang, f"line {self.line}", f"第 {self.line} 行"))
        prefix = (" ".join(where) + ": ") if where else ""
        field_part = f"{shorten(self.path, lang=lang)}: " if self.path else ""
        message = shorten(pick(lang, self.message_en, self.message_zh), MAX_MESSAGE_CHARS,
                          lang)
        return escape(prefix + field_part + message)


class Problems(list):
    """Problems of one input, the first of them listed; ``more`` counts those left out (a
    file with 88,000 unknown keys is reported in linear time, its first problems named)."""

    more = 0


@dataclass
class InputError(Exception):
    """Bad input (exit status 2 on the CLI, a field message in the GUI)."""

    problems: list[Problem] = field(default_factory=list)
    source: str | None = None
    more: int = 0  # problems found but not listed (``Problems.more``)

    def __post_init__(self) -> None:
        self.more += getattr(self.problems, "more", 0)
        super().__init__(self.render("en"))

    def render(self, lang: str = "en") -> str:
        """Every problem on its own line, the first ``MAX_SHOWN_PROBLEMS`` of them and a count
        of the rest."""
        lines = [p.render(lang, self.source) for p in self.problems[:MAX_SHOWN_PROBLEMS]]
        more = max(len(self.problems) - MAX_SHOWN_PROBLEMS, 0) + self.more
        if more > 0:
            lines.append(pick(lang, f"... and {more:,} more problem(s)",
                              f"……另有 {more:,} 个问题"))
        return "\n".join(lines)

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.render("en")

    @classmethod
    def single(cls, message_en: str, message_zh: str, *, path: str = "", line: int | None = None,
               source: str | None = None) -> InputError:
        return cls([Problem(path, message_en, message_zh, line)], source)
