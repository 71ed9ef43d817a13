"""Errors a user can act on: each names the file, the field path and, for YAML, the line."""

from __future__ import annotations

from dataclasses import dataclass, field

from advisor.text.lang import pick


@dataclass(frozen=True)
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
        field_part = f"{self.path}: " if self.path else ""
        return prefix + field_part + pick(lang, self.message_en, self.message_zh)


@dataclass
class InputError(Exception):
    """Bad input (exit status 2 on the CLI, a field message in the GUI)."""

    problems: list[Problem] = field(default_factory=list)
    source: str | None = None

    def __post_init__(self) -> None:
        super().__init__(self.render("en"))

    def render(self, lang: str = "en") -> str:
        return "\n".join(p.render(lang, self.source) for p in self.problems)

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.render("en")

    @classmethod
    def single(cls, message_en: str, message_zh: str, *, path: str = "", line: int | None = None,
               source: str | None = None) -> InputError:
        return cls([Problem(path, message_en, message_zh, line)], source)
