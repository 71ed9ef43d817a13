"""Every rule fact has a name people can read, in both languages (Why tab, PDF, rules explain)."""

from advisor.rulebase.fact_catalog import FACTS
from advisor.rulebase.fact_names import FACT_NAMES, fact_name


def test_every_fact_has_a_name_in_both_languages():
    missing = sorted(k for k in FACTS if k not in FACT_NAMES and not k.startswith("obs_"))
    assert missing == []
    for name in FACTS:
        en, zh = fact_name(name, "en"), fact_name(name, "zh")
        assert en and zh and "_" not in en and "_" not in zh, name


def test_observations_read_as_observed():
    assert fact_name("obs_thermal_throttling", "en") == "observed: thermal throttling"
    assert fact_name("obs_thermal_throttling", "zh") == "观察到：过热降频"
