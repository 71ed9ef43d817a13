"""Drafts: profiles the desktop app saved before every answer was valid (issue 33)."""

from __future__ import annotations

# The first line of a profile saved with answers that are not valid yet (the desktop app's
# drafts): the readers report such a file as a draft, and the app saves over it again.
DRAFT_MARK = "# gpu-advisor draft:"
DRAFT_HEADER = (f"{DRAFT_MARK} some answers are not valid yet; the advisor names them when "
                "the file is opened\n")


def is_draft(text: str) -> bool:
    """Whether ``text`` is a draft profile (its first line is the draft mark)."""
    return text.lstrip("\ufeff").startswith(DRAFT_MARK)
