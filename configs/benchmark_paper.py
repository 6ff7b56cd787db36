"""The benchmark at the paper's scale: ERM and its thirteen mitigations on its seven data sets, as
its Section 4 and Appendix B.4 describe them. `configs/benchmark_paper.py:DATASET` for one data
set (celeba, utkface, fairface, facet, ham10000, fitz17k, waterbirds), or `:all` (the default)
for the seven in one workdir, which the report's Friedman / Nemenyi tests and Table 2 need:

    python -m nhfair_jax.benchmark --config configs/benchmark_paper.py:celeba \
        --workdir runs/paper_celeba --config.datasets.celeba.overrides.data.root=data/celeba

Each data set trains from configs/dataset.py:DATASET (an ImageNet-pretrained ResNet-18 at
224 px, batch 256, up to 100 epochs with early stopping after 10 without improvement; put the
data where data/README.md says and the torchvision weights at weights/resnet18.pth). The search
spaces are every method's record (the paper's Table 7: learning rate log-uniform on
[1e-5, 1e-2], weight decay in {0, 1e-5, 1e-4, 1e-3, 1e-2}, Adam or SGD, and the method's own);
the sweep minimises validation loss, as the paper's code does. Trials: the paper spent "100-200
searches per method-dataset pair" without saying which pair got which; here 100 per pair and
200 for ERM, the baseline every method is selected against. Five seeds re-run every selected
configuration. OxonFair is skipped on FairFace, which the paper leaves without an OxonFair row
(its target has seven classes). A GPU (or several machines sharing a --storage database) is
what this needs: the paper spent about 1.1 GPU years.
"""

import ml_collections

PAPER_DATASETS = ("celeba", "utkface", "fairface", "facet", "ham10000", "fitz17k",
                  "waterbirds")
# Table 2's columns, in its order
METHODS = ("erm", "randaug", "mixup", "resampling", "bias_mimicking", "fis", "decoupled",
           "laftr", "fscl", "gapreg", "mcdp", "groupdro", "dfr", "oxonfair")
SKIP = {"fairface": ("oxonfair",)}  # no OxonFair on a multi-class target (the paper's "–")
# configs/dataset.py's default folders, here so that --config.datasets.X.overrides.data.root
# can point elsewhere
ROOTS = {"celeba": "data/celeba", "utkface": "data/utkface", "fairface": "data/fairface",
         "facet": "data/facet", "ham10000": "data/ham10000", "fitz17k": "data/fitzpatrick17k",
         "waterbirds": "data/waterbirds"}


def get_config(arg: str = "all"):
    names = PAPER_DATASETS if arg == "all" else (arg,)
    unknown = [n for n in names if n not in PAPER_DATASETS]
    if unknown:
        from nhfair_jax.errors import UnknownName

        raise UnknownName("data set", unknown[0], [*PAPER_DATASETS, "all"])
    c = ml_collections.ConfigDict()
    c.datasets = ml_collections.ConfigDict({
        name: {"config": f"configs/dataset.py:{name}",
               "overrides": {"data": {"root": ROOTS[name]}},
               "skip_methods": SKIP.get(name, ())} for name in names})
    c.methods = METHODS
    c.trials = 100  # finished trials per (data set, method)
    c.trials_per_method = ml_collections.ConfigDict({"erm": 200})
    c.startup_trials = 10  # random trials before TPE models the space
    c.seeds = (0, 1, 2, 3, 4)
    # Each run re-splits the data with its training seed, as the benchmark paper's code does
    # (its text is silent); "fixed": every run keeps the data config's data.split_seed.
    c.splits = "per_seed"
    c.objective = "loss"  # the paper's code: its sweeps minimise "Validation loss"
    c.sampler_seed = 0
    c.overrides = ml_collections.ConfigDict({"train": {"progress": False}})
    c.heartbeat_s = 60
    c.grace_s = 600
    c.progress = True
    c.report_percent = True  # the paper's tables are in percent
    return c
