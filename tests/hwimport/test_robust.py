"""Nothing but the clear "not nvidia-smi output" error may ever escape the parsers: random text,
fixtures mutated the way pastes get mangled, and every fixture cut at every line."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from advisor.cli import main
from advisor.files.errors import InputError
from advisor.hwimport import HardwareDescription, importer, parse_text
from tests.support.paths import TESTS

FIXTURES = TESTS / "fixtures" / "nvidia-smi"


class _RaisingLog:
    """Stands in for the importer's logger: a parser bug that the importer would swallow
    (logging it and going on with the rest of the paste) fails these tests instead."""

    def exception(self, message, *args):
        raise AssertionError("a parser raised: " + message % args)


@pytest.fixture(autouse=True, scope="module")
def _parser_bugs_fail():
    saved = importer.log
    importer.log = _RaisingLog()
    yield
    importer.log = saved
FILES = sorted(FIXTURES.rglob("*.txt"))
TEXTS = {p.relative_to(FIXTURES).as_posix(): p.read_text(encoding="utf-8") for p in FILES}
FULL = {name: parse_text(text) for name, text in TEXTS.items()}


def _parse_or_input_error(text: str) -> HardwareDescription | None:
    try:
        desc = parse_text(text)
    except InputError as exc:
        assert "nvidia-smi" in exc.render("en") and "nvidia-smi" in exc.render("zh")
        return None
    HardwareDescription.model_validate(desc.model_dump())  # always a valid contract
    return desc


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_every_line_cut(name):
    """A paste cut after any line parses (or is rejected cleanly) and never shows more GPUs
    than the whole output. The two 1800–2200-line multi-GPU `-q` files repeat one GPU block
    per GPU: they are cut at every line of their first two blocks and every 5th line after."""
    lines = TEXTS[name].split("\n")
    full_count = FULL[name].gpu_count
    cuts = range(len(lines) + 1)
    if len(lines) > 600:
        cuts = [*range(460), *range(460, len(lines) + 1, 5)]
    for cut in cuts:
        desc = _parse_or_input_error("\n".join(lines[:cut]))
        if desc is not None and full_count is not None and desc.gpu_count is not None:
            assert desc.gpu_count <= full_count, (name, cut)


def test_not_smi_output_is_a_clear_error():
    for text in ("", "hello world", "key : value\nother : thing", "1, 2, 3\n4, 5, 6",
                 "GPU 0: 95%", "# comment\n  1 2 3"):
        with pytest.raises(InputError) as err:
            parse_text(text)
        assert "not nvidia-smi output" in err.value.render("en")
        assert "不是 nvidia-smi 的输出" in err.value.render("zh")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=400))
def test_random_text(text):
    _parse_or_input_error(text)


_LINE_NOISE = st.sampled_from(["|", "||", "+---+", "\t", "  ", "GPU0", "NV12", "X", ":", " : ",
                               "...", "--", "#", "# gpu pwr sm", ",", "[4m", "\x1b[0m", "N/A",
                               "GPU 0000:00:00.0", "MiB", "C", "P0", "Active", "-", "\r\n",
                               "GPU 1: x (UUID: GPU-1)", "> ", "```", "Legend:", "\u00a0"])


@st.composite
def mangled_fixture(draw):
    small = [n for n, t in TEXTS.items() if len(t) < 12_000]
    text = TEXTS[draw(st.sampled_from(small))]
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.sampled_from(["cut", "insert", "tabs", "dup", "swap", "noise"]))
        a = draw(st.integers(0, len(text)))
        b = draw(st.integers(a, min(len(text), a + 300)))
        if op == "cut":
            text = text[:a] + text[b:]
        elif op == "insert":
            text = text[:a] + draw(st.text(max_size=40)) + text[a:]
        elif op == "tabs":
            text = text.replace("\t", " " * draw(st.integers(1, 8)))
        elif op == "dup":
            text = text[:b] + text[a:b] + text[b:]
        elif op == "swap":
            lines = text.split("\n")
            i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            text = "\n".join(lines)
        else:
            text = text[:a] + draw(_LINE_NOISE) + text[a:]
    return text


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mangled_fixture())
def test_mangled_fixtures(text):
    _parse_or_input_error(text)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(sorted(TEXTS)), min_size=2, max_size=4))
def test_concatenated_outputs(names):
    """Several outputs pasted one after another still parse, as one merged machine."""
    desc = _parse_or_input_error("\n".join(TEXTS[n] for n in names))
    assert desc is not None


NOT_SMI = TESTS / "fixtures" / "not-nvidia-smi"
NOT_SMI_FILES = sorted(p for p in NOT_SMI.iterdir() if p.name != "SOURCES.md")


def test_negative_fixtures_are_listed_in_their_sources():
    listed = (NOT_SMI / "SOURCES.md").read_text(encoding="utf-8")
    assert len(NOT_SMI_FILES) >= 15
    assert [p.name for p in NOT_SMI_FILES if f"| {p.name} |" not in listed] == []


@pytest.mark.parametrize("path", NOT_SMI_FILES, ids=lambda p: p.name)
def test_documents_source_code_and_other_tools_are_not_smi_output(path):
    with pytest.raises(InputError) as err:
        parse_text(path.read_text(encoding="utf-8"), path.name)
    assert "not nvidia-smi output" in err.value.render("en")


def test_cli_refuses_the_project_readme_with_exit_2(capsys):
    assert main(["import-smi", str(NOT_SMI / "markdown-project-readme.md")]) == 2
    captured = capsys.readouterr()
    assert "not nvidia-smi output" in captured.err and "dmon" not in captured.out


@pytest.mark.parametrize("text", [
    "# GPU Scaling Advisor\n\n    gpu-advisor import-smi smi.txt, topo.txt\n",
    "# gpu is fast\n  1 2 3\n",
    "# gpu   pwr gtemp mtemp    sm   mem\n",  # a header alone, no units line, no samples
    "# gpu pwr foo bar baz\n    0  100  1  2  3\n",  # mostly unknown column names
])
def test_a_dmon_like_header_alone_is_not_dmon(text):
    with pytest.raises(InputError):
        parse_text(text)


def test_dmon_header_with_units_line_but_no_samples_is_dmon():
    d = parse_text("$ nvidia-smi dmon\n# gpu   pwr gtemp mtemp    sm   mem   enc   dec  mclk  pclk\n"
                   "# Idx     W     C     C     %     %     %     %   MHz   MHz\n")
    assert d.kind == "dmon" and d.gpu_count is None
    assert any("header but no samples" in w.en for w in d.warnings)


def test_dmon_with_date_and_time_columns():
    d = parse_text("#Date       Time        gpu   pwr gtemp mtemp    sm   mem   enc   dec  mclk  pclk\n"
                   "#YYYYMMDD   HH:MM:SS    Idx     W     C     C     %     %     %     %   MHz   MHz\n"
                   " 20240501   14:02:11      0   281    71     -    97    60     0     0  9501  1980\n"
                   " 20240501   14:02:12      0   279    72     -    99    61     0     0  9501  1980\n")
    assert d.kind == "dmon" and d.mean_sm_util == 98 and d.max_gpu_temp_c == 72


def test_cleanup_of_pasted_text():
    from advisor.hwimport.cleanup import clean_text
    assert clean_text("> a\n>> b\n> > c\n>\n   > d\n>    x : 1\n>\tGPU0\n") == \
        "a\nb\nc\n\nd\n   x : 1\n\tGPU0\n"  # nesting and -q indentation kept, topo's tab kept
    assert clean_text("显卡\u00a0GPU0\u200b\x07 &gt; ok\r\n||x|\n") == "显卡 GPU0 > ok\n|x|\n"
    assert clean_text("\x1b[1mGPU0\x1b[0m [4mX[0m\n```\nGPU1\n```\n") == "GPU0 X\n\nGPU1\n\n"
    assert clean_text("    a : 1\n      b : 2\n") == "a : 1\n  b : 2\n"  # a 4-space code block
    assert clean_text("\ud800 lone surrogate") == "\ud800 lone surrogate"
