"""The CLI front door: validate, schema, exit codes, no tracebacks."""

from __future__ import annotations

import json

from advisor.cli import main
from tests.support.paths import ROOT

ROOT = ROOT


def test_validate_all_examples(capsys) -> None:
    examples = sorted(str(p) for p in (ROOT / "examples").glob("*.yaml"))
    assert main(["validate", *examples]) == 0
    out = capsys.readouterr().out
    assert out.count(": ok") == len(examples)


def test_schema_is_json_schema_with_bilingual_titles(capsys) -> None:
    assert main(["schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    hw = schema["$defs"]["HardwareSpec"]["properties"]["nodes"]
    assert hw["minimum"] == 1 and hw["title"] == "Machines" and hw["title_zh"] == "机器台数"


def test_no_command_prints_help_and_exit_2(capsys) -> None:
    assert main([]) == 2
    assert "usage" in capsys.readouterr().out.lower()


def test_internal_error_exit_1_names_the_log(monkeypatch, capsys) -> None:
    import advisor.cli.commands.validate as validate

    def boom(args):
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(validate, "run", boom)
    monkeypatch.setattr("advisor.cli.commands.validate.run", boom)
    from advisor import cli

    parser = cli.build_parser()
    args = parser.parse_args(["validate", "x.yaml"])
    assert args.handler is not None
    # Call through main with the patched handler wired by register().
    code = main(["validate", str(ROOT / "examples" / "medium-model-4gpu-worth-it.yaml")])
    err = capsys.readouterr().err
    assert code == 1
    assert "internal error" in err and "advisor.log" in err
    assert "Traceback" not in err


def test_every_command_accepts_lang_after_its_name() -> None:
    from advisor.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name, command in sub.choices.items():
        assert "--lang" in command._option_string_actions or name == "rules", name


def test_lang_after_the_command_switches_language(capsys) -> None:
    example = str(ROOT / "examples" / "baseline-sweeps-1gpu-not-worth-it.yaml")
    assert main(["validate", "--lang", "zh", example]) == 0
    assert "有效" in capsys.readouterr().out
