"""Readable, translatable labels for the profile's enum values (Qt Linguist context "Choices")."""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

from advisor.text.i18n import Text
from ui.app.translation import tr_lang

# value -> English source text; the .ts file holds the Chinese.
CHOICE_LABELS: dict[str, str] = {
    # Task
    "image_classification": QT_TRANSLATE_NOOP("Choices", "Image classification"),
    "object_detection": QT_TRANSLATE_NOOP("Choices", "Object detection"),
    "segmentation": QT_TRANSLATE_NOOP("Choices", "Segmentation"),
    "speech_recognition": QT_TRANSLATE_NOOP("Choices", "Speech recognition"),
    "nlp": QT_TRANSLATE_NOOP("Choices", "NLP (language model, fine-tuning)"),
    "llm": QT_TRANSLATE_NOOP("Choices", "Large language model"),
    "recommendation": QT_TRANSLATE_NOOP("Choices", "Recommendation / ranking"),
    "gan": QT_TRANSLATE_NOOP("Choices", "GAN"),
    "reinforcement_learning": QT_TRANSLATE_NOOP("Choices", "Reinforcement learning"),
    "other": QT_TRANSLATE_NOOP("Choices", "Other"),
    "diffusion": QT_TRANSLATE_NOOP("Choices", "Diffusion model (UNet / DiT)"),
    # Diffusion: denoiser, frozen encoders, EMA
    "unet": QT_TRANSLATE_NOOP("Choices", "UNet (SD 1.x/2.x, SDXL)"),
    "dit": QT_TRANSLATE_NOOP("Choices", "DiT (PixArt, SD3, Flux)"),
    "on_gpu": QT_TRANSLATE_NOOP("Choices", "On every GPU"),
    "offloaded": QT_TRANSLATE_NOOP("Choices", "In host RAM, moved per batch"),
    "cached": QT_TRANSLATE_NOOP("Choices", "Cached beforehand (not loaded)"),
    "gpu": QT_TRANSLATE_NOOP("Choices", "On every GPU (one copy each)"),
    "cpu": QT_TRANSLATE_NOOP("Choices", "In host RAM"),
    "adafactor": QT_TRANSLATE_NOOP("Choices", "Adafactor (factored, Adam-family)"),
    # Loss computation
    "unfused": QT_TRANSLATE_NOOP("Choices", "Unfused (Hugging Face Trainer)"),
    "chunked": QT_TRANSLATE_NOOP("Choices", "Chunked (torchtune, Liger, Unsloth)"),
    # Precision / gradient type
    "fp32": QT_TRANSLATE_NOOP("Choices", "FP32"),
    "tf32": QT_TRANSLATE_NOOP("Choices", "TF32"),
    "fp16": QT_TRANSLATE_NOOP("Choices", "FP16"),
    "bf16": QT_TRANSLATE_NOOP("Choices", "BF16"),
    "amp": QT_TRANSLATE_NOOP("Choices", "Mixed precision (AMP)"),
    "fp8": QT_TRANSLATE_NOOP("Choices", "FP8 (Transformer Engine / torchao)"),
    "auto": QT_TRANSLATE_NOOP("Choices", "Automatic"),
    # Throughput unit
    "samples": QT_TRANSLATE_NOOP("Choices", "Samples per second"),
    "images": QT_TRANSLATE_NOOP("Choices", "Images per second"),
    "tokens": QT_TRANSLATE_NOOP("Choices", "Tokens per second"),
    "frames": QT_TRANSLATE_NOOP("Choices", "Frames per second (speech)"),
    "audio_samples": QT_TRANSLATE_NOOP("Choices", "Audio samples per second"),
    # Batch kept when adding GPUs
    "per_gpu": QT_TRANSLATE_NOOP("Choices", "Per GPU (global batch grows)"),
    "global": QT_TRANSLATE_NOOP("Choices", "Global (per-GPU batch shrinks)"),
    # Input sizes
    "fixed": QT_TRANSLATE_NOOP("Choices", "Fixed (crops, volumes, packed)"),
    "variable": QT_TRANSLATE_NOOP("Choices", "Variable (sizes, lengths differ)"),
    # GAN / RL sub-networks
    "together": QT_TRANSLATE_NOOP("Choices", "Together on every GPU"),
    "take_turns": QT_TRANSLATE_NOOP("Choices", "Take turns (GPUs wait)"),
    # Input pipeline
    "starved": QT_TRANSLATE_NOOP("Choices", "Starved (single-threaded reading)"),
    "typical": QT_TRANSLATE_NOOP("Choices", "Typical (default data loader)"),
    "tuned": QT_TRANSLATE_NOOP("Choices", "Tuned (workers, fast storage, prefetch)"),
    # Storage
    "hdd": QT_TRANSLATE_NOOP("Choices", "Hard disk"),
    "sata_ssd": QT_TRANSLATE_NOOP("Choices", "SATA SSD"),
    "nvme": QT_TRANSLATE_NOOP("Choices", "NVMe SSD"),
    "network": QT_TRANSLATE_NOOP("Choices", "Network storage"),
    "ram": QT_TRANSLATE_NOOP("Choices", "In memory (RAM)"),
    # Parallelism
    "data": QT_TRANSLATE_NOOP("Choices", "Data parallel"),
    "zero1": QT_TRANSLATE_NOOP("Choices", "ZeRO stage 1"),
    "zero2": QT_TRANSLATE_NOOP("Choices", "ZeRO stage 2"),
    "zero3": QT_TRANSLATE_NOOP("Choices", "ZeRO stage 3"),
    "fsdp": QT_TRANSLATE_NOOP("Choices", "FSDP"),
    "hsdp": QT_TRANSLATE_NOOP("Choices", "FSDP hybrid shard (sharded inside a machine)"),
    "tensor": QT_TRANSLATE_NOOP("Choices", "Tensor (model) parallel"),
    "pipeline": QT_TRANSLATE_NOOP("Choices", "Pipeline parallel"),
    # Activation checkpointing
    "selective": QT_TRANSLATE_NOOP("Choices", "Selective (attention scores recomputed)"),
    "full": QT_TRANSLATE_NOOP("Choices", "Full (every layer recomputed)"),
    # Fine-tuning method, optimizer, offload (issue 17)
    "lora": QT_TRANSLATE_NOOP("Choices", "LoRA (16-bit frozen weights, adapters trained)"),
    "qlora": QT_TRANSLATE_NOOP("Choices", "QLoRA (4-bit frozen weights, adapters trained)"),
    "sgd": QT_TRANSLATE_NOOP("Choices", "SGD with momentum (SGD-like)"),
    "adamw": QT_TRANSLATE_NOOP("Choices", "AdamW (Adam-family)"),
    "adamw_8bit": QT_TRANSLATE_NOOP("Choices", "8-bit AdamW (Adam-family)"),
    "optimizer": QT_TRANSLATE_NOOP("Choices", "Optimizer states and gradients (ZeRO-Offload)"),
    "parameters": QT_TRANSLATE_NOOP("Choices", "Optimizer states, gradients and weights"),
    # Links
    "pcie3": QT_TRANSLATE_NOOP("Choices", "PCIe 3.0"),
    "pcie4": QT_TRANSLATE_NOOP("Choices", "PCIe 4.0"),
    "pcie5": QT_TRANSLATE_NOOP("Choices", "PCIe 5.0"),
    "nvlink_bridge": QT_TRANSLATE_NOOP("Choices", "NVLink bridge (pairs)"),
    "nvlink": QT_TRANSLATE_NOOP("Choices", "NVLink"),
    "nvswitch": QT_TRANSLATE_NOOP("Choices", "NVSwitch (NVLink all-to-all)"),
    "none": QT_TRANSLATE_NOOP("Choices", "None"),
    "ethernet_10g": QT_TRANSLATE_NOOP("Choices", "10 Gb Ethernet"),
    "ethernet_25g": QT_TRANSLATE_NOOP("Choices", "25 Gb Ethernet"),
    "ethernet_100g": QT_TRANSLATE_NOOP("Choices", "100 Gb Ethernet"),
    "roce": QT_TRANSLATE_NOOP("Choices", "RoCE 100 Gb/s"),
    "roce_400g": QT_TRANSLATE_NOOP("Choices", "RoCE 400 Gb/s"),
    "infiniband_edr": QT_TRANSLATE_NOOP("Choices", "InfiniBand EDR"),
    "infiniband_hdr": QT_TRANSLATE_NOOP("Choices", "InfiniBand HDR"),
    "infiniband_ndr": QT_TRANSLATE_NOOP("Choices", "InfiniBand NDR"),
    # Virtualisation
    "bare_metal": QT_TRANSLATE_NOOP("Choices", "Bare metal"),
    "passthrough": QT_TRANSLATE_NOOP("Choices", "Full pass-through"),
    "vgpu": QT_TRANSLATE_NOOP("Choices", "NVIDIA vGPU (shared cards)"),
    "unknown": QT_TRANSLATE_NOOP("Choices", "Unknown"),
    # GPU generation (a custom card's architecture)
    "turing": QT_TRANSLATE_NOOP("Choices", "Turing (RTX 20, T4)"),
    "volta": QT_TRANSLATE_NOOP("Choices", "Volta (V100)"),
    "ampere": QT_TRANSLATE_NOOP("Choices", "Ampere (A100, RTX 30, A10)"),
    "ada": QT_TRANSLATE_NOOP("Choices", "Ada (RTX 40, L4, L40)"),
    "hopper": QT_TRANSLATE_NOOP("Choices", "Hopper (H100, H200, H20)"),
    "blackwell": QT_TRANSLATE_NOOP("Choices", "Blackwell (B200, RTX 50)"),
    # Cooling
    "open_air": QT_TRANSLATE_NOOP("Choices", "Open-air (gaming coolers)"),
    "blower": QT_TRANSLATE_NOOP("Choices", "Blower (turbo cards)"),
    "server": QT_TRANSLATE_NOOP("Choices", "Server chassis"),
    "liquid": QT_TRANSLATE_NOOP("Choices", "Liquid cooling"),
    # Economics
    "own": QT_TRANSLATE_NOOP("Choices", "Own hardware"),
    "cloud": QT_TRANSLATE_NOOP("Choices", "Cloud rental"),
    "compare": QT_TRANSLATE_NOOP("Choices", "Compare both"),
    "CNY": QT_TRANSLATE_NOOP("Choices", "CNY (¥)"),
    "USD": QT_TRANSLATE_NOOP("Choices", "USD ($)"),
    "EUR": QT_TRANSLATE_NOOP("Choices", "EUR (€)"),
    # Market
    "CN": QT_TRANSLATE_NOOP("Choices", "China (CN)"),
    "US": QT_TRANSLATE_NOOP("Choices", "United States (US)"),
    "EU": QT_TRANSLATE_NOOP("Choices", "European Union (EU)"),
    "deadline": QT_TRANSLATE_NOOP("Choices", "Research with a deadline"),
    "revenue": QT_TRANSLATE_NOOP("Choices", "Product: a day earns revenue"),
}

