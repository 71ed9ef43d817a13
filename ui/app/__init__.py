"""Starting the desktop application: the launcher (or why it cannot start), the QApplication,
its language, its fonts and the work-arounds for the Qt binding."""
