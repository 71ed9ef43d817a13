"""The one profile model the wizard writes into (napari-style: widgets change the model, the
model says what changed).

It keeps the raw answers (so a half-typed or out-of-range value stays on screen with its
message) and the last *valid* :class:`Profile`, from which the results are computed.
"""

from __future__ import annotations

import copy
from typing import Any

from pydantic import ValidationError
from PySide6.QtCore import QObject, Signal

from advisor.files.errors import InputError, Problem
from advisor.files.validation_messages import problems_from_validation
from advisor.profile import Profile

Answers = dict[str, Any]


def answers_from_profile(profile: Profile) -> Answers:
    """Plain nested data (enums as strings, unset fields as None) for the forms."""
    return profile.model_dump(mode="json")


def get_path(data: Answers, path: str) -> Any:
    node: Any = data
    for part in path.split("."):
        if not isinstance(node, dict):
            return None
        node = node.get(part)
    return node


def set_path(data: Answers, path: str, value: Any) -> None:
    parts = path.split(".")
    node = data
    for part in parts[:-1]:
        child = node.get(part)
        if not isinstance(child, dict):
            child = {}
            node[part] = child
        node = child
    node[parts[-1]] = value


def validate_answers(data: Answers) -> tuple[Profile | None, dict[str, Problem]]:
    """The profile, or the problems by dotted field path ("" or a section for whole-model
    rules such as "give single_gpu_hours, or …")."""
    try:
        profile = Profile.model_validate(data)
    except ValidationError as exc:
        problems: dict[str, Problem] = {}
        for problem in problems_from_validation(exc):
            if get_path(data, problem.path) is None and "." in problem.path:
                problem = Problem(problem.path, "is required", "必须填写")
            problems.setdefault(problem.path, problem)
        return None, problems
    from advisor.catalog.profile_check import catalog_problems

    problems = catalog_problems(profile)  # an unknown GPU, a link the card cannot have
    if problems:
        return None, {p.path: p for p in problems}
    return profile, {}


COOLING = "hardware.cooling"
LINK = "hardware.intra_link"
TASK = "task"  # follows a catalog model chosen, until the user picks it


def possible_link(gpu: Any, link: Any) -> str | None:
    """The link a catalog card has when ``link`` is impossible for it (SXM modules: NVSwitch;
    cards without NVLink: PCIe of their generation); None when ``link`` is fine."""
    if not isinstance(gpu, str) or not gpu.strip():
        return None
    from advisor.catalog import resolve_gpu

    try:
        spec = resolve_gpu(gpu, link)  # a family name ('H100') is the card the link allows
    except InputError:
        return None
    pcie = f"pcie{min(max(spec.pcie_gen or 4, 3), 5)}"
    if spec.nvlink == "sxm":
        return None if link in ("nvlink", "nvswitch") else "nvswitch"
    allowed = {"pcie3", "pcie4", "pcie5"} | ({"nvlink_bridge"} if spec.nvlink == "bridge" else set())
    return None if link in allowed else pcie


def usual_cooling(gpu: Any, link: Any = None) -> str | None:
    """The catalog card's usual cooling (GpuSpec.default_cooling: by its class); None for a
    custom or unknown GPU. ``link`` settles a family name ('H100': PCIe or SXM)."""
    if not isinstance(gpu, str) or not gpu.strip():
        return None
    from advisor.catalog import resolve_gpu

    try:
        spec = resolve_gpu(gpu, link)
    except InputError:
        return None
    return getattr(spec, "default_cooling", None)


def fitted_cooling_of(gpu: Any, cooling: Any, link: Any = None) -> str | None:
    """The cooling a catalog card really has for the answer ``cooling`` (None for a custom
    or unknown GPU): open-air reads as the usual cooling of cards never sold with it."""
    if not isinstance(gpu, str) or not gpu.strip() or not isinstance(cooling, str):
        return None
    from advisor.catalog import resolve_gpu
    from advisor.catalog.cooling import fitted_cooling

    try:
        return fitted_cooling(resolve_gpu(gpu, link), cooling)
    except InputError:
        return None