# Enums share "none" with different meanings: no link, no time value, no recomputation.
_TIME_VALUE_NONE = QT_TRANSLATE_NOOP("Choices", "Learning: time has no money value")
_CHECKPOINTING_NONE = QT_TRANSLATE_NOOP("Choices", "Off (every activation kept)")
# ... and "full" / "none" of the fine-tuning method and the offload
_METHOD_FULL = QT_TRANSLATE_NOOP("Choices", "Full (every weight trained)")
_OFFLOAD_NONE = QT_TRANSLATE_NOOP("Choices", "Off (every state on the GPU)")
# economics.time_value left empty: the rating then follows the article's table (rules/README.md)
_TIME_VALUE_UNSAID = QT_TRANSLATE_NOOP("Choices", "Not said yet (the article's table rates it)")
UNSET = QT_TRANSLATE_NOOP("Choices", "— not set —")
MARKETS_CURRENCY = QT_TRANSLATE_NOOP("Choices", "The market's currency")
# The market's "Automatic" entry names the market that applies (review D7.6: it named this
# computer's market while the currency chosen decided another)
AUTO_FROM_CURRENCY = Text(en="Automatic: {market}, from the currency",
                          zh="自动：{market}，按货币")
AUTO_FROM_COMPUTER = Text(en="Automatic: {market}, from this computer's settings",
                          zh="自动：{market}，按本机区域设置")


