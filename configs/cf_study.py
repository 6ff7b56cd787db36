"""The counterfactual-vs-group fairness study, one table per command:
`configs/cf_study.py:DATASET[,STUDY[,SCALE]]`

    python -m nhfair_jax.study.counterfactual --config configs/cf_study.py:digitsb,alpha \
        --workdir runs/cf_alpha

STUDY (nhfair_jax/study/cf_tables.py): `alpha` (default: Figure 3, Scratch / CP / CKD over
alpha 0.5..0.9, and every claim of the paper tested over paired seeds in claims.json),
`table3` (every method and its +aug / +CP combinations), `table1` (Scratch, Scratch+aug, CP and the individual-fairness methods
SenSeI and LASSI), `teachers` (Table 2; App. 14.2 on real data), `table4` (HKD+CP against CKD),
`rep` (CKD on logits vs features), `mu` (mu sensitivity), `noncurated` (20-60% incomplete
training counterfactuals), `cf_images` (accuracy and DEO on the counterfactual images) and
`sampling` (CP and CKD with and without the group x class balanced sampler of the authors'
published CKD runs).

On the synthetic sets (`digitsb`, `fashion_mnist_b`, `cifar10b`):
- `data.options.roles`: "paper" (default; A the Gaussian noise, G the contrast change, as the
  paper's text) or "code" (the authors' code: A the contrast change, G the Gaussian noise, one
  pattern per seed, exact counts, the code's strengths), e.g.
  `--config.base.data.options.roles=code` on the study's command line;
- `data_per_seed` (True): each run's data set (its split, its A / G draws and its noise) is
  built from the run's seed, as the authors' code rebuilds it for every run, so that the spread
  over seeds includes the data's; False builds it once (split and construction seed 0) and
  varies only training.

DATASET:
- `digitsb`: the embedded DigitsB, a narrow small CNN at 16 px, 8 epochs, four seeds: minutes on
  a 2-core CPU. `digitsb_shared`: the same with one noise pattern in every image of A = 1
  (`data.options.noise_pattern="shared"`), so that the counterfactual edit is one direction, as
  a latent attribute vector (LASSI's) assumes. This is not the authors' construction (their one
  pattern is G's noise, and their A edit, the contrast change, depends on the image): that is
  `data.options.roles="code"`.
- `fashion_mnist_b`: Fashion-MNIST's 70,000 photographs (Debian's dataset-fashion-mnist installs
  its IDX files under /usr/share/datasets/fashion-mnist; any folder of the MNIST family's IDX
  files, or CIFAR-10's python batches, works with --config.base.data.root) built as CIFAR-10B,
  64:16:20. SCALE `cpu` (default) runs the alpha study within an hour on a 2-core CPU: the
  narrow small CNN at 16 px, batch 128, 3 epochs, four seeds, two candidates per
  hyperparameter. The paper's scale differs in the network (a ResNet trained from scratch:
  resnet18 here, the paper's ResNet-56 is not among the models), the resolution (32 px), 50
  epochs, and wider grids: SCALE `paper`.
- `cifar10b`: the CIFAR-10 python release under data/cifar10 at the paper's scale (a GPU).
- `celeba`, `lfw`: the paper's real data (ResNet-18 from scratch as its code, AdamW lr 1e-3, wd
  1e-4, batch 128, 70 / 50 epochs, four seeds; CKD on CelebA's penultimate features). Training
  counterfactuals (validation ones too, for the selection by CD) from nhfair_jax.generate in
  `data.counterfactuals`; the test CD from the CelebA-CF / LFW-CF pairs in `eval.cf_pairs`; on
  CelebA the RFP from hair-length edits of test images in `eval.gflip_pairs`.

Table 1's SenSeI and LASSI rows search the paper's one parameter each (rho, the adversarial
weight) over their registry ranges; on the real data sets LASSI's flow is 4 levels of 8 steps,
128 wide, and every 64th test point is certified with 10,000 samples (the authors' --skip 64,
--enc_n 10000); LASSI is left out on LFW, as the paper leaves it out (too few images for the
flow).

Every grid lies inside the method's search range (CP's lambda and COV's in [1e-2, 1e2], CKD's mu
in [1e-1, 1e3], MFD's in [1e-1, 1e6], LBC's eta in [1e-1, 1e3]); the selection bound is 98% of
Scratch's validation accuracy.
"""

