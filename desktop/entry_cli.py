"""The desktop bundle's `gpu-advisor` program: the command line (PyInstaller entry script)."""

import sys

from advisor.cli import main

sys.exit(main())
