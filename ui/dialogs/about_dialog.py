"""Help → About: the version, how old the built-in prices and the projection's fitted parameters
are, and the licences of what ships with the advisor (the same facts as `gpu-advisor --version`,
from advisor/files/about.py)."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, qVersion
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from advisor import __version__
from advisor.files import about
from advisor.files.paths import resources_dir


class AboutDialog(QDialog):
    def __init__(self, lang: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.lang = "zh" if lang == "zh" else "en"
        self.setWindowTitle(self.tr("About GPU Scaling Advisor"))
        icon = QLabel()
        icon.setPixmap(QIcon(str(resources_dir() / "icons" / "gpu-advisor-128.png"))
                       .pixmap(72, 72))
        name = self.tr("GPU Scaling Advisor")
        tagline = self.tr("Multi-GPU training advisor")
        self.heading = QLabel(f"<b style='font-size:15pt'>{escape(name)} {escape(__version__)}"
                              f"</b><br>{escape(tagline)}")
        self.heading.setObjectName("aboutHeading")
        self.heading.setTextFormat(Qt.TextFormat.RichText)
        top = QHBoxLayout()
        top.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        top.addWidget(self.heading, 1)
        self.details = QTextBrowser()
        self.details.setObjectName("aboutDetails")
        self.details.setOpenExternalLinks(False)
        self.details.setHtml(self.details_html())
        buttons = QDialogButtonBox()
        # Our own button: a standard one takes Qt's own (English) text back on a language event.
        self.close_button = buttons.addButton(self.tr("Close"),
                                              QDialogButtonBox.ButtonRole.RejectRole)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.details, 1)
        layout.addWidget(buttons)
        self.resize(720, 560)

    def details_html(self) -> str:
        zh = self.lang == "zh"
        intro = self.tr("Will more GPUs make your training faster, by how much, and is it worth "
                        "the money? Rules and numbers cite the article's facts F01–F32.")
        prices = self.tr("Built-in prices as of")
        fitted_title = self.tr("Projection parameters fitted on")
        licences = self.tr("Licences of what ships with it")
        parts = [f"<p>{escape(intro)}</p>", f"<h3>{escape(prices)}</h3><table cellpadding='2'>"]
        for dates in about.price_dates():
            what = dates.what_zh if zh else dates.what_en
            undated = (self.tr("%1 undated").replace("%1", str(dates.undated))
                       if dates.undated else "")
            parts.append(f"<tr><td>{escape(what)}</td><td><b>{escape(dates.span())}</b></td>"
                         f"<td>{escape(undated)}</td><td><tt>{escape(dates.file)}</tt></td></tr>")
        parts.append("</table>")
        fitted = about.parameters_fitted_on() or self.tr("unknown")
        parts.append(f"<h3>{escape(fitted_title)}</h3>"
                     f"<p><b>{escape(fitted)}</b> <tt>scaling/parameters.yaml</tt></p>")
        parts.append(f"<h3>{escape(licences)}</h3><table cellpadding='2'>")
        for component in about.COMPONENTS:
            version = about.component_version(component) or ""
            if component.distribution == "PySide6-Essentials":
                version = self.tr("%1 (Qt %2 running)").replace("%1", version) \
                    .replace("%2", qVersion())
            note = component.note_zh if zh else component.note_en
            parts.append(f"<tr><td>{escape(component.name)}</td><td>{escape(version)}</td>"
                         f"<td><b>{escape(component.licence)}</b></td><td>{escape(note)}</td>"
                         "</tr>")
        parts.append("</table>")
        return "".join(parts)
