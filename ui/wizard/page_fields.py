"""Which answers each wizard page asks for, grouped in sections and columns.

Data only: adding an input to the wizard is one path here (its widget, label, unit, help and
limits come from the profile model through ``ui.forms.field_spec``)."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QT_TRANSLATE_NOOP


@dataclass(frozen=True)
class Section:
    title: str  # English source; context "Pages"
    fields: tuple[str, ...]
    column: int = 0
    # shown only while the GPU is the user's own (the GPU field's "Custom GPU…")
    custom_gpu_only: bool = False


# A diffusion model's answers (issue 32): shown while the task is diffusion, so the pages of
# the other tasks stay as they are (``TASK_FIELDS``).
DIFFUSION_MODEL_FIELDS = ("model.denoiser", "model.flops_resolution",
                          "model.latent_downsampling", "model.text_encoder_params_millions",
                          "model.vae_params_millions")
DIFFUSION_TRAINING_FIELDS = ("training.resolution", "training.frozen_encoders", "training.ema")
# field path -> the tasks it is shown for (every other field is shown for every task)
TASK_FIELDS: dict[str, tuple[str, ...]] = {
    **{path: ("diffusion",) for path in DIFFUSION_MODEL_FIELDS + DIFFUSION_TRAINING_FIELDS},
    "training.loss": ("llm", "nlp")}  # the language models' loss (advisor/profile/model.py)

CUSTOM_GPU_FIELDS = ("hardware.gpu.name", "hardware.gpu.memory_gb", "hardware.gpu.tflops_fp16",
                     "hardware.gpu.tflops_fp32", "hardware.gpu.generation",
                     "hardware.gpu.memory_bandwidth_gbs", "hardware.gpu.tdp_w",
                     "hardware.gpu.pcie_gen", "hardware.gpu.price_usd")


@dataclass(frozen=True)
class PageDef:
    key: str
    title: str
    intro: str
    sections: tuple[Section, ...]

    @property
    def fields(self) -> tuple[str, ...]:
        return tuple(f for section in self.sections for f in section.fields)


PAGES: tuple[PageDef, ...] = (
    PageDef("model", QT_TRANSLATE_NOOP("Pages", "Task and model"),
            QT_TRANSLATE_NOOP("Pages", "What you train. Pick a preset or type the numbers; "
                              "empty fields are estimated."),
            (Section(QT_TRANSLATE_NOOP("Pages", "Model"),
                     ("task", "model.id", "model.name", "model.params_millions",
                      "model.flops_per_sample_gflops", *DIFFUSION_MODEL_FIELDS,
                      "model.layers", "model.hidden_size",
                      "model.attention_heads", "model.kv_heads", "model.sequence_length",
                      "model.vocab_size")),
             Section(QT_TRANSLATE_NOOP("Pages", "How it trains"),
                     ("training.precision", "training.pure_16bit", "training.batch_per_gpu", "training.global_batch",
                      "training.parallelism", "training.tensor_parallel",
                      "training.pipeline_parallel", "training.pipeline_interleave",
                      "training.gradient_dtype", "training.micro_batches",
                      "training.gradient_accumulation_steps", "training.keep_batch",
                      "training.activation_checkpointing", "training.input_sizes",
                      "training.sub_networks"), column=1),
             # a column of its own: the model section holds a catalog model's id and the
             # key/value heads too (issue 32), and two columns no longer fit 1400 x 900
             Section(QT_TRANSLATE_NOOP("Pages", "Fine-tuning, optimizer and offload"),
                     ("training.fine_tuning", "training.method", "training.lora_rank",
                      "training.lora_target_share", "training.optimizer",
                      "training.loss", "training.offload", *DIFFUSION_TRAINING_FIELDS),
                     column=2),
             # a catalog mixture of experts fills these (issue 32); empty for a dense model
             Section(QT_TRANSLATE_NOOP("Pages", "Mixture of experts"),
                     ("model.experts", "model.experts_per_token", "model.active_params_millions",
                      "model.shared_experts", "model.moe_intermediate_size",
                      "model.dense_layers"), column=2))),
    PageDef("habits", QT_TRANSLATE_NOOP("Pages", "Training habits and the value of time"),
            QT_TRANSLATE_NOOP("Pages", "How long one run takes on one GPU (or how much data it "
                              "reads: a large model is then planned from its FLOPs), how often "
                              "you run it, and what a day saved is worth to you (F02, F12)."),
            (Section(QT_TRANSLATE_NOOP("Pages", "One run"),
                     ("training.single_gpu_hours", "training.single_gpu_throughput",
                      "training.throughput_unit", "training.audio_samples_per_sample",
                      "training.dataset_samples", "training.dataset_tokens", "training.epochs")),
             Section(QT_TRANSLATE_NOOP("Pages", "How often"),
                     ("training.runs_per_month", "training.horizon_months",
                      "economics.reservation_term_months")),
             Section(QT_TRANSLATE_NOOP("Pages", "Value of time"),
                     ("economics.time_value", "economics.value_per_day",
                      "economics.deadline_days", "economics.monthly_budget",
                      "economics.engineer_day_rate",
                      "economics.moved_to_multi_gpu_before"), column=1))),
    PageDef("hardware", QT_TRANSLATE_NOOP("Pages", "Hardware and deployment"),
            QT_TRANSLATE_NOOP("Pages", "The GPUs, how they are connected, and whether you "
                              "own them or rent them (F22–F25, F27, F29, F31)."),
            (Section(QT_TRANSLATE_NOOP("Pages", "GPUs and links"),
                     ("hardware.gpu", "hardware.gpus_per_node", "hardware.nodes",
                      "hardware.intra_link", "hardware.inter_link",
                      "hardware.allreduce_busbw_gbs")),
             Section(QT_TRANSLATE_NOOP("Pages", "Your own GPU"), CUSTOM_GPU_FIELDS,
                     custom_gpu_only=True),
             # the right column holds the rest, so neither runs under the live preview at
             # 1400 x 900, the own card's fields open included
             Section(QT_TRANSLATE_NOOP("Pages", "Own or cloud, and prices"),
                     ("economics.mode", "economics.market", "economics.currency",
                      "economics.gpu_price", "economics.owned_gpus",
                      "economics.base_system_price",
                      "economics.purchase_tax_rate", "economics.cloud_price_per_gpu_hour",
                      "economics.electricity_per_kwh", "economics.pue"), column=1),
             Section(QT_TRANSLATE_NOOP("Pages", "Virtualisation, cooling and host memory"),
                     ("hardware.virtualization", "hardware.vgpus_per_physical_gpu",
                      "hardware.cooling", "hardware.max_gpu_temp_c",
                      "hardware.host_memory_gb"), column=1))),
    PageDef("pipeline", QT_TRANSLATE_NOOP("Pages", "Input pipeline"),
            QT_TRANSLATE_NOOP("Pages", "How the data reaches the GPUs. With single-threaded "
                              "reading, four GPUs mostly wait (F28); the data loader usually "
                              "needs 2–4 workers per GPU (F13)."),
            (Section(QT_TRANSLATE_NOOP("Pages", "Data loading"),
                     ("training.input_pipeline", "training.dataloader_workers",
                      "training.cpu_cores", "training.storage")),)),
)

RESULTS_TITLE = QT_TRANSLATE_NOOP("Pages", "Results")
COMPARE_TITLE = QT_TRANSLATE_NOOP("Pages", "Compare setups")
DIAGNOSIS_TITLE = QT_TRANSLATE_NOOP("Pages", "Check a measured run")