import ml_collections

from nhfair_jax.config import digitsb_config, real_data_config

DATASETS = ("digitsb", "digitsb_shared", "fashion_mnist_b", "cifar10b", "celeba", "lfw")
SYNTHETIC = ("digitsb", "digitsb_shared", "fashion_mnist_b", "cifar10b")
SCALES = ("cpu", "paper")
FASHION_ROOT = "/usr/share/datasets/fashion-mnist"
ALPHAS = (0.5, 0.6, 0.7, 0.8, 0.9)
SMALL_GRIDS = {"cp.lam": (1.0, 10.0), "ckd.mu": (1.0, 10.0), "ckd.lam": (1.0,),
               "cf_lambda": (1.0, 10.0), "cov.lam": (1.0, 10.0), "mfd.lam": (10.0, 1000.0),
               "lbc.eta": (1.0, 10.0), "hkd_cp.mu": (1.0, 10.0), "hkd_cp.lam": (1.0,)}
PAPER_GRIDS = {"cp.lam": (0.1, 1.0, 10.0, 100.0), "ckd.mu": (1.0, 10.0, 100.0, 1000.0),
               "ckd.lam": (1.0, 10.0, 100.0), "cf_lambda": (0.1, 1.0, 10.0, 100.0),
               "cov.lam": (0.1, 1.0, 10.0, 100.0), "mfd.lam": (1.0, 100.0, 1e4, 1e6),
               "lbc.eta": (0.1, 10.0, 1000.0), "hkd_cp.mu": (0.1, 1.0, 10.0, 100.0),
               "hkd_cp.lam": (1.0, 10.0, 100.0)}


def _small_cnn(c, image_size, epochs, batch):
    c.data.image_size = image_size
    c.model.cnn_widths = (8, 16, 32)
    c.train.epochs = c.train.patience = epochs
    c.train.batch_size = batch
    c.train.eval_batch_size = 512 if batch > 64 else 64
    c.train.progress = False
    return c


def _paper_synthetic(name, root):
    c = real_data_config(name, root, utility="acc")
    c.data.image_size = 32
    c.data.mean = c.data.std = (0.5, 0.5, 0.5)
    c.model.pretrained_path = ""  # trained from scratch, as the paper's CIFAR-10B models
    c.optim.name, c.optim.lr, c.optim.weight_decay = "adam", 1e-3, 0.0
    c.train.batch_size, c.train.eval_batch_size = 128, 256
    c.train.epochs = c.train.patience = 50  # a fixed 50 epochs; the best epoch is kept
    c.train.progress = False
    return c


def _real(name):
    celeba = name == "celeba"
    root = "data/celeba" if celeba else "data/lfw/manifest.csv"
    c = real_data_config("celeba" if celeba else "csv", root, utility="acc")
    c.data.target, c.data.sensitive = ("Blond_Hair", "Male") if celeba else ("Smiling", "sex")
    if not celeba:
        c.data.options = ml_collections.ConfigDict({"image_col": "image", "split_col": ""})
    c.data.counterfactuals = f"runs/cf_{name}_train"  # nhfair_jax.generate ...:train output
    c.eval.cf_pairs = f"data/{name}_cf"  # CelebA-CF / LFW-CF (pairs.csv)
    if celeba:  # hair-length edits of test images for RFP (configs/generate.py:celeba_sdedit_hair)
        c.eval.gflip_pairs = "runs/cf_celeba_hair"
    c.model.pretrained_path = ""  # the authors' runs train ResNet-18 from scratch
    c.optim.name, c.optim.lr, c.optim.weight_decay = "adamw", 1e-3, 1e-4
    c.train.batch_size = 128
    c.train.epochs = c.train.patience = 70 if celeba else 50
    c.train.progress = False
    return c


