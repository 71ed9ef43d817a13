"""GPU Scaling Advisor core: validated workload profiles, projections, costs and rules.

This package never imports Qt; the GUI lives in ``ui``.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]


def __getattr__(name: str):  # lazy, so `import advisor` stays cheap
    if name == "project":
        from advisor.scaling import project

        return project
    raise AttributeError(name)
