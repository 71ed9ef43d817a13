"""Suspects and the clues that accumulate on them.

A clue has a weight in (0, 1]; a suspect's clues combine by noisy-OR, 1 − Π(1 − w), so
independent clues reinforce each other and one strong clue is enough. Clues come in two
kinds. *Direct* clues are things seen: a GPU log's utilisation, temperature or clock, or a
fact the user states in the profile. *Inferred* clues are read from the shape of the
speed-up curve or the refit. Many inferred clues can point the same way only because they
read the same few numbers, so together they are capped at ``INFERRED_CAP``: a GPU seen
lagging, hot or waiting in a log (a weight above the cap) outranks a suspicion built from the
curve alone (F30: "find the lagging GPU with nvidia-smi dmon"). An observation a suspect
cannot explain (busy GPUs for a starving pipeline) scales its score down and is listed last
in its evidence.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from advisor.diagnosis.remedies import SUSPECTS
from advisor.text.i18n import Text

INFERRED_CAP = 0.7


@dataclass
class Suspect:
    id: str
    score: float = 0.0
    evidence: list[Text] = field(default_factory=list)
    remedy: Text | None = None
    title: Text | None = None
    sources: list[str] = field(default_factory=list)
    weights: list[float] = field(default_factory=list)  # one per evidence item
    inferred: float = 0.0  # noisy-OR of the inferred clues, before the cap
    direct: float = 0.0  # noisy-OR of the direct clues
    against: float = 1.0  # product of the factors of observations that contradict it

    def add(self, weight: float, text: Text, direct: bool = False) -> None:
        weight = min(max(weight, 0.0), 0.99)
        if direct:
            self.direct = 1.0 - (1.0 - self.direct) * (1.0 - weight)
        else:
            self.inferred = 1.0 - (1.0 - self.inferred) * (1.0 - weight)
        self._rescore()
        # strongest clue first (stable for equal weights)
        at = next((i for i, w in enumerate(self.weights) if w < weight), len(self.weights))
        self.weights.insert(at, weight)
        self.evidence.insert(at, text)


    def contradict(self, factor: float, text: Text) -> None:
        """An observation the suspect cannot explain scales its score by ``factor``."""
        self.against *= min(max(factor, 0.0), 1.0)
        self._rescore()
        self.weights.append(0.0)
        self.evidence.append(text)

    def _rescore(self) -> None:
        self.score = self.against * (
            1.0 - (1.0 - min(self.inferred, INFERRED_CAP)) * (1.0 - self.direct))


class Board:
    """The suspects of one diagnosis, by id."""

    def __init__(self) -> None:
        self.by_id: dict[str, Suspect] = {}

    def add(self, suspect_id: str, weight: float, en: str, zh: str, *,
            direct: bool = False) -> None:
        kind = SUSPECTS[suspect_id]
        s = self.by_id.setdefault(suspect_id, Suspect(suspect_id, remedy=kind.remedy,
                                                      title=kind.title,
                                                      sources=list(kind.sources)))
        s.add(weight, Text(en=en, zh=zh), direct)

    def contradict(self, suspect_id: str, factor: float, en: str, zh: str) -> None:
        """Counter-evidence for a suspect already on the board (nothing to weaken otherwise)."""
        if suspect_id in self.by_id:
            self.by_id[suspect_id].contradict(factor, Text(en=en, zh=zh))

    def rule_out(self, suspect_id: str) -> None:
        """A suspect the hardware cannot have (vGPU sharing on bare metal): off the board,
        unless something was seen of it directly (a GPU log that shows vGPU)."""
        suspect = self.by_id.get(suspect_id)
        if suspect is not None and suspect.direct == 0.0:
            del self.by_id[suspect_id]

    def ranked(self) -> list[Suspect]:
        return sorted(self.by_id.values(), key=lambda s: (-s.score, s.id))
