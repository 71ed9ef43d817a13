"""The answers to fix, listed and linked to their fields (issue 34: "answers to fix: 8" was not a
link). The window's summary line and the results page's banner carry a link; following it
opens a menu of the answers to fix, each named by its page and field with its message, and
choosing one shows that page with the focus in the field (the field's own message is read by a
screen reader with it: ``FieldEditor.set_error``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QLabel, QMenu, QWidget

from advisor.files.errors import Problem
from ui.forms.mnemonics import without_mnemonic

LINK = "answers-to-fix"


@dataclass(frozen=True)
class Entry:
    page: int  # the index of the question page that holds the field (-1: none)
    path: str
    text: str  # "Page › Field: message"


def entries(window: Any) -> list[Entry]:
    """Every answer to fix, in the order of the pages and their fields; an answer no field
    shows (a whole section's) names its page, or the file."""
    problems: dict[str, Problem] = window.answers.all_problems()
    lang = window.lang
    out: list[Entry] = []
    left = dict(problems)
    for index, page in enumerate(window.pages):
        title = page.title_label.text()
        for path, editor in page.editors.items():
            if path in left:
                problem = left.pop(path)
                field = without_mnemonic(editor.label.text())
                out.append(Entry(index, path, f"{title} › {field}: {_message(problem, lang)}"))
    for path, problem in left.items():
        index = _page_of(window, path)
        title = window.pages[index].title_label.text() if index >= 0 else ""
        out.append(Entry(index, path, f"{title + ': ' if title else ''}"
                                      f"{_message(problem, lang)}"))
    return out


def _message(problem: Problem, lang: str) -> str:
    return problem.message_zh if lang == "zh" else problem.message_en


def _page_of(window: Any, path: str) -> int:
    """The page whose fields share ``path``'s section (-1: none)."""
    section = path.split(".")[0]
    for index, page in enumerate(window.pages):
        if any(p.split(".")[0] == section for p in page.editors):
            return index
    return -1


def go_to(window: Any, entry: Entry) -> None:
    """Show the entry's page and put the focus in its field (scrolled into view)."""
    if entry.page < 0:
        return
    window.go_to(entry.page)
    page = window.pages[entry.page]
    editor = page.editors.get(entry.path)
    if editor is None:
        return
    page.scroll.ensureWidgetVisible(editor)
    editor.input.setFocus(Qt.FocusReason.OtherFocusReason)


def menu(window: Any, parent: QWidget) -> QMenu:
    """A menu of the answers to fix; choosing one goes to its field."""
    out = QMenu(parent)
    out.setObjectName("answersToFix")
    out.setAccessibleName(window.tr("Answers to fix"))
    for entry in entries(window):
        action = out.addAction(entry.text.replace("&", "&&"))
        action.triggered.connect(lambda _checked=False, e=entry: go_to(window, e))
    return out


def show_menu(window: Any, anchor: QWidget) -> QMenu:
    """The menu of answers to fix, opened under ``anchor`` (the label whose link was
    followed)."""
    shown = menu(window, anchor)
    shown.popup(anchor.mapToGlobal(QPoint(0, anchor.height())))
    return shown


def linking(label: QLabel, window: Any) -> None:
    """``label``'s link (``linked``) opens the list under it, by mouse and by keyboard."""
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.LinksAccessibleByMouse
                                  | Qt.TextInteractionFlag.LinksAccessibleByKeyboard)
    label.linkActivated.connect(lambda _link: window.show_problem_list(label))


def linked(text: str, count: int) -> str:
    """``text`` with ``count`` as a link to the list (rich text; ``text`` holds ``%1``)."""
    from html import escape

    head, _, tail = escape(text).partition("%1")
    return f'{head}<a href="{LINK}">{count}</a>{tail}'


__all__ = ["LINK", "Entry", "entries", "go_to", "linked", "linking", "menu", "show_menu"]
