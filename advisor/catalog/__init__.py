"""The hardware and price catalog: GPUs, cloud offers, card prices, electricity, exchange rate,
machine overheads and power, engineer day rates, the article's own defaults, and the models a
profile can name by id (``models``: ``resources/catalog/models.yaml``).

Data lives in ``resources/catalog/*.yaml``; every entry carries its source and date. Users can
override any price entry from ``catalog.yaml`` in their config folder (see ``overrides``).

The names below are imported on first use: checking a profile's GPU (``validate``) needs the
GPU table, not the price models.
"""

from __future__ import annotations

import importlib

_LAZY = {
    "Catalog": "advisor.catalog.catalog",
    "PriceQuote": "advisor.catalog.catalog",
    "catalog_warnings": "advisor.catalog.catalog",
    "load_catalog": "advisor.catalog.catalog",
    "GpuSpec": "advisor.catalog.gpus",
    "gpu_ids": "advisor.catalog.gpus",
    "load_gpus": "advisor.catalog.gpus",
    "resolve_gpu": "advisor.catalog.gpus",
    "ModelEntry": "advisor.catalog.models",
    "find_model": "advisor.catalog.models",
    "load_models": "advisor.catalog.models",
    "resolve_model": "advisor.catalog.models",
    "CatalogWarning": "advisor.catalog.overrides",
    "override_path": "advisor.catalog.override_location",
}

__all__ = ["Catalog", "CatalogWarning", "GpuSpec", "ModelEntry", "PriceQuote", "catalog_warnings",
           "find_model", "gpu_ids", "load_catalog", "load_gpus", "load_models", "override_path",
           "resolve_gpu", "resolve_model"]


def __getattr__(name: str):
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
