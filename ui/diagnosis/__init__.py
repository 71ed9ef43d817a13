"""The diagnosis page of the wizard: measured vs fitted vs ideal, grade and suspects (F30)."""

from ui.diagnosis.page import DiagnosisPage
from ui.diagnosis.plot import diagnosis_plot

__all__ = ["DiagnosisPage", "diagnosis_plot"]
