"""The verdict card: the article's rating, how many GPUs, how to parallelise, which framework,
where to run, the headline, and the few numbers behind it."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import QCoreApplication, Qt, Signal
from PySide6.QtWidgets import QFrame, QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout

from advisor.text.durations import DAYS, HOURS, shared_unit, unit_for
from advisor.verdict.summary import LABELS
from ui.app.theme import mute, tint

# F17's four ratings, in the article's words (the .ts file holds 不划算 … 必须上多卡).
# White text on each badge reads at 4.5:1 or more (WCAG AA; issue 34: the stale badge was
# 2.2:1, "optional" 3.0:1); the stale verdict and "no results" are a grey of their own.
RATING_COLORS = {"not_worth_it": "#6b6b6b", "optional": "#9a6700", "worth_it": "#237a33",
                 "required": "#7a3fb0"}
STALE_COLOR = "#767676"
NO_RESULT_COLOR = "#6b6b6b"


def rating_text(rating: str) -> str:
    return {
        "not_worth_it": QCoreApplication.translate("Verdict", "Not worth it"),
        "optional": QCoreApplication.translate("Verdict", "Optional (2 GPUs if you like)"),
        "worth_it": QCoreApplication.translate("Verdict", "Worth it"),
        "required": QCoreApplication.translate("Verdict", "Multi-GPU required"),
    }.get(rating, rating)


def parallelism_text(value: str) -> str:
    return {"data": QCoreApplication.translate("Verdict", "Data parallel"), "zero": QCoreApplication.translate("Verdict", "DeepSpeed ZeRO"),
            "fsdp": QCoreApplication.translate("Verdict", "Fully sharded (FSDP)"),
            "tensor": QCoreApplication.translate("Verdict", "Tensor (model) parallel"),
            "pipeline": QCoreApplication.translate("Verdict", "Pipeline parallel"),
            "hybrid": QCoreApplication.translate("Verdict", "Hybrid (data + model/pipeline)")}.get(value, value)


def framework_text(value: str) -> str:
    return {"ddp": QCoreApplication.translate("Verdict", "PyTorch DDP"), "fsdp": QCoreApplication.translate("Verdict", "PyTorch FSDP"),
            "deepspeed": QCoreApplication.translate("Verdict", "DeepSpeed"),
            "megatron": QCoreApplication.translate("Verdict", "Megatron-LM"), "horovod": QCoreApplication.translate("Verdict", "Horovod"),
            "torchrec": QCoreApplication.translate("Verdict", "TorchRec (or HugeCTR)"),
            "none": QCoreApplication.translate("Verdict", "None needed (one GPU)")}.get(value, value)


def deployment_text(value: str) -> str:
    return {"own": QCoreApplication.translate("Verdict", "Own hardware"), "cloud": QCoreApplication.translate("Verdict", "Cloud rental"),
            "either": QCoreApplication.translate("Verdict", "Own or cloud")}.get(value, value)


def gpus_text(count: int) -> str:
    return QCoreApplication.translate("Verdict", "1 GPU") if count == 1 else QCoreApplication.translate("Verdict", "%1 GPUs").replace(
        "%1", str(count))


def machines_text(count: int) -> str:
    return QCoreApplication.translate("Verdict", "1 machine") if count == 1 else QCoreApplication.translate("Verdict", "%1 machines").replace(
        "%1", str(count))


def money_text(amount: float, currency: str) -> str:
    symbol = {"CNY": "¥", "USD": "$", "EUR": "€"}.get(currency, currency + " ")
    return f"{symbol}{amount:,.0f}"


class VerdictCard(QFrame):
    exportRequested = Signal()
    # The user has not said what a day saved is worth and the rating assumes the article's
    # valuation (rules/README.md): the card offers to go and answer it.
    timeValueRequested = Signal()

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setObjectName("verdictCard")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.rating_label = QLabel()
        self.rating_label.setObjectName("rating")
        self.headline_label = QLabel()
        self.headline_label.setWordWrap(True)
        self.headline_label.setStyleSheet("font-size: 15px;")
        self.export_button = QPushButton()
        self.export_button.clicked.connect(self.exportRequested)
        self.time_value_button = QPushButton()
        self.time_value_button.setObjectName("askTimeValue")
        self.time_value_button.clicked.connect(self.timeValueRequested)
        self.time_value_button.hide()
        buttons = QVBoxLayout()
        buttons.addWidget(self.export_button)
        buttons.addWidget(self.time_value_button)
        buttons.addStretch(1)
        top = QHBoxLayout()
        # at the top: as tall as its text, not as the headline beside it (a long headline
        # scrolls in the card's area: results_page.CardArea)
        top.addWidget(self.rating_label, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.headline_label, 1)
        top.addLayout(buttons)
        self._names: dict[str, QLabel] = {}
        self.values: dict[str, QLabel] = {}
        grid = QGridLayout()
        grid.setHorizontalSpacing(18)
        for index, key in enumerate(("gpus", "parallelism", "framework", "deployment",
                                     "speedup", "run_time", "cost_month", "best_value")):
            name, value = QLabel(), QLabel()
            mute(name)
            value.setStyleSheet("font-weight: 600;")
            value.setObjectName(f"verdict:{key}")
            row, col = divmod(index, 4)
            grid.addWidget(name, row * 2, col)
            grid.addWidget(value, row * 2 + 1, col)
            self._names[key], self.values[key] = name, value
        # issue 29: the answer's five lines open every presenter; the headline above says what
        # to do and why, these three what it costs, the main risk and the next step
        self.summary_label = QLabel()
        self.summary_label.setObjectName("verdictSummary")
        self.summary_label.setWordWrap(True)
        self.summary_label.setTextFormat(Qt.TextFormat.RichText)
        self.summary_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary_label.hide()
        self.price_note = QLabel()  # what the costs leave out (no card price, no cloud offer)
        self.price_note.setObjectName("priceNote")
        self.price_note.setWordWrap(True)
        tint(self.price_note, "#8a5a00")  # amber, readable on a dark window too
        self.price_note.hide()
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.summary_label)
        layout.addLayout(grid)
        layout.addWidget(self.price_note)
        self._rec: Any = None
        self._error: str | None = None
        self._lang = "en"
        self.retranslate()

    def retranslate(self) -> None:
        names = {"gpus": self.tr("GPUs"), "parallelism": self.tr("Parallelism"),
                 "framework": self.tr("Framework"), "deployment": self.tr("Deployment"),
                 "speedup": self.tr("Speed-up at that count"),
                 "run_time": self.tr("One run: one GPU → that count"),
                 "cost_month": self.tr("Cost per month"), "best_value": self.tr("Best value")}
        for key, text in names.items():
            self._names[key].setText(text)
        self.export_button.setText(self.tr("Export &PDF…"))
        self.time_value_button.setText(self.tr("Say what a day saved is worth…"))
        if self._error is not None:
            self.show_error(self._error)
        elif self._rec is not None:
            self.show_recommendation(self._rec, self._lang)
        else:
            self.rating_label.setText(self.tr("Computing…"))

    def _show_summary(self, rec: Any, lang: str) -> None:
        """The five lines' cost, main risk and next step (the headline says the rest)."""
        lines = [line for line in getattr(rec, "summary", None) or []
                 if line.key in ("cost", "risk", "next")]
        if not lines:
            self.summary_label.hide()
            return
        rows = [f"<b>{html.escape(LABELS[line.key].get(lang))}</b>"
                f"{'：' if lang == 'zh' else ': '}{html.escape(line.text.get(lang))}"
                for line in lines]
        self.summary_label.setText("<br>".join(rows))
        self.summary_label.setAccessibleName(" ".join(
            f"{LABELS[line.key].get(lang)}: {line.text.get(lang)}." for line in lines))
        self.summary_label.show()

    def show_error(self, text: str | None) -> None:
        """No verdict for the latest answers: say so instead of "Computing…" or a stale one."""
        self._error = text
        if text is None:
            if self._rec is not None:
                self.show_recommendation(self._rec, self._lang)
            return
        self.rating_label.setText(self.tr("No results"))
        self.rating_label.setStyleSheet(
            f"background: {NO_RESULT_COLOR}; color: white; font-size: 20px; font-weight: 700;"
            "padding: 8px 16px; border-radius: 6px;")
        self.headline_label.setText(text)
        self.summary_label.hide()
        self.price_note.hide()
        for value in self.values.values():
            value.setText("—")

    def show_recommendation(self, rec: Any, lang: str) -> None:
        self._rec, self._lang = rec, lang
        if self._error is not None:
            return
        verdict = rec.verdict
        color = RATING_COLORS.get(verdict.rating, "#444")
        self.rating_label.setText(rating_text(verdict.rating))
        style = (f"background: {color}; color: white; font-size: 20px; font-weight: 700;"
                 "padding: 8px 16px; border-radius: 6px;")
        if self.rating_label.styleSheet() != style:  # a style sheet re-polishes the widget
            self.rating_label.setStyleSheet(style)
        self.headline_label.setText(verdict.headline.get(lang))
        self._show_summary(rec, lang)
        valued = getattr(rec.costs, "time_value_given", True)
        # "Best value" counts a day saved at what the user said it is worth; not said, the
        # cost figures count it as nothing, which is the cheapest count, not the best value.
        self._names["best_value"].setText(self.tr("Best value") if valued
                                          else self.tr("Cheapest, time not valued"))
        self.time_value_button.setVisible(not valued)
        if not getattr(verdict, "runnable", True):  # nothing considered can hold the model
            for key in ("parallelism", "speedup", "run_time", "cost_month"):
                self.values[key].setText("—")
            self.values["gpus"].setText(self.tr("Cannot run on this hardware"))
            self.values["framework"].setText(framework_text(verdict.framework))
            self.values["deployment"].setText(deployment_text(verdict.deployment))
            self.values["best_value"].setText(best_value_text(rec.costs))
            self.price_note.setVisible(False)
            return
        projection, costs = rec.projection, rec.costs
        index = count_index(projection.gpus, verdict.gpus)
        # A count past the projection has no figures (and no machine count) of its own: "—",
        # never the one-GPU baseline's (1.00×, "83.3 days → 83.3 days").
        self.values["gpus"].setText(
            gpus_text(verdict.gpus) if index is None
            else f"{gpus_text(verdict.gpus)} · {machines_text(verdict.nodes)}")
        # One GPU has nothing to parallelise: "Data parallel" there would be misleading.
        self.values["parallelism"].setText(
            "—" if verdict.gpus == 1 else parallelism_text(verdict.parallelism))
        self.values["framework"].setText(framework_text(verdict.framework))
        self.values["deployment"].setText(deployment_text(verdict.deployment))
        self.values["speedup"].setText("—" if index is None
                                       else f"{projection.speedup[index]:.2f}×")
        times = [] if index is None else run_times(projection.run_hours[0],
                                                   projection.run_hours[index])
        if times and projection.fits and not projection.fits[0]:
            # the one-GPU time is the speed-up's reference, not a run that can happen
            # (review 6: "one GPU → 2.3 days" beside a model that does not fit one)
            times[0] = self.tr("%1 if one GPU held it").replace("%1", times[0])
        self.values["run_time"].setText("—" if index is None else " → ".join(times))
        cost_index = count_index(costs.gpus, verdict.gpus)
        self.values["cost_month"].setText(  # "—": renting with no cloud price, or no figures
            money_text(costs.cost_per_month[cost_index], costs.currency)
            if getattr(costs, "mode_priced", True) and cost_index is not None else "—")
        self.values["best_value"].setText(best_value_text(costs))
        notes = []
        if not getattr(costs, "own_priced", True) and costs.mode != "cloud":
            notes.append(self.tr("No purchase price is known for this GPU: the own-hardware "
                                 "costs leave out the cards. Enter the price of one GPU on "
                                 "the hardware page."))
        if not getattr(costs, "cloud_priced", True) and costs.mode != "own":
            notes.append(self.tr("No cloud offer is known for this GPU: cloud costs are not "
                                 "shown."))
        self.price_note.setText(" ".join(notes))
        self.price_note.setVisible(bool(notes))


