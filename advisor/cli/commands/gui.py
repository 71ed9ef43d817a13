"""gpu-advisor gui [PROFILE]: open the desktop wizard."""

from __future__ import annotations


def register(sub) -> None:
    p = sub.add_parser("gui", help="open the desktop application")
    p.add_argument("profile", nargs="?", metavar="PROFILE")
    p.set_defaults(handler=run)


def run(args) -> int:
    import importlib

    # Qt is imported only here, by name: the core never imports the GUI package.
    launch = importlib.import_module("ui.app.launch").launch
    return launch([args.profile] if args.profile else [], lang=args.lang)
