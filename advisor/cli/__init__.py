"""The ``gpu-advisor`` command line: everything the GUI does, headless.

Each subcommand lives in ``advisor/cli/commands/<name>.py`` and exposes ``register(subparsers)``;
``COMMANDS`` lists them with the one-line help ``--help`` shows, so a call imports only the
module of the command it names (``--version`` and ``--help`` import none: scripts and the
wizard call the command line over and over; ``--version`` prints ``advisor.files.about``).
Exit status: 0 ok, 2 bad input, 1 internal error.
"""

from __future__ import annotations

import argparse
import codecs
import errno
import gc
import importlib
import os
import re
import sys
from collections.abc import Sequence

from advisor.cli.no_pydantic_plugins import use_no_pydantic_plugins
from advisor.text.lang import system_lang

EXIT_OK, EXIT_INTERNAL, EXIT_INPUT = 0, 1, 2
EXIT_INTERRUPTED = 130  # Ctrl-C: the shells' 128 + SIGINT

# (name, module in advisor/cli/commands, help in the command list), in the order --help lists
# them; tests/cli/test_command_table.py checks each against the module's own register().
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("catalog", "catalog", "list the GPUs, prices and offers the advisor knows, by market, "
                           "with dates"),
    ("compare", "compare", "compare setups side by side: what to buy, rent or change"),
    ("costs", "costs", "costs per run and per month, buy vs rent, value of time"),
    ("diagnose", "diagnose", "diagnose measured multi-GPU scaling (why only 1.8x?)"),
    ("gui", "gui", "open the desktop application"),
    ("import-model", "import_model", "read a Hugging Face config.json (offline) into a "
                                     "profile's model section"),
    ("import-smi", "import_smi", "read nvidia-smi output files (or this machine via NVML) into "
                                 "a hardware description"),
    ("project", "project", "project the speed-up of 1...N GPUs for a profile"),
    ("recommend", "recommend", "recommend a setup for a profile"),
    ("rules", "rules", "list or explain the rules of the rule base"),
    ("schema", "schema", "print the profile's JSON Schema"),
    ("validate", "validate", "check one or more profile files"),
)
LANG_HELP = "language of messages (default: from the system locale)"


# argparse's messages in Chinese (review 4: `--lang zh` answered a usage error in English)
_ARGPARSE_ZH = (
    (re.compile(r"^the following arguments are required: (.*)$"), "缺少必需的参数：{0}"),
    (re.compile(r"^unrecognized arguments: (.*)$"), "无法识别的参数：{0}"),
    (re.compile(r"^argument (.+?): invalid choice: (.+?) \(choose from (.*)\)$"),
     "参数 {0}：无效的选择 {1}（可选：{2}）"),
    (re.compile(r"^argument (.+?): expected one argument$"), "参数 {0}：需要一个值"),
    (re.compile(r"^argument (.+?): expected at least one argument$"), "参数 {0}：至少需要一个值"),
    (re.compile(r"^argument (.+?): invalid (\w+) value: (.*)$"), "参数 {0}：不是有效的 {1} 值：{2}"),
    (re.compile(r"^ambiguous option: (.+?) could match (.*)$"), "选项不明确：{0} 可匹配 {1}"),
    (re.compile(r"^argument (.+?): not allowed with argument (.*)$"), "参数 {0}：不能与参数 {1} 同时使用"),
)
_usage_lang: str | None = None  # the language the command line being parsed asks for


def _argv_lang(argv: Sequence[str]) -> str:
    """``--lang`` as the command line gives it (anywhere in it), else the system's."""
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return system_lang()


def usage_error_zh(message: str) -> str:
    """argparse's message in Chinese where its wording is known, else as it is."""
    for pattern, template in _ARGPARSE_ZH:
        m = pattern.match(message)
        if m:
            return template.format(*m.groups())
    return message


class _Parser(argparse.ArgumentParser):
    """argparse that exits with 2 and one clear line on a usage error (its default too), in
    the language the command line asks for."""

    def error(self, message: str):  # type: ignore[override]
        self.print_usage(sys.stderr)
        if _usage_lang == "zh":
            self.exit(EXIT_INPUT, f"{self.prog}：错误：{usage_error_zh(message)}\n")
        self.exit(EXIT_INPUT, f"{self.prog}: error: {message}\n")