def base_config(dataset: str, scale: str):
    if dataset in ("digitsb", "digitsb_shared"):
        c = _small_cnn(digitsb_config("erm"), 16, 8, 64)
        if dataset == "digitsb_shared":
            c.data.options.noise_pattern = "shared"
        return c if scale == "cpu" else _paper_digitsb(c)
    if dataset in ("fashion_mnist_b", "cifar10b") and (scale == "paper" or dataset == "cifar10b"):
        return _paper_synthetic(dataset, FASHION_ROOT if dataset == "fashion_mnist_b"
                                else "data/cifar10")
    if dataset == "fashion_mnist_b":
        c = _small_cnn(digitsb_config("erm"), 16, 3, 128)
        c.data.name, c.data.root = "fashion_mnist_b", FASHION_ROOT
        return c
    return _real(dataset)


def _paper_digitsb(c):
    c.train.epochs = c.train.patience = 30
    return c


def _synthetic_options(c):
    c.data.options.roles = "paper"  # or "code": the authors' construction (data/biased.py)
    c.data.options.build_seed = 0  # set to each run's seed when data_per_seed
    return c


def get_config(arg: str = "digitsb"):
    from nhfair_jax.methods import registered, spec
    from nhfair_jax.study.cf_tables import STUDIES, build_rows

    dataset, study, scale = (arg.split(",") + ["", ""])[:3]
    study, scale = study or "alpha", scale or "cpu"
    if dataset not in DATASETS:
        raise ValueError(f"configs/cf_study.py: unknown data set {dataset!r}; known: "
                         f"{', '.join(DATASETS)}")
    if study not in STUDIES:
        raise ValueError(f"configs/cf_study.py: unknown study {study!r}; known: "
                         f"{', '.join(STUDIES)}")
    if scale not in SCALES:
        raise ValueError(f"configs/cf_study.py: SCALE must be one of {SCALES}, got {scale!r}")
    synthetic = dataset in SYNTHETIC
    if study in ("alpha", "noncurated") and not synthetic:
        raise ValueError(f"configs/cf_study.py: the {study} study needs a data set with the "
                         f"latent attribute G ({', '.join(SYNTHETIC)}), not {dataset}")
    paper = scale == "paper" or dataset in ("cifar10b", "celeba", "lfw")
    c = ml_collections.ConfigDict()
    c.name, c.study = dataset, study
    c.base = base_config(dataset, scale)
    if synthetic:
        _synthetic_options(c.base)
    c.data_per_seed = synthetic  # each run's split and construction from its seed, as the code
    c.alphas = ALPHAS if study == "alpha" else ((0.8,) if synthetic else ())
    c.table_alpha = 0.8
    c.seeds = (0, 1, 2, 3)
    c.reference = "scratch"
    c.acc_ratio = 0.98  # the paper's footnote: 98% of Scratch's validation accuracy
    c.cd_metric = "cd_balanced" if synthetic else "cd"  # the paper's App. 11.2 on CIFAR-10B
    mus = (0.1, 1.0, 10.0, 100.0) if synthetic else (
        (0.01, 0.1, 1.0, 7.0, 10.0) if dataset == "celeba" else (0.01, 0.1, 1.0, 10.0, 50.0))
    names = registered()
    fixed = {} if paper else {"lbc": {"epochs_per_round": 2}}
    if dataset in ("celeba", "lfw"):
        fixed["lassi"] = {"flow_levels": 4, "flow_steps": 8, "flow_hidden": 128,
                          "cert_n": 10000, "cert_n0": 1000, "cert_skip": 64}
        fixed["sensei"] = {"fit_rows": 2000}
    order, rows = build_rows(
        study, PAPER_GRIDS if paper else SMALL_GRIDS, mus=mus,
        noncurated=(0.2, 0.3, 0.4, 0.5, 0.6), debiased_alpha=0.5 if synthetic else None,
        registered=names, spaces={n: spec(n).space for n in names},
        fixed=fixed, ckd_rep="features" if dataset == "celeba" else "logits",
        omit=("lassi",) if dataset == "lfw" else ())
    c.rows = order
    c.row = ml_collections.ConfigDict(rows)
    return c
