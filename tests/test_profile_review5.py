"""Review 5, items 10 and 17: what the profile checks say.

10: a deadline or revenue without what a day saved is worth no longer counts that day as 0
silently: economics.value_per_day is asked for (a deadline with its date alone is fine).
17: a custom GPU's bad number is reported without a spurious "must be text"; runs_per_week at
its own line; a name that covers several cards ('H100', 'A100 40GB') is the one the link inside
the machine allows, or is reported as ambiguous with the cards listed; '4090' resolves."""

from __future__ import annotations

import pytest

from advisor.catalog.gpus import resolve_gpu, variant_for_link
from advisor.catalog.profile_check import catalog_problems, parse_profile_text
from advisor.cli import main
from advisor.files.errors import InputError
from advisor.profile import Profile

HEAD = "schema_version: 1\ntraining: {single_gpu_hours: 20}\n"


def problems(text: str):
    with pytest.raises(InputError) as err:
        parse_profile_text(text)
    return err.value.problems


# --- 10: the worth of a day ---------------------------------------------------------------------

REVENUE = (HEAD + "hardware: {gpu: rtx4090, gpus_per_node: 2}\n"
           "economics:\n  mode: own\n  currency: USD\n  time_value: revenue\n")


def test_revenue_without_a_value_per_day_names_the_field_at_the_time_value_line():
    [problem] = problems(REVENUE)
    assert problem.path == "economics.value_per_day"
    assert problem.line == 7  # the time_value line that asks for it
    assert "economics.value_per_day" in problem.message_en
    assert "economics.value_per_day" in problem.message_zh and "收入" in problem.message_zh


def test_a_deadline_needs_its_worth_or_its_date():
    text = REVENUE.replace("revenue", "deadline")
    [problem] = problems(text)
    assert problem.path == "economics.value_per_day"
    assert "deadline_days" in problem.message_en and "deadline_days" in problem.message_zh
    dated = parse_profile_text(text + "  deadline_days: 0.5\n")  # the date alone counts
    assert dated.economics.value_per_day is None and dated.economics.deadline_days == 0.5


@pytest.mark.parametrize("extra", ["  value_per_day: 300\n", "  value_per_day: 0\n"])
def test_a_given_value_is_accepted(extra):
    assert parse_profile_text(REVENUE + extra).economics.value_per_day is not None


def test_learning_needs_no_value():
    assert parse_profile_text(REVENUE.replace("revenue", "none")).economics.value_per_day is None


def test_the_cli_says_so_and_exits_2(tmp_path, capsys):
    path = tmp_path / "p.yaml"
    path.write_text(REVENUE, encoding="utf-8")
    assert main(["validate", str(path)]) == 2
    assert f"{path}:7: economics.value_per_day:" in capsys.readouterr().err
    assert main(["--lang", "zh", "recommend", str(path)]) == 2
    assert "economics.value_per_day" in capsys.readouterr().err


def test_the_wizard_shows_it_at_the_field():
    from ui.window.answers import answers_from_profile, set_path, validate_answers

    data = answers_from_profile(Profile())
    set_path(data, "economics.time_value", "revenue")
    profile, found = validate_answers(data)
    assert profile is None and list(found) == ["economics.value_per_day"]
    set_path(data, "economics.value_per_day", 500)
    profile, found = validate_answers(data)
    assert found == {} and profile.economics.value_per_day == 500


def test_the_wizard_window_marks_the_field(qtbot):
    from tests.support.ui import make_window

    window = make_window(qtbot)
    page = next(p for p in window.pages if p.page.key == "habits")
    time_value = page.editors["economics.time_value"].input
    index = time_value.findData("revenue")
    time_value.setCurrentIndex(index)
    time_value.activated.emit(index)
    value = page.editors["economics.value_per_day"]
    assert not value.error_label.isHidden() and value.error_label.text() == "is required"
    qtbot.keyClicks(value.input, "800")
    assert value.error_label.isHidden()
    assert window.answers.profile.economics.value_per_day == 800


# --- 17: messages at the right place ------------------------------------------------------------

def test_a_custom_gpus_bad_number_has_no_must_be_text():
    text = HEAD + "hardware:\n  gpu: {name: x, memory_gb: 0, tflops_fp16: 10, tflops_fp32: 5}\n"
    found = problems(text)
    assert [(p.path, p.line) for p in found] == [("hardware.gpu.memory_gb", 4)]
    assert found[0].message_en == "must be > 0.0, got 0"


