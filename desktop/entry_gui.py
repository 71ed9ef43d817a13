"""The desktop bundle's `gpu-advisor-gui` program: the wizard (PyInstaller entry script)."""

import sys

from ui.app.launch import main

sys.exit(main())
