"""Alt+letter mnemonics for the wizard's field labels (issue 34): each label's letter is one of
its English title's (a word's first letter where it can), the same key in Chinese, written
there the way Chinese programs write it: "参数量(&P)".

``assign`` gives the letters of one page. The menu bar's (File, Edit, Language, Help) and
Back/Next's are never used. A page has more fields than the 20 letters left (the model page
asks up to 47 questions), so a letter is unique on the page as far as the letters go, fields
shown always first; beyond that a letter is shared with fields of other columns only, never
within one column, and pressing it again moves on to the next field that has it (Qt cycles
through a shortcut several widgets hold). A hidden field's letter does nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# the menu bar's mnemonics (File, Edit, Language, Help) and the wizard's Back and Next
RESERVED = frozenset("FELHBN")


@dataclass(frozen=True)
class Label:
    key: str  # the field's path ("model.layers") or another name ("preset")
    title: str  # the English title the letter comes from
    column: int  # the page's column: a letter is never shared within one
    always_shown: bool = True  # False: shown for some answers only (claims a letter last)


def candidates(title: str, reserved: frozenset[str] = RESERVED) -> list[str]:
    """The letters ``title`` can take, best first: each word's first letter, then its other
    letters in order; each once, upper case, the reserved ones left out."""
    initials, others = [], []
    for index, char in enumerate(title):
        letter = char.upper()
        if not ("A" <= letter <= "Z") or letter in reserved:
            continue
        at_word_start = index == 0 or not title[index - 1].isalnum()
        (initials if at_word_start else others).append(letter)
    out: list[str] = []
    for letter in initials + others:
        if letter not in out:
            out.append(letter)
    return out


def assign(labels: Sequence[Label], reserved: frozenset[str] = RESERVED) -> dict[str, str]:
    """key -> letter for the labels of one page: unique within each column; unique on the
    page for as many labels as the letters allow, those shown always first."""
    order = sorted(range(len(labels)), key=lambda i: not labels[i].always_shown)  # stable
    options = {i: candidates(labels[i].title, reserved) for i in order}
    # 1. unique on the page: a maximum matching of labels to letters (Kuhn's augmenting
    # paths, each label trying its letters best first), the labels shown always first
    page: dict[str, int] = {}
    for i in order:
        _augment(i, options, page, set())
    letters = {i: letter for letter, i in page.items()}
    # 2. each column's other labels: a matching within the column, started from the letters
    # step 1 gave; a label tries the letters no other column uses first, then those shared
    # already (sharing a letter one label has alone would cost two their own)
    for column in sorted({label.column for label in labels}):
        held = {letter: i for i, letter in letters.items() if labels[i].column == column}
        rest = [i for i in order if labels[i].column == column and i not in letters]
        uses = {letter: 0 for letter in ALPHABET}
        for letter in letters.values():
            uses[letter] += 1
        rank = {0: 0, 1: 2}
        for i in rest:
            options[i] = sorted(options[i], key=lambda letter: rank.get(uses[letter], 1))
            if _augment(i, options, held, set()):
                continue
            # a letter not in the title only when no other can be had: "Cooling (&J)"
            spare = [letter for letter in sorted(ALPHABET - reserved)
                     if letter not in options[i]]
            options[i] += sorted(spare, key=lambda letter: rank.get(uses[letter], 1))
            _augment(i, options, held, set())
        letters.update({i: letter for letter, i in held.items()})
    return {labels[i].key: letters[i] for i in order}


ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def _augment(i: int, options: dict[int, list[str]], holder: dict[str, int],
             seen: set[str]) -> bool:
    """Kuhn's step: give label ``i`` a letter, moving its holder to another if need be. A
    free letter is taken first (best first), so a label placed earlier (one shown always)
    keeps its best letter unless no free one is left."""
    free = next((letter for letter in options[i] if letter not in holder), None)
    if free is not None:
        holder[free] = i
        return True
    for letter in options[i]:
        if letter in seen:
            continue
        seen.add(letter)
        if letter not in holder or _augment(holder[letter], options, holder, seen):
            holder[letter] = i
            return True
    return False


def with_mnemonic(title: str, letter: str | None, lang: str) -> str:
    """The label's text with its mnemonic: "&Layers", "Pipeline-parallel &degree" (the
    letter where it starts a word, else its first place), "层数(&Y)" in Chinese. A '&' of the
    title itself is shown as one."""
    text = title.replace("&", "&&")
    if letter is None:
        return text
    if lang == "zh":
        return f"{text}(&{letter})"
    places = [i for i, char in enumerate(text) if char.upper() == letter
              and (i == 0 or text[i - 1] != "&")]
    starts = [i for i in places if i == 0 or not text[i - 1].isalnum()]
    at = (starts or places or [None])[0]
    if at is None:  # not a letter of the title: written after it, as in Chinese
        return f"{text} (&{letter})"
    return f"{text[:at]}&{text[at:]}"



def without_mnemonic(text: str) -> str:
    """A label's text as read: ``with_mnemonic``'s mark taken off ("La&yers" -> "Layers",
    "层数(&Y)" -> "层数", "A && B" -> "A & B")."""
    import re

    text = re.sub(r"\s?\(&[^&]\)$", "", text)
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&")
