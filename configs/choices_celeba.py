"""The training-choice study at the paper's scale (its Appendix C): around the DTO-selected ERM
of a finished benchmark on the real data sets (ImageNet-pretrained ResNet-18 at 224 px, batch
256), one knob at a time, five seeds. Put the data and the torchvision weights where
data/README.md says, run the benchmark first, then:

    python -m nhfair_jax.study.choices --config configs/choices_celeba.py \
        --config.base_workdir=runs/bench_real --workdir runs/choices_real

Without a benchmark workdir (base_workdir empty) the base is configs/dataset.py:celeba and
configs/dataset.py:utkface with `base_params`. For intersectional groups (the paper's Figure 12
on UTKFace, race x age), set the data set's data.sensitive to two attributes in its overrides.
"""

import ml_collections


def get_config():
    c = ml_collections.ConfigDict()
    c.base_workdir = ""  # a finished benchmark workdir over the real data sets
    c.datasets = ml_collections.ConfigDict({
        "celeba": {"config": "configs/dataset.py:celeba", "overrides": {}},
        "utkface": {"config": "configs/dataset.py:utkface", "overrides": {}}})
    c.overrides = ml_collections.ConfigDict({"train": {"progress": False}})
    c.base_params = ml_collections.ConfigDict({"optim": {"lr": 1e-3, "weight_decay": 1e-4}})
    c.seeds = (0, 1, 2, 3, 4)
    c.choices = ml_collections.ConfigDict({
        "optimizer": {"sgd": (1e-2, 1e-3, 1e-4), "adam": (1e-3, 1e-4, 1e-5),
                      "adamw": (1e-3, 1e-4, 1e-5), "adagrad": (1e-2, 1e-3, 1e-4)},
        "batch_size": (32, 64, 128, 256, 512, 1024),
        "weight_decay": {"none": (), "l1": (1e-5, 1e-4), "l2": (1e-5, 1e-4, 1e-3)},
        "depth": ("resnet18", "resnet34", "resnet50", "resnet101"),
        "pretrained": (True, False),
        "randaugment": (False, True),
    })
    c.methods = ("gapreg", "mcdp", "groupdro")  # Table 22: each without and with RandAugment
    c.method_params = ml_collections.ConfigDict()
    # ImageNet weights per depth (torchvision .pth files), for a pretrained base
    c.pretrained_paths = ml_collections.ConfigDict({
        "resnet18": "weights/resnet18.pth", "resnet34": "weights/resnet34.pth",
        "resnet50": "weights/resnet50.pth", "resnet101": "weights/resnet101.pth"})
    c.report_percent = True
    return c