def build_parser(command: str | None = None, *, every: bool = True,
                 alone: bool = False) -> argparse.ArgumentParser:
    """The parser with every command's own arguments (``every``), or only those of
    ``command`` and the others as names with their help (nothing of theirs imported), or
    (``alone``) ``command`` as the only choice."""
    parser = _Parser(prog="gpu-advisor",
                     description="Will more GPUs make my training faster, and is it worth it? "
                                 "(多卡训练顾问)")
    parser.add_argument("--version", action="store_true",
                        help="show the version, the dates of the built-in prices and of the "
                             "projection's parameters, and the licences, then exit")
    parser.add_argument("--lang", choices=["en", "zh"], default=None, help=LANG_HELP)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, module_name, help_text in COMMANDS:
        if every or name == command:
            importlib.import_module(f"advisor.cli.commands.{module_name}").register(sub)
        elif not alone:  # a name in the list only: its arguments are read by the second pass
            sub.add_parser(name, help=help_text, add_help=False)
    for command_parser in sub.choices.values():  # `--lang` is accepted after the command too
        if "--lang" not in command_parser._option_string_actions:
            command_parser.add_argument("--lang", choices=["en", "zh"],
                                        default=argparse.SUPPRESS, help=LANG_HELP)
    return parser


def _named_command(argv: Sequence[str]) -> str | None:
    """The command a plain command line names (``[--lang X] COMMAND ...``); None for anything
    else (help, version, an unknown name, abbreviated or unknown options), which the parser
    with the whole command list then reads."""
    names = {name for name, _m, _h in COMMANDS}
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--lang":
            i += 2
        elif arg.startswith("--lang="):
            i += 1
        else:
            return arg if arg in names else None
    return None


def parse(argv: Sequence[str]) -> tuple[argparse.ArgumentParser, argparse.Namespace]:
    """The parser for the command ``argv`` names and what it read. A plain line builds that
    command's parser alone; anything else goes through two passes: the command list alone
    finds which command is meant (and answers ``--help``, ``--version`` and an unknown
    command), then that command's parser reads the whole line. The messages are those of
    one parser holding every command: where the others' names would show (the command
    list, an unknown command), they are there."""
    global _usage_lang
    _usage_lang = _argv_lang(argv)
    named = _named_command(argv)
    if named is not None:
        parser = build_parser(named, every=False, alone=True)
        return parser, parser.parse_args(argv)
    names = build_parser(every=False)
    chosen, _rest = names.parse_known_args(argv)
    if chosen.command is None:
        return names, names.parse_args(argv)  # no command: the same errors as before, or help
    parser = build_parser(chosen.command, every=False)
    return parser, parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command and return its exit status; the program itself (``argv`` None) ends
    at once when it is done, without freeing what it loaded (``advisor.cli.leave``)."""
    if argv is not None:  # a caller (tests) inside a longer process
        return _run(list(argv), entry=False)
    try:
        code = _run(sys.argv[1:], entry=True)
    except KeyboardInterrupt:  # Ctrl-C while the command was still loading (review 4)
        code = EXIT_INTERRUPTED
    from advisor.cli.leave import leave

    return leave(code)


# a full disk, a device error, a quota, a file too large (EDQUOT is not on every platform)
OUTPUT_ERRNOS = frozenset(getattr(errno, name) for name in ("ENOSPC", "EIO", "EDQUOT", "EFBIG")
                          if hasattr(errno, name))


def output_failed(exc: OSError, lang: str) -> int:
    """Standard output could not be written (a full disk, a device error): say so on standard
    error, never as an internal error (issue 35), and end with status 1."""
    reason = exc.strerror or str(exc)
    try:
        print(f"gpu-advisor: cannot write the output: {reason}" if lang != "zh" else
              f"gpu-advisor：无法写出结果：{reason}", file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass
    return EXIT_INTERNAL


# What a legacy code page writes for a character it lacks, best first (review 4: GBK has no
# "¥", so every price in yuan read "?1.24"; "≤" in a bound read "?")
FALLBACKS = {"¥": ("￥", "CNY "), "≤": ("<=",), "≥": (">=",), "×": ("x",), "★": ("*",),
             "·": (".",), "—": ("-",), "–": ("-",), "…": ("...",), "→": ("->",),
             "−": ("-",), "°": (" deg",), "€": ("EUR ",), "✓": ("ok",)}
ERRORS = "gpu_advisor_fallback"


def _fallback(exc: UnicodeError) -> tuple[str, int]:
    """The codec error handler: each character the code page lacks as its ``FALLBACKS``
    that the code page has, else '?'."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = []
    for ch in exc.object[exc.start:exc.end]:
        for alt in FALLBACKS.get(ch, ()):
            try:
                alt.encode(exc.encoding)
            except (UnicodeError, LookupError):
                continue
            out.append(alt)
            break
        else:
            out.append("?")
    return "".join(out), exc.end


