"""Undo and Redo for the answers (issue 33): every change a user makes (a field, a preset,
an nvidia-smi import) is a step on a ``QUndoStack``; typing into one field is one step.
Loading a file, New and a restored session start a new history (they are not answers
typed). Undo puts the whole set of answers back as it was, the defaults the model filled in
(a card's cooling, its link) included."""

from __future__ import annotations

import copy
from typing import Any

from PySide6.QtCore import QObject
from PySide6.QtGui import QUndoCommand, QUndoStack

_TYPING = 1  # QUndoCommand.id of one field's edits, merged while the same field is typed


class AnswersStep(QUndoCommand):
    """The answers before and after one change; the first redo is the change already made."""

    def __init__(self, history: AnswerHistory, before: dict, after: dict, path: str | None,
                 text: str) -> None:
        super().__init__(text)
        self.history, self.before, self.after, self.path = history, before, after, path
        self._done = True

    def id(self) -> int:  # noqa: A003 - Qt's name
        return _TYPING if self.path else -1

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 - Qt's name
        if not isinstance(other, AnswersStep) or other.path != self.path or not self.path:
            return False
        self.after = other.after
        return True

    def redo(self) -> None:
        if self._done:  # pushed after the change was made
            self._done = False
            return
        self.history.put(self.after)

    def undo(self) -> None:
        self.history.put(self.before)


class AnswerHistory(QObject):
    def __init__(self, answers: Any, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.answers = answers
        self.stack = QUndoStack(self)
        self._replaying = False
        self._last = copy.deepcopy(answers.data)

    def changed(self, path: str | None, text: str) -> None:
        """Record the change just made to the answers (``path``: one field's, merged with the
        next edit of the same field; None: several at once)."""
        if self._replaying:
            return
        after = copy.deepcopy(self.answers.data)
        if after == self._last:
            return
        self.stack.push(AnswersStep(self, self._last, after, path, text))
        self._last = after

    def restart(self) -> None:
        """A new document: its answers as they are, no history."""
        self.stack.clear()
        self._last = copy.deepcopy(self.answers.data)

    def put(self, data: dict) -> None:
        self._replaying = True
        try:
            self.answers.replace_data(copy.deepcopy(data))
        finally:
            self._replaying = False
        self._last = copy.deepcopy(data)
