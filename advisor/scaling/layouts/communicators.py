"""GPU memory NCCL takes for the process groups a layout talks over (outside PyTorch's
allocator: ``torch.cuda.max_memory_allocated`` never shows it; ``nvidia-smi`` does).

Every communicator a GPU uses allocates its channels' FIFO buffers when it first runs a
collective, and "more communicators = more memory used ... linearly tied to the number of
channels" (NCCL's maintainer, NVIDIA/nccl issue 864 and 986); NCCL opens more channels to
reach a faster link. Measured: a communicator of 4 A100s on NVLink takes 688 MB once it has
more than two GPUs (NVIDIA/nccl issue 964); 8 x H100 in one machine hold 1.06 GB before
their first all-to-all, and the all-to-all then connects every pair of GPUs over 32
channels: 3.28 GB more for 7 peers, 0.47 GB a peer (NVIDIA/nccl issue 1685). So here:

* each group of more than one GPU the layout forms costs ``COMMUNICATOR_GB`` at the A100's
  NVLink bus bandwidth, in proportion to the machine's bus bandwidth (its channels), never
  more than at the H100's (NCCL's 32 channels): 0.69 GB on A100 NVLink, 1.04 GB on H100,
  under 0.05 GB on PCIe; the groups: tensor, pipeline, data-parallel (or, hybrid sharded,
  its shard and its replicate group), context and, for a mixture of experts, expert and
  expert-data-parallel;
* an expert-parallel all-to-all adds ``ALL_TO_ALL_PEER_GB`` (in the same proportion) for
  each other rank of its group inside the same machine (ranks in other machines go through
  the network's shared buffers, which this leaves out); expert ranks sit ``tp x cp`` GPUs
  apart (Megatron-Core's order: tensor, context, expert, data, pipeline).

These decide the published out-of-memory of Llama3-8x70B trained with TP + EP + DP on 256
H100s (Liu et al. 2025, Table 1): 78.7 GB of states, buffers and activations per GPU fit
the 81 GB a job may fill; with the four groups' 4.1 GB they do not.
"""

from __future__ import annotations

import numpy as np

from advisor.scaling.layouts.layout import HSDP, Candidates

COMMUNICATOR_GB = 0.688  # one communicator of > 2 A100s on NVLink (NVIDIA/nccl issue 964)
REFERENCE_BUSBW_GBS = 234.0  # the A100's NVSwitch bus bandwidth (links' figure) it was read at
CAP_BUSBW_GBS = 351.0  # H100's NVSwitch: NCCL's 32 channels, the most it opens
ALL_TO_ALL_PEER_GB = 3.28 / 7.0  # H100, 32 channels per pair (NVIDIA/nccl issue 1685)


def channel_share(busbw_intra_gbs: float) -> float:
    """The machine's channels against the A100 NVLink the figures were read at."""
    return min(max(busbw_intra_gbs, 0.0), CAP_BUSBW_GBS) / REFERENCE_BUSBW_GBS


def communicator_bytes(c: Candidates, gpus_per_node: int, busbw_intra_gbs: float
                       ) -> np.ndarray:
    """Bytes per GPU of NCCL's buffers for every candidate's process groups."""
    share = channel_share(busbw_intra_gbs)
    replicas = c.dp * c.cp
    hybrid = (c.sharding == HSDP) & (replicas > 1)
    local = np.maximum(gpus_per_node // np.maximum(c.tp * c.pp, 1), 1)
    hybrid_groups = (np.minimum(c.dp, local) > 1).astype(int) \
        + (c.dp > np.minimum(c.dp, local)).astype(int)
    data_groups = np.where(hybrid, hybrid_groups, (c.dp > 1).astype(int))
    expert = c.ep > 1
    groups = ((c.tp > 1).astype(int) + (c.pp > 1) + data_groups + (c.cp > 1) + expert
              + (expert & (c.dp > c.ep)))
    stride = np.maximum(c.tp * c.cp, 1)
    peers = np.where(expert, np.minimum(c.ep, np.maximum(gpus_per_node // stride, 1)) - 1, 0)
    gb = share * (COMMUNICATOR_GB * groups + ALL_TO_ALL_PEER_GB * peers)
    return gb * 1e9


__all__ = ["ALL_TO_ALL_PEER_GB", "COMMUNICATOR_GB", "communicator_bytes"]
