"""The hardware and price catalog: GPUs, cloud offers, card prices, electricity, exchange rate,
machine overheads and power, engineer day rates, and the article's own defaults.

Data lives in ``resources/catalog/*.yaml``; every entry carries its source and date. Users can
override any price entry from ``catalog.yaml`` in their config folder (see ``overrides``).
"""

from advisor.catalog.catalog import Catalog, PriceQuote, catalog_warnings, load_catalog
from advisor.catalog.gpus import GpuSpec, gpu_ids, load_gpus, resolve_gpu
from advisor.catalog.overrides import CatalogWarning, override_path

__all__ = [
    "Catalog",
    "CatalogWarning",
    "GpuSpec",
    "PriceQuote",
    "catalog_warnings",
    "gpu_ids",
    "load_catalog",
    "load_gpus",
    "override_path",
    "resolve_gpu",
]
