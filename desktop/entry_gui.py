"""The desktop bundle's `gpu-advisor-gui` program: the wizard (PyInstaller entry script)."""

import sys

from ui.app.application import main

sys.exit(main())
