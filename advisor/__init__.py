"""GPU Scaling Advisor core: validated workload profiles, projections, costs and rules.

This package never imports Qt; the GUI lives in ``ui``. The layers, lowest first (each imports
only those before it; ``tests/architecture/test_layers.py`` holds them to it):

    text, files   helpers every layer may use (both languages; reading and writing files)
    profile       the data model: what the user says about the workload, hardware and money
    catalog       what is known of GPUs, prices and offers; a profile checked against it
    scaling       the projection: speed-up of 1…N GPUs with its band, memory fit
    costs         cost per run and month, buy vs rent, value of time
    hwimport      the machine read from nvidia-smi output or NVML
    diagnosis     a measured run explained (F30)
    rulebase      the rules as data (``rules/*.yaml``) and the facts they may test
    verdict       facts → rules → conflict policy → count guard → the Recommendation
    compare       setups side by side: each option's recommendation, the Pareto front of
                  time per run against monthly cost, the answers
    cli           the ``gpu-advisor`` command line

The names most callers need are here, imported on first use so ``import advisor`` stays cheap:
``advisor.load_profile(path)``, ``advisor.project(profile, gpus)``,
``advisor.recommend(profile)``, ``advisor.compare(profile)``.
"""

__version__ = "0.1.0"

__all__ = ["__version__", "compare", "load_profile", "project", "recommend"]

_LAZY = {
    "load_profile": "advisor.catalog.profile_check",
    "project": "advisor.scaling",
    "recommend": "advisor.compare.weighed",
    "compare": "advisor.compare.compare",
}


def __getattr__(name: str):
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(name)
