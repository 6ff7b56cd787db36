"""What a run builds from its config before any epoch: the method, the devices, the data, the
model and its initial (or restorable) train state; and `restore_best`, the best checkpoint of a
finished run with an evaluator over its data, for post-fit methods, teachers and studies."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import jax
import numpy as np

from nhfair_jax import data as data_lib
from nhfair_jax import models as models_lib
from nhfair_jax.errors import UserError
from nhfair_jax.methods import get_method, method_needs
from nhfair_jax.methods.phases import in_phase, optimizer_of, phase_of
from nhfair_jax.rundir import RunDir
from nhfair_jax.training.checkpoint import Checkpoints
from nhfair_jax.training.evaluator import Evaluator
from nhfair_jax.training.optim import make_optimizer
from nhfair_jax.training.state import init_state
from nhfair_jax.training.step import make_mesh, replicate

# `build(..., teacher=RESTORING)`: a state built to restore a checkpoint into. A distilling
# method's state then holds stand-in teacher variables of the right shape; the checkpoint's
# replace them.
RESTORING = object()


@dataclass
class Setup:
    """A run's pieces before training: see `build`."""

    config: Any
    method: Any
    mesh: Any
    sources: dict
    test_pairs: Any
    test_gflip: Any
    num_classes: int
    num_groups: int
    model: Any
    tx: Any
    state: Any  # replicated over the mesh
    data_seed: int
    time_data: float
    epochs: int  # train.epochs plus the epochs the method trains first (LASSI's flow)

    def evaluator(self) -> Evaluator:
        return Evaluator(self.config, self.model, self.method, self.mesh, self.sources,
                         num_classes=self.num_classes, num_groups=self.num_groups,
                         test_pairs=self.test_pairs, test_gflip=self.test_gflip)


def optimizer_for(config, method, phase: str):
    """The optax transformation of a phase (the method decides; all phases share one
    optimizer-state structure)."""
    return optimizer_of(in_phase(method, phase),
                        lambda scheduled=True: make_optimizer(config.optim, scheduled=scheduled))


def build(config, mesh=None, *, teacher=None) -> Setup:
    """The method (unknown names fail before any data is read), the mesh, the data (and the
    test pairs of eval.cf_pairs / eval.gflip_pairs), the model and the replicated train state.

    Args:
      config: a resolved ConfigDict.
      mesh: the device mesh (None: all local devices).
      teacher: the teacher's {"params", "batch_stats"} for a distilling method, or RESTORING.
    """
    t0 = time.perf_counter()
    c = config
    method = get_method(c.method)  # `method.cf` wraps any method (+aug / +cp)
    # train.epochs, plus the epochs a method trains first on top of them (LASSI's flow)
    epochs = c.train.epochs + int(method.epochs_before())
    mesh = mesh or make_mesh()
    n_dev = mesh.devices.size
    for key in ("batch_size", "eval_batch_size"):
        if c.train[key] % n_dev:
            raise UserError(f"train.{key}={c.train[key]} must be a multiple of the {n_dev} "
                            "devices")
    sources = data_lib.config_sources(c)
    test_pairs, test_gflip = data_lib.test_pairs(c), data_lib.test_pairs(c, "gflip_pairs")
    train = sources["train"]
    if "pairs" in method_needs(c.method) and "image_cf" not in train.extras:
        raise UserError(f"method {c.method.name!r}"
                        + (f" with method.cf={c.method.cf!r}" if c.method.get("cf") else "")
                        + f" needs counterfactual pairs; {c.data.name} has none in its "
                        "training split; set data.counterfactuals to a CSV or folder of "
                        "edited training images (data/README.md)")
    num_classes, num_groups = train.num_classes, train.num_groups
    if c.eval.utility == "auc" and num_classes != 2:
        raise UserError(f"eval.utility='auc' needs a binary target; {c.data.name} has "
                        f"{num_classes} classes; use eval.utility='acc'")
    time_data = time.perf_counter() - t0

    root = jax.random.key(c.seed)
    data_seed = int(jax.random.bits(jax.random.fold_in(root, 2), dtype=np.uint32))
    model = models_lib.create_model(c.model.name, num_classes,
                                    **models_lib.model_options(c.model))
    tx = optimizer_for(c, method, phase_of(method, 1, epochs).name)
    variables = None
    if c.model.pretrained_path or teacher is RESTORING:
        dummy = np.zeros((1, *train.image_shape), np.float32)
        variables = model.init(jax.random.fold_in(root, 0), dummy, train=False)
    if c.model.pretrained_path:
        variables = models_lib.load_pretrained(c.model.name, variables, c.model.pretrained_path)
    if teacher is RESTORING:  # stand-in variables of the teacher's shape (the same network)
        teacher = {"params": variables["params"],
                   "batch_stats": variables.get("batch_stats", {})}
    info = {"num_classes": num_classes, "num_groups": num_groups, "num_train": len(train),
            "labels": train.labels, "groups": train.groups, "seed": c.seed,
            "epochs": epochs,
            # distillation: the frozen teacher's variables (nhfair_jax.dispatch loads them;
            # None for other methods)
            "teacher": teacher}
    state = init_state(model, tx, method, image_shape=train.image_shape,
                       init_key=jax.random.fold_in(root, 0),
                       train_key=jax.random.fold_in(root, 1), info=info, variables=variables)
    return Setup(config=c, method=method, mesh=mesh, sources=sources, test_pairs=test_pairs,
                 test_gflip=test_gflip, num_classes=num_classes, num_groups=num_groups,
                 model=model, tx=tx, state=replicate(state, mesh), data_seed=data_seed,
                 time_data=time_data, epochs=epochs)


def restore_best(config, workdir, mesh=None):
    """(evaluator, train state of the best checkpoint) of the finished run in `workdir`:
    `config` may differ from the run's own in its data options (to evaluate it on other data).
    A distilling run's teacher comes back from the checkpoint too."""
    setup = build(config, mesh, teacher=RESTORING)
    ckpt = Checkpoints(RunDir(workdir).path)
    try:
        state, _ = ckpt.restore_best(setup.state)
    finally:
        ckpt.close()
    return setup.evaluator(), state