def count_index(counts: list[int], count: int) -> int | None:
    """Where ``count`` is in ``counts`` (the projection's or the costs'); None when it is not:
    the verdict may name more GPUs than were considered (the model fits nowhere smaller)."""
    return counts.index(count) if count in counts else None


def best_value_text(costs: Any) -> str:
    """The best-value count, or "—" when no count can run the job (it does not fit)."""
    best = costs.best_value_gpus
    fits = list(getattr(costs, "fits", []) or [])
    if not getattr(costs, "mode_priced", True) or not best or (fits and best in costs.gpus and not fits[costs.gpus.index(best)]):
        return "—"
    return gpus_text(costs.best_value_gpus)


def run_times(*hours: float) -> list[str]:
    """Run times side by side in one unit (advisor.text.durations): never "8.3 days → 25.1 h"."""
    unit = shared_unit(*hours)
    return [_hours(h, unit) for h in hours]


def _hours(hours: float, unit: str | None = None) -> str:
    unit = unit or unit_for(hours)
    if unit == DAYS:
        return QCoreApplication.translate("Verdict", "%1 days").replace("%1", f"{hours / 24:.1f}")
    if unit == HOURS:
        return QCoreApplication.translate("Verdict", "%1 h").replace("%1", f"{hours:.1f}")
    return QCoreApplication.translate("Verdict", "%1 min").replace("%1", f"{hours * 60:.0f}")


__all__ = ["VerdictCard", "rating_text"]
