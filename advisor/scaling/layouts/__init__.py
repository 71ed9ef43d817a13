"""Large-model layouts: how one transformer is split over N GPUs, what each GPU holds, what
it sends, and how long a step takes (# F05, # F06, # F24).

A layout is tensor parallel (TP, inside one machine) x pipeline parallel (PP) x data
parallel (DP), the data-parallel replicas optionally sharding their states (ZeRO-1/2/3, FSDP
full or hybrid shard). ``shape`` describes the model, ``cluster`` the machines, ``memory``
the bytes one GPU holds per layout, ``traffic`` the collectives each layout runs, ``step`` the
step time, ``search`` the layouts tried for one GPU count and the one kept, ``engine`` the
projection of a profile over several counts. Everything is vectorised over candidate layouts
(numpy arrays), so thousands of layouts cost a few milliseconds.

Sources: Narayanan et al. 2021 (FLOPs, pipeline bubble, PTD-P), Korthikanti et al. 2022
(activation memory, selective recomputation), Rajbhandari et al. 2019 (ZeRO state bytes and
traffic), Zhao et al. 2023 (PyTorch FSDP: flat parameters, prefetch, hybrid shard).
"""
