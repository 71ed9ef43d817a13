"""The ``gpu-advisor`` command line: everything the GUI does, headless.

Each subcommand lives in ``advisor/cli/commands/<name>.py`` and exposes ``register(subparsers)``;
they are found automatically. Exit status: 0 ok, 2 bad input, 1 internal error.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import pkgutil
import sys
from collections.abc import Sequence

from advisor.cli.output import safe_output
from advisor.files.errors import InputError
from advisor.files.logs import internal_error_message, setup_logging
from advisor.text.i18n import system_lang

EXIT_OK, EXIT_INTERNAL, EXIT_INPUT = 0, 1, 2


class _Parser(argparse.ArgumentParser):
    """argparse that exits with 2 and one clear line on a usage error (its default too)."""

    def error(self, message: str):  # type: ignore[override]
        self.print_usage(sys.stderr)
        self.exit(EXIT_INPUT, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="gpu-advisor",
                     description="Will more GPUs make my training faster, and is it worth it? "
                                 "(多卡训练顾问)")
    parser.add_argument("--version", action="store_true",
                        help="show the version, the dates of the built-in prices and of the "
                             "projection's parameters, and the licences, then exit")
    parser.add_argument("--lang", choices=["en", "zh"], default=None,
                        help="language of messages (default: from the system locale)")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    from advisor.cli import commands

    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"advisor.cli.commands.{info.name}")
        module.register(sub)
    for command in sub.choices.values():  # `--lang` is accepted after the command name too
        if "--lang" not in command._option_string_actions:
            command.add_argument("--lang", choices=["en", "zh"], default=argparse.SUPPRESS,
                                 help="language of messages (default: from the system locale)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    lang = args.lang or system_lang()
    args.lang = lang
    if args.version:  # after parsing, so `--version --lang zh` speaks Chinese too
        from advisor.files.about import about_text

        print(about_text(lang))
        return EXIT_OK
    if not getattr(args, "handler", None):
        parser.print_help()
        return EXIT_INPUT
    setup_logging()
    with safe_output():  # control and bidi characters escaped in all that is printed
        try:
            return int(args.handler(args) or 0)
        except InputError as exc:
            print(exc.render(lang), file=sys.stderr)
            return EXIT_INPUT
        except KeyboardInterrupt:
            return 130
        except BrokenPipeError:
            return EXIT_OK
        except Exception as exc:  # noqa: BLE001 - the one place that turns a bug into a clear exit
            logging.getLogger("advisor").exception("internal error in %s", args.command)
            print(internal_error_message(exc, lang), file=sys.stderr)
            return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