class AnswerModel(QObject):
    """Answers in, valid profile and field problems out."""

    profileChanged = Signal(object)  # a valid Profile, after any change that keeps it valid
    problemsChanged = Signal(object)  # dict[path, Problem], after every change
    answersReset = Signal()  # many answers replaced at once (open, preset, restore)
    edited = Signal()  # any change by the user or a load (autosave listens)
    answerChanged = Signal(str)  # an answer changed by the model itself (the cooling default)
    # the user changed answers: one field's path, or None for several at once (Undo records)
    changedBy = Signal(object)
    loaded = Signal()  # a new document's answers (open, New, restore): a new history

    def __init__(self, profile: Profile | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.data: Answers = answers_from_profile(profile or Profile())
        self.profile: Profile | None = profile or Profile()
        self.problems: dict[str, Problem] = {}
        self._typing_problems: dict[str, Problem] = {}
        # Valid answers the computation could not use (an InputError from the results, e.g. a
        # price it needs): shown at their fields, but the profile is valid and can be saved.
        self.compute_problems: dict[str, Problem] = {}
        self.explicit: set[str] = set()  # answers the user chose (not to be defaulted)

    # -- reading ------------------------------------------------------------------------------
    def get(self, path: str) -> Any:
        return get_path(self.data, path)

    def all_problems(self) -> dict[str, Problem]:
        """What makes the answers invalid (not the computation's problems)."""
        return {**self.problems, **self._typing_problems}

    def shown_problems(self) -> dict[str, Problem]:
        """Every message to show at a field: invalid answers first, then the computation's."""
        return {**self.compute_problems, **self.all_problems()}

    def set_compute_problems(self, problems: dict[str, Problem]) -> None:
        """The computation's problems with valid answers ({} when it succeeded)."""
        if problems == self.compute_problems:
            return
        self.compute_problems = dict(problems)
        self.problemsChanged.emit(self.shown_problems())

    # -- writing ------------------------------------------------------------------------------
    def set(self, path: str, value: Any) -> None:
        """One answer from a field; revalidates and tells the listeners. Picking a GPU also
        picks its usual cooling (passive data-centre cards sit in a server, GeForce cards have
        open-air fans), unless the user chose the cooling."""
        self._typing_problems.pop(path, None)
        if path in (COOLING, TASK):
            self.explicit.add(path)
        set_path(self.data, path, value)
        follows = path == "hardware.gpu" and COOLING not in self.explicit
        cooling = usual_cooling(value, self.get(LINK)) if follows else None
        if cooling is not None and cooling != self.get(COOLING):
            set_path(self.data, COOLING, cooling)
        else:
            cooling = None
        link = possible_link(value, self.get(LINK)) if path == "hardware.gpu" else None
        if link is not None:  # the card cannot have the link chosen: take the one it has
            set_path(self.data, LINK, link)
        self._revalidate()
        if cooling is not None:
            self.answerChanged.emit(COOLING)
        if link is not None:
            self.answerChanged.emit(LINK)
        self.changedBy.emit(path)
        self.edited.emit()

    def set_many(self, values: dict[str, Any]) -> None:
        """Several answers at once (a preset): one validation, one reset of the forms."""
        for path, value in values.items():
            self._typing_problems.pop(path, None)
            set_path(self.data, path, value)
        self._revalidate()
        self.answersReset.emit()
        self.changedBy.emit(None)
        self.edited.emit()

    def replace_data(self, data: Answers) -> None:
        """Every answer put back as it was (Undo, Redo): validated, the forms refilled."""
        self.data = data
        self._typing_problems.clear()
        self._revalidate()
        self.answersReset.emit()
        self.edited.emit()

    def typing_problem(self, path: str, message_en: str, message_zh: str) -> None:
        """Text that is not a number yet: shown at the field, the last valid profile stays."""
        self._typing_problems[path] = Problem(path, message_en, message_zh)
        self.problemsChanged.emit(self.shown_problems())

    def load(self, data: Answers) -> None:
        """Replace every answer (open, restore); invalid answers load with their messages."""
        base = answers_from_profile(Profile())
        merged = _merge(base, copy.deepcopy(data))
        self.data = merged
        self._typing_problems.clear()
        # A loaded cooling other than the card's usual one was chosen on purpose: keep it;
        # open-air for a card never sold with it (A6000: blower) is the profile's default, not
        # a choice, and shows as the card's usual (advisor.catalog.cooling.fitted_cooling).
        self.explicit = set()
        usual = usual_cooling(self.get("hardware.gpu"), self.get(LINK))
        fitted = fitted_cooling_of(self.get("hardware.gpu"), self.get(COOLING), self.get(LINK))
        if fitted is not None and fitted != self.get(COOLING):
            set_path(self.data, COOLING, fitted)
        if usual is not None and self.get(COOLING) not in (None, usual):
            self.explicit.add(COOLING)
        # The last valid profile was the previous document's: these answers have none until
        # they are valid (no verdict of another file beside them)
        self.profile = None
        self._revalidate()
        self.answersReset.emit()
        self.loaded.emit()
        self.edited.emit()

    def load_profile(self, profile: Profile) -> None:
        self.load(answers_from_profile(profile))

    def _revalidate(self) -> None:
        profile, problems = validate_answers(self.data)
        self.problems = problems
        self.problemsChanged.emit(self.shown_problems())
        if profile is not None:
            self.profile = profile
            self.profileChanged.emit(profile)


def _merge(base: Answers, data: Answers) -> Answers:
    """``data`` over the defaults, so a file that leaves sections out fills them in; a
    ``runs_per_week``/``runs_per_day`` answer replaces the default runs per month."""
    out = dict(base)
    for key, value in data.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            section = dict(value)
            if key == "training" and {"runs_per_week", "runs_per_day"} & section.keys():
                merged = {k: v for k, v in base[key].items() if k != "runs_per_month"}
                out[key] = {**merged, **section}
                continue
            out[key] = _merge(base[key], section)
        else:
            out[key] = value
    return out