def _printable_streams() -> None:
    """Standard output and error in a legacy code page (what Python uses on Windows when
    output is redirected: cp1252, GBK, cp932) cannot encode every character the advisor
    prints (¥, ★, ·, ×, Chinese): each such character becomes its nearest the code page has
    ("￥" in GBK, "<=" for "≤"), else '?', instead of a traceback (issue 35). UTF-8 streams
    are left as they are."""
    codecs.register_error(ERRORS, _fallback)
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        if encoding in ("utf8", "utf16", "utf32") or not hasattr(stream, "reconfigure"):
            continue
        try:
            stream.reconfigure(errors=ERRORS)
        except (ValueError, OSError, TypeError):  # closed, or not a text stream of its own
            continue


def _say_no_chinese(stream: object) -> None:
    """One line on standard error, in English, where Chinese output goes to a code page that
    has no Chinese (a user review: `--lang zh` on a Windows English console printed only
    '?????' and said nothing)."""
    encoding = getattr(stream, "encoding", None) or ""
    try:
        "中文".encode(encoding)
    except LookupError:
        return
    except UnicodeError:
        try:
            print(f"gpu-advisor: this console's code page ({encoding}) cannot show Chinese: "
                  "run `chcp 65001` (Windows) or set PYTHONUTF8=1, or use --lang en",
                  file=sys.stderr, flush=True)
        except (OSError, ValueError, UnicodeError):
            pass


def _run(argv: list[str], *, entry: bool) -> int:
    if sys.stdout is None:  # started with standard output closed (pythonw, a task): the
        # command still runs, so bad input is status 2 and --pdf is written (a user review:
        # status 1 before anything was read); what it prints is lost, and said
        sys.stdout = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the run
        try:
            code = _run(argv, entry=entry)
        finally:
            sys.stdout.close()
            sys.stdout = None
        if code == EXIT_OK and sys.stderr is not None:
            try:
                print("gpu-advisor：无法输出结果：标准输出已关闭" if _argv_lang(argv) == "zh"
                      else "gpu-advisor: cannot write the output: standard output is closed",
                      file=sys.stderr, flush=True)
            except (OSError, ValueError):
                pass
        wrote_pdf = any(a == "--pdf" or a.startswith("--pdf=") for a in argv)
        return EXIT_INTERNAL if code == EXIT_OK and not wrote_pdf else code
    _printable_streams()
    # Importing the command builds a few hundred classes and their validators: no cyclic
    # garbage worth collecting, but enough allocations to make the collector walk every
    # object loaded so far, again and again. It waits until they are loaded; the program
    # then leaves them out of later collections (gc.freeze: they live as long as it does).
    use_no_pydantic_plugins()  # before the first model is built (no_pydantic_plugins.py)
    collecting = gc.isenabled()
    gc.disable()
    try:
        parser, args = parse(argv)
    finally:
        if collecting:
            if entry:
                gc.freeze()
            gc.enable()
    lang = args.lang or system_lang()
    args.lang = lang
    if lang == "zh":
        _say_no_chinese(sys.stdout)
    if args.version:  # after parsing, so `--version --lang zh` speaks Chinese too
        from advisor.files.about import about_text

        try:
            print(about_text(lang), flush=True)
        except BrokenPipeError:
            return EXIT_OK
        except OSError as exc:
            return output_failed(exc, lang)
        return EXIT_OK
    if not getattr(args, "handler", None):
        parser.print_help()
        return EXIT_INPUT
    from advisor.cli.output import safe_output
    from advisor.files.errors import InputError
    with safe_output():  # control and bidi characters escaped in all that is printed
        try:
            from advisor.cli.catalog_notes import reads, say_catalog_problems

            before = reads()
            code = int(args.handler(args) or 0)
            if code == EXIT_OK:  # what it read of the user's catalog.yaml that was broken
                say_catalog_problems(args, lang, before)
            return code
        except InputError as exc:
            try:
                print(exc.render(lang), file=sys.stderr, flush=True)
            except (OSError, ValueError):  # nobody reads standard error: still bad input
                pass
            return EXIT_INPUT
        except KeyboardInterrupt:
            return EXIT_INTERRUPTED
        except BrokenPipeError:
            return EXIT_OK
        except OSError as exc:
            if exc.errno not in OUTPUT_ERRNOS:
                raise
            return output_failed(exc, lang)
        except Exception as exc:  # noqa: BLE001 - the one place that turns a bug into a clear exit
            import logging

            from advisor.files.logs import internal_error_message, setup_logging

            setup_logging()  # only now: most calls log nothing (advisor.files.logs)
            logging.getLogger("advisor").exception("internal error in %s", args.command)
            print(internal_error_message(exc, lang), file=sys.stderr)
            return EXIT_INTERNAL


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
