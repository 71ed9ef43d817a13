"""pyqtgraph plot builders shared by the wizard and the PDF report.

Each builder takes ``(recommendation, profile, lang)`` and returns a ``PlotWidget``; given
``plot=`` an existing widget, it updates that widget's items in place (live redraw). The items
are kept in ``plot.advisor_items`` by name, so tests and the report can read the plotted data.
"""

from ui.plots.buy_vs_rent import buy_vs_rent_plot
from ui.plots.cost import cost_plot
from ui.plots.speedup import speedup_plot

__all__ = ["buy_vs_rent_plot", "cost_plot", "speedup_plot"]
