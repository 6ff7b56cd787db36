"""The training-choice study on the embedded DigitsB data (skew 0.8): one knob at a time around
ERM with the small CNN (8-16-32) at 32 px, 10-epoch runs, three seeds. Runs alone, no benchmark
needed (base_workdir empty: the base is configs/digitsb.py with `overrides`):

    python -m nhfair_jax.study.choices --config configs/choices_digitsb.py --workdir runs/choices

Set base_workdir to a finished `nhfair_jax.benchmark` workdir (for example runs/bench of
configs/benchmark_digitsb.py) to start from its DTO-selected ERM and reuse its runs:

    python -m nhfair_jax.study.choices --config configs/choices_digitsb.py \
        --config.base_workdir=runs/bench --workdir runs/choices_bench

No pretrained weights exist for the small CNN, so `choices.pretrained` stays empty here.
"""

import ml_collections


def get_config():
    c = ml_collections.ConfigDict()
    c.base_workdir = ""  # a finished benchmark workdir; empty: datasets + base_params below
    c.datasets = ml_collections.ConfigDict({
        "digitsb": {"config": "configs/digitsb.py", "overrides": {}}})
    c.overrides = ml_collections.ConfigDict({  # every run of every data set (as a benchmark's)
        "train": {"epochs": 10, "patience": 10, "progress": False},
        "model": {"cnn_widths": (8, 16, 32)}})
    c.base_params = ml_collections.ConfigDict({"optim": {"lr": 2e-3}})  # on top of the config
    c.seeds = (0, 1, 2)
    c.choices = ml_collections.ConfigDict({
        # optimizer -> its learning-rate grid (DTO on validation picks one, then every seed)
        "optimizer": {"sgd": (0.1, 0.02), "adam": (2e-3, 5e-4), "adamw": (2e-3, 5e-4),
                      "adagrad": (0.05, 0.01)},
        "batch_size": (32, 64, 128, 256),
        # weight-decay type -> its strength grid ("none" is 0)
        "weight_decay": {"none": (), "l1": (1e-5, 1e-4), "l2": (1e-4, 1e-3)},
        "depth": ((8, 16), (8, 16, 32), (8, 16, 32, 64)),  # the small CNN's widths
        "pretrained": (),
        "randaugment": (False, True),
    })
    # Each method with and without RandAugment (Table 22), at the base's common parameters and
    # method_params (or, with base_workdir, at the benchmark's selection of the method).
    c.methods = ("gapreg", "groupdro")
    c.method_params = ml_collections.ConfigDict()
    c.pretrained_paths = ml_collections.ConfigDict()  # model name -> local torchvision .pth
    c.report_percent = False
    return c