def test_a_name_that_is_not_text_still_says_so():
    found = problems(HEAD + "hardware: {gpu: [1, 2]}\n")
    assert any("must be text" in p.message_en for p in found)


@pytest.mark.parametrize("key", ["runs_per_week", "runs_per_day"])
def test_runs_per_period_is_reported_at_its_own_line(key):
    text = f"schema_version: 1\ntraining:\n  single_gpu_hours: 10\n  {key}: -2\n"
    [problem] = problems(text)
    assert (problem.path, problem.line) == (f"training.{key}", 4)
    assert problem.message_en == "must be between 0 and 10000, got -2"
    assert problem.message_zh == "必须在 0 到 10000 之间，实际为 -2"
    [typed] = problems(text.replace("-2", "often"))
    assert (typed.path, typed.line) == (f"training.{key}", 4)
    assert typed.message_en == "must be a number, got 'often'"


def test_two_run_periods_point_at_the_second():
    text = "schema_version: 1\ntraining:\n  single_gpu_hours: 10\n  runs_per_week: 1\n" \
           "  runs_per_day: 1\n"
    [problem] = problems(text)
    assert (problem.path, problem.line) == ("training.runs_per_day", 5)
    assert "runs_per_week, runs_per_day" in problem.message_zh


@pytest.mark.parametrize("typed, link, expected", [
    ("H100", "pcie4", "h100_pcie"), ("h100", "pcie5", "h100_pcie"),
    ("H100", "nvlink_bridge", "h100_pcie"), ("H100", "nvswitch", "h100_sxm"),
    ("A100 40GB", "pcie4", "a100_pcie_40gb"), ("A100 40GB", "nvswitch", "a100_sxm4_40gb"),
    ("a100 80gb", "nvlink", "a100_sxm4_80gb"), ("v100", "pcie3", "v100_pcie_32gb"),
])
def test_a_family_name_is_the_card_the_link_allows(typed, link, expected):
    assert resolve_gpu(typed, link).id == expected
    assert variant_for_link(typed, link) == expected
    profile = parse_profile_text(HEAD + f"hardware: {{gpu: {typed}, intra_link: {link}}}\n")
    assert profile.hardware.gpu == expected  # what every later step resolves


@pytest.mark.parametrize("typed, link, listed", [
    ("a100", "pcie4", ["a100_pcie_40gb", "a100_pcie_80gb"]),
    ("a100", "nvswitch", ["a100_sxm4_40gb", "a100_sxm4_80gb"]),
    ("V100", "nvlink", ["v100_sxm2_16gb", "v100_sxm2_32gb"]),
])
def test_a_family_the_link_does_not_settle_is_ambiguous(typed, link, listed):
    [problem] = problems(HEAD + f"hardware:\n  gpu: {typed}\n  intra_link: {link}\n")
    assert (problem.path, problem.line) == ("hardware.gpu", 4)
    assert "names several GPUs" in problem.message_en and "对应多款显卡" in problem.message_zh
    for card in listed:
        assert card in problem.message_en and card in problem.message_zh
    assert "cannot use" not in problem.message_en


def test_without_a_link_a_family_name_is_ambiguous():
    with pytest.raises(InputError) as err:
        resolve_gpu("H100")
    assert "h100_pcie" in err.value.problems[0].message_en
    assert "h100_sxm" in err.value.problems[0].message_en


@pytest.mark.parametrize("line", ['gpu: "4090"', "gpu: 4090", "gpu: RTX 4090"])
def test_a_bare_model_number_resolves(line):
    profile = parse_profile_text(HEAD + f"hardware:\n  {line}\n")
    assert resolve_gpu(profile.hardware.gpu).id == "rtx4090"
    assert catalog_problems(profile) == []


def test_a_single_cards_id_with_a_link_it_cannot_have_is_still_reported():
    [problem] = problems(HEAD + "hardware: {gpu: h100_sxm, intra_link: pcie4}\n")
    assert problem.path == "hardware.intra_link" and "cannot use pcie4" in problem.message_en


def test_aliases_of_one_card_stay_as_typed():
    profile = parse_profile_text(HEAD + "hardware: {gpu: h100_sxm5, intra_link: nvswitch}\n")
    assert profile.hardware.gpu == "h100_sxm5"
