"""The command list the parser shows without importing the commands says what each command
module registers: same names, same order, same one-line help, every module listed."""

from __future__ import annotations

import argparse
import pkgutil

import pytest

from advisor import cli
from advisor.cli import commands


def _listed(parser: argparse.ArgumentParser) -> list[tuple[str, str | None]]:
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return [(a.dest, a.help) for a in sub._choices_actions]


def test_every_command_module_is_in_the_table() -> None:
    modules = sorted(info.name for info in pkgutil.iter_modules(commands.__path__))
    assert sorted(module for _name, module, _help in cli.COMMANDS) == modules


def test_the_table_lists_what_the_modules_register() -> None:
    full = cli.build_parser()
    assert _listed(full) == [(name, help_text) for name, _m, help_text in cli.COMMANDS]
    assert cli.build_parser(every=False).format_help() == full.format_help()


@pytest.mark.parametrize("name", [name for name, _m, _h in cli.COMMANDS])
def test_a_command_parsed_alone_reads_like_the_full_parser(name: str) -> None:
    def command_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return sub.choices[name]

    alone = cli.build_parser(name, every=False)
    assert _listed(alone) == _listed(cli.build_parser())
    assert command_parser(alone).format_help() == command_parser(cli.build_parser()).format_help()


def _outcome(parse, argv: list[str], capsys) -> tuple:
    """What parsing ``argv`` ends in: exit status and printed text, or the values read."""
    try:
        args = parse(argv)
    except SystemExit as exc:
        out = capsys.readouterr()
        return ("exit", exc.code, out.out, out.err)
    values = {k: v for k, v in vars(args).items() if k != "handler"}
    return ("parsed", values, getattr(getattr(args, "handler", None), "__qualname__", None))


LINES = [["recommend"], ["recommend", "x.yaml", "--bogus"], ["--lang", "fr", "recommend"],
         ["--lang", "recommend", "validate", "x"], ["frobnicate"], ["--la", "zh", "schema"],
         ["schema", "extra"], ["validate"], ["rules", "explain"], ["rules", "list", "--lang", "zh"],
         ["-h"], ["recommend", "-h"], ["--version"], ["--lang=zh", "project", "p.yaml"],
         ["--lang", "zh", "costs", "p.yaml", "--gpus", "1,2"], ["--", "schema"], [],
         ["diagnose", "m.csv", "--up-to", "x"], ["import-smi", "--detect", "--format", "json"]]


@pytest.mark.parametrize("argv", LINES, ids=lambda a: " ".join(a) or "(nothing)")
def test_the_lazy_parse_reads_a_line_as_the_full_parser_does(argv, capsys) -> None:
    lazy = _outcome(lambda a: cli.parse(a)[1], argv, capsys)
    full = _outcome(cli.build_parser().parse_args, argv, capsys)
    assert lazy == full