def automatic_market(currency: str | None) -> str:
    """The market a profile with no market of its own is costed in, given the currency
    answered (None: not said): the advisor's own choice (``advisor.profile.market
    .profile_market``, which ``advisor.costs.inputs.choose_market`` asks), not a copy of it."""
    from types import SimpleNamespace

    from advisor.profile.enums import Currency
    from advisor.profile.market import profile_market

    try:
        money = Currency(currency) if currency is not None else None
    except ValueError:  # not a currency the advisor knows: as if not said
        money = None
    return profile_market(SimpleNamespace(market=None, currency=money)).value


def automatic_market_label(currency: str | None, lang: str) -> str:
    """"Automatic: China (CN), from the currency" / "…, from this computer's settings"."""
    name = choice_label("market", automatic_market(currency), lang)
    which = AUTO_FROM_CURRENCY if _is_currency(currency) else AUTO_FROM_COMPUTER
    return which.get(lang).format(market=name)


def _is_currency(currency: str | None) -> bool:
    from advisor.profile.enums import Currency

    return currency is not None and currency in Currency._value2member_map_


def choice_label(field: str, value: str | None, lang: str, *,
                 currency: str | None = None) -> str:
    """A choice's words; ``currency``: the currency answered, which the market's Automatic
    entry follows."""
    if value is None:
        if field == "time_value":
            return tr_lang(lang, "Choices", _TIME_VALUE_UNSAID)
        if field == "currency":
            return tr_lang(lang, "Choices", MARKETS_CURRENCY)
        if field == "market":  # shown: which market applies (changeable here)
            return automatic_market_label(currency, lang)
        return tr_lang(lang, "Choices", UNSET)
    if field == "time_value" and value == "none":
        return tr_lang(lang, "Choices", _TIME_VALUE_NONE)
    if field == "activation_checkpointing" and value == "none":
        return tr_lang(lang, "Choices", _CHECKPOINTING_NONE)
    if field == "method" and value == "full":
        return tr_lang(lang, "Choices", _METHOD_FULL)
    if field == "offload" and value == "none":
        return tr_lang(lang, "Choices", _OFFLOAD_NONE)
    source = CHOICE_LABELS.get(value)
    return tr_lang(lang, "Choices", source) if source else value
