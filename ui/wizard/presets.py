"""Presets for common models: size, shape and the usual way they are trained.

Parameter counts and shapes are the published ones (model cards / papers); training FLOPs per
sample are forward + backward ≈ 3 × forward, left empty where the sequence length decides."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ModelPreset:
    name: str
    task: str
    params_millions: float
    layers: int | None = None
    hidden_size: int | None = None
    sequence_length: int | None = None
    flops_per_sample_gflops: float | None = None
    batch_per_gpu: int = 32
    precision: str = "amp"

    def answers(self) -> dict[str, Any]:
        """The answers this preset sets (unknown shape fields are cleared, not kept)."""
        return {
            "task": self.task,
            "model.name": self.name,
            "model.params_millions": self.params_millions,
            "model.layers": self.layers,
            "model.hidden_size": self.hidden_size,
            "model.sequence_length": self.sequence_length,
            "model.flops_per_sample_gflops": self.flops_per_sample_gflops,
            "training.batch_per_gpu": self.batch_per_gpu,
            "training.precision": self.precision,
        }


MODEL_PRESETS: tuple[ModelPreset, ...] = (
    ModelPreset("ResNet-18", "image_classification", 11.7, flops_per_sample_gflops=5.5,
                batch_per_gpu=256),
    ModelPreset("ResNet-50", "image_classification", 25.6, flops_per_sample_gflops=12.3,
                batch_per_gpu=128),
    ModelPreset("EfficientNet-B0", "image_classification", 5.3, flops_per_sample_gflops=1.2,
                batch_per_gpu=128),
    ModelPreset("ViT-B/16", "image_classification", 86.6, layers=12, hidden_size=768,
                flops_per_sample_gflops=52.8, batch_per_gpu=64),
    # 3 x the 206 GFLOPs forward pass mmdetection lists at 1280 x 800
    ModelPreset("Faster R-CNN R50-FPN", "object_detection", 41.8, flops_per_sample_gflops=620,
                batch_per_gpu=8),
    ModelPreset("Whisper small", "speech_recognition", 244, layers=24, hidden_size=768,
                batch_per_gpu=16),
    ModelPreset("BERT-base", "nlp", 110, layers=12, hidden_size=768, sequence_length=512,
                batch_per_gpu=32),
    ModelPreset("BERT-large", "nlp", 340, layers=24, hidden_size=1024, sequence_length=512,
                batch_per_gpu=16),
    ModelPreset("GPT-2 (124M)", "nlp", 124, layers=12, hidden_size=768, sequence_length=1024,
                batch_per_gpu=16),
    ModelPreset("GPT-2 XL (1.5B)", "llm", 1558, layers=48, hidden_size=1600,
                sequence_length=1024, batch_per_gpu=4, precision="bf16"),
    ModelPreset("Llama 2 7B", "llm", 6740, layers=32, hidden_size=4096, sequence_length=4096,
                batch_per_gpu=4, precision="bf16"),
    ModelPreset("Llama 2 13B", "llm", 13016, layers=40, hidden_size=5120,
                sequence_length=4096, batch_per_gpu=2, precision="bf16"),
    ModelPreset("Llama 2 70B", "llm", 68977, layers=80, hidden_size=8192,
                sequence_length=4096, batch_per_gpu=1, precision="bf16"),
)


def preset_by_name(name: str) -> ModelPreset:
    for preset in MODEL_PRESETS:
        if preset.name == name:
            return preset
    raise KeyError(name)
