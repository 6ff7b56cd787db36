"""The training-choice study at the paper's scale (its Appendix C.1 and Tables 9-13, and
Table 22): around the DTO-selected ERM of each data set, one knob at a time, five seeds.
`configs/choices_paper.py:DATASET` for one of the seven data sets (celeba, utkface, fairface,
facet, ham10000, fitz17k, waterbirds), or `:all` (the default) for the seven, as the tables
have them. Run the paper-scale benchmark first (configs/benchmark_paper.py), then:

    python -m nhfair_jax.study.choices --config configs/choices_paper.py \
        --config.base_workdir=runs/paper --workdir runs/choices_paper

Without a benchmark workdir (base_workdir empty) the base is configs/dataset.py:DATASET with
`base_params`. The knobs: optimizer (Table 9: SGD, Adam, AdamW, Adagrad, each with its own
learning-rate grid), batch size (Table 10: 32 to 1024), weight decay (Table 11: L1, L2, none),
depth (Table 12: ResNet-18 to 101, each from its ImageNet weights), pretrained or from scratch
(Figures 6-7), RandAugment; Table 13 is the spread of Tables 9, 10 and 12. Table 22 runs GapReg,
MCDP and GroupDRO without and with RandAugment on UTKFace and HAM10000 only, as the paper does.
For intersectional groups (the paper's Figure 12 on UTKFace, race x age), set the data set's
data.sensitive to two attributes in its overrides.
"""

import ml_collections

PAPER_DATASETS = ("celeba", "utkface", "fairface", "facet", "ham10000", "fitz17k",
                  "waterbirds")


def get_config(arg: str = "all"):
    names = PAPER_DATASETS if arg == "all" else (arg,)
    unknown = [n for n in names if n not in PAPER_DATASETS]
    if unknown:
        raise ValueError(f"configs/choices_paper.py: unknown data set {unknown[0]!r}; known: "
                         f"{', '.join(PAPER_DATASETS)} or all")
    c = ml_collections.ConfigDict()
    c.base_workdir = ""  # a finished configs/benchmark_paper.py workdir
    c.datasets = ml_collections.ConfigDict({
        name: {"config": f"configs/dataset.py:{name}", "overrides": {}} for name in names})
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
    c.method_datasets = tuple(n for n in ("utkface", "ham10000") if n in names)
    if not c.method_datasets:
        c.methods = ()
    c.method_params = ml_collections.ConfigDict()
    # ImageNet weights per depth (torchvision .pth files), for a pretrained base
    c.pretrained_paths = ml_collections.ConfigDict({
        "resnet18": "weights/resnet18.pth", "resnet34": "weights/resnet34.pth",
        "resnet50": "weights/resnet50.pth", "resnet101": "weights/resnet101.pth"})
    c.report_percent = True
    return c
