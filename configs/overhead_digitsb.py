"""The overhead table (benchmarks/overhead.py) on the embedded DigitsB data: every registered
trained method for 2 epochs of the small CNN (16-32-64-128) at 32 px, batch 64, best of 2 rounds,
ERM again after every 3 methods:

    python benchmarks/overhead.py --config configs/overhead_digitsb.py \
        --json benchmarks/results/overhead.json
"""

import ml_collections


def get_config():
    c = ml_collections.ConfigDict()
    c.config = "configs/digitsb.py"  # the run config every method starts from
    c.overrides = ml_collections.ConfigDict({  # the same data, model and epochs for all
        "train": {"epochs": 2, "patience": 2, "progress": False}})
    c.methods = ()  # empty: every registered method (post-fit and zero-shot ones are skipped)
    # method -> overrides ({"method": {...}} for its hyperparameters; a teacher or pairs source
    # for methods that need one, which are skipped without it)
    c.method_overrides = ml_collections.ConfigDict()
    c.repeats = 2  # rounds; each figure is the best of its runs
    c.erm_every = 3  # ERM runs again after every erm_every methods of a round
    c.seed = 0
    return c
