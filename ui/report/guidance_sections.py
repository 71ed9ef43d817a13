"""What to watch out for and how to set the job up: pitfalls with remedies, set-up advice."""

from __future__ import annotations

from advisor.profile import KeepBatch, Profile
from advisor.scaling.optimizer_family import optimizer_family
from advisor.verdict.facts import data_parallel_degree, lr_factor
from advisor.verdict.result import Recommendation
from advisor.verdict.setup_text import HEADING, setup_line
from ui.report import labels as L
from ui.report.formatting import colon, esc, table

# F13: the data loader needs 2–4 workers per GPU once the job runs on several GPUs.
WORKERS_PER_GPU = (2, 4)


def sources(ids: list[str], lang: str) -> str:
    if not ids:
        return ""
    return f'<span class="muted">{esc(L.SOURCES.get(lang))}{colon(lang)}{esc(", ".join(ids))}</span>'


def pitfalls_html(rec: Recommendation, lang: str) -> str:
    # after the break-even on its page: what to watch out for is read with the money
    parts = [f'<h2>{esc(L.H_PITFALLS.get(lang))}</h2>']
    if not rec.pitfalls:
        parts.append(f"<p>{esc(L.NO_PITFALLS.get(lang))}</p>")
    for pitfall in sorted(rec.pitfalls, key=lambda p: L.SEVERITY_ORDER[p.severity]):
        colour = L.SEVERITY_COLOUR[pitfall.severity]
        parts.append(
            f'<h3><span style="color: {colour}">[{esc(L.SEVERITY[pitfall.severity].get(lang))}]'
            f"</span> {esc(pitfall.title.get(lang))}</h3>"
            f"<p>{esc(pitfall.detail.get(lang))}</p>"
            f"<p><b>{esc(L.REMEDY.get(lang))}{colon(lang)}</b>{esc(pitfall.remedy.get(lang))}</p>"
            f"<p>{sources(pitfall.sources, lang)} "
            f'<span class="code">{esc(pitfall.id)}</span></p>')
    return "".join(parts)


def setups_html(rec: Recommendation, lang: str) -> str:
    """The setups that fit before more machines (issue 17), in the verdict's order."""
    if not rec.setups:
        return ""
    items = "".join(f"<li>{esc(setup_line(o, lang))}</li>" for o in rec.setups)
    return f"<h3>{esc(HEADING.get(lang))}</h3><ol>{items}</ol>"


def workers_text(rec: Recommendation, profile: Profile, lang: str) -> str:
    n = rec.verdict.gpus
    low, high = (n * k for k in WORKERS_PER_GPU)
    text = L.WORKERS_ADVICE.get(lang).format(low=low, high=high, gpus=L.gpus(n, lang))
    if profile.training.dataloader_workers is not None:
        text += " " + L.WORKERS_NOW.get(lang).format(now=profile.training.dataloader_workers)
    return text


def data_parallel_replicas(rec: Recommendation, profile: Profile) -> int:
    """Model replicas that split each batch at the verdict's count, by the rules' own measure
    (the fact verdict_data_parallel): a tensor-parallel or hybrid group is one replica, a
    pipeline one replica in all. The split is the projection's at that count, or the verdict's
    when the count lies beyond the projection."""
    v, proj = rec.verdict, rec.projection
    if v.gpus in proj.gpus and proj.data_parallel:  # a large model's layout names its replicas
        return proj.data_parallel[proj.gpus.index(v.gpus)]
    split = proj.parallelism[proj.gpus.index(v.gpus)] if v.gpus in proj.gpus else v.parallelism
    return data_parallel_degree(split, v.gpus, profile.hardware.gpus_per_node)


def learning_rate_text(rec: Recommendation, profile: Profile, lang: str) -> str:
    """F14's linear scaling rule for SGD-like training: the learning rate grows with the
    global batch, that is with the data-parallel replicas (not the GPU count), as the rules'
    pitfall and advice say; Adam-family optimizers at most by its square root."""
    n = rec.verdict.gpus
    # one optimizer step's samples on one replica (accumulation multiplies it, F14)
    batch = profile.training.batch_per_gpu * profile.training.gradient_accumulation_steps
    if n == 1:
        return L.LR_ONE_GPU.get(lang).format(batch=batch)
    tr = profile.training
    if tr.global_batch is not None or tr.keep_batch == KeepBatch.global_:
        return L.LR_GLOBAL_HELD.get(lang).format(gpus=L.gpus(n, lang),
                                                 batch=tr.global_batch or batch)
    replicas = data_parallel_replicas(rec, profile)
    if replicas == 1:
        return L.LR_ONE_REPLICA.get(lang).format(gpus=L.gpus(n, lang), batch=batch)
    family = optimizer_family(profile)
    if family == "adam":
        return L.LR_ADVICE_ADAM.get(lang).format(
            batch=batch, global_batch=batch * replicas, replicas=replicas,
            factor=lr_factor(family, replicas))
    return L.LR_ADVICE.get(lang).format(batch=batch, global_batch=batch * replicas,
                                        factor=replicas)


# the report's own rows, and the rule advice topic that says the same (said once: the rule's)
_OWN_ROWS = (("data_loader", "workers"), ("learning_rate", "learning_rate"))


def advice_html(rec: Recommendation, profile: Profile, lang: str) -> str:
    """What to do to set it up: the rules' advice, and the data-loader and learning-rate
    figures where no rule gave them. The split, framework, deployment and link are on the
    first page; a one-GPU verdict has nothing to set up beyond the rules' advice."""
    v = rec.verdict
    topics = {a.id for a in rec.advice}
    own = {"workers": [L.WORKERS_L.get(lang), workers_text(rec, profile, lang), "F13"],
           "learning_rate": [L.LR_L.get(lang), learning_rate_text(rec, profile, lang), "F14"]}
    rows = [own[key] for topic, key in _OWN_ROWS if topic not in topics] if v.gpus > 1 else []
    if not rows and not rec.advice:
        return ""
    header = [esc(L.TOPIC_H.get(lang)), esc(L.ADVICE_H.get(lang)), esc(L.SOURCES.get(lang))]
    parts = [f'<h2>{esc(L.H_ADVICE.get(lang))}</h2>']
    if rec.advice:
        items = "".join(f"<li>{esc(a.text.get(lang))} {sources(a.sources, lang)}</li>"
                        for a in rec.advice)
        parts.append(f"<ul>{items}</ul>")
    if rows:
        parts.append(table(header, [[esc(cell) for cell in row] for row in rows],
                           numeric_from=99))
    return "".join(parts)
