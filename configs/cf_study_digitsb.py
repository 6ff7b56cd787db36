"""The counterfactual-vs-group fairness study on DigitsB (embedded data, CPU-sized):

    python -m nhfair_jax.study.counterfactual --config configs/cf_study_digitsb.py --workdir runs/cf

alpha = P(G = A) from 0.5 to 0.9; Scratch (erm), CP and CKD (ERM teacher of the same alpha and
seed); hyperparameters selected on validation by the paper's rule (lowest CD with accuracy at
least ERM's minus acc_tolerance); two seeds; the teacher study at alpha 0.8. A narrow small CNN at
16 px and 8 epochs keep it to minutes on a 2-core CPU (benchmarks/README.md).
"""

import ml_collections

from nhfair_jax.config import digitsb_config


def get_config():
    c = ml_collections.ConfigDict()
    c.name = "digitsb"
    base = digitsb_config("erm")
    base.data.image_size = 16
    base.model.cnn_widths = (8, 16, 32)
    base.train.epochs = 8
    base.train.patience = 8
    base.train.progress = False
    c.base = base
    c.alphas = (0.5, 0.6, 0.7, 0.8, 0.9)
    c.methods = ("erm", "cp", "ckd")
    c.seeds = (0, 1)
    # Candidates of each method's hyperparameters (inside the search ranges of
    # nhfair_jax/sweep/space.py: lam and mu log-uniform on [1e-2, 1e2]).
    c.grid = ml_collections.ConfigDict({"cp": {"lam": (1.0, 10.0)},
                                        "ckd": {"mu": (1.0, 10.0), "lam": (1.0,)}})
    c.acc_tolerance = 0.01  # the paper's "lower bound of the accuracy": ERM's minus this
    c.table_alpha = 0.8  # the alpha of the Table 3 layout
    c.teacher_study = ml_collections.ConfigDict()
    c.teacher_study.enabled = True
    c.teacher_study.alpha = 0.8
    c.teacher_study.debiased_alpha = 0.5
    c.teacher_study.teachers = ("cp", "erm", "ckd", "debiased")
    return c
