"""What a method is to the code that runs it: the trained method's loss and hooks (with their
defaults), the bases of post-fit and zero-shot methods, and the helpers several methods share
(cross-entropy, the forward pass, the teacher's outputs)."""

from __future__ import annotations

from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax


class HookContext(NamedTuple):
    """What the epoch hooks see of a run (the trainer builds it; hooks never get the trainer).

    apply_fn: the model's apply; sources: {split: data source}; eval_batches(source, keys):
    normalised, padded evaluation batches as (host batch, device batch); predict(state, split):
    evaluation logits of a split (a copy of the run's own when it already predicted that split at
    these parameters, e.g. the epoch's validation); data_seed: the run's data seed;
    eval_batch_size; programs: the run's dict of the hooks' jitted programs ({name: programs}),
    which the trainer keeps for the run (a hook builds its programs once there, not on itself).
    """

    apply_fn: Any
    sources: dict
    eval_batches: Any
    predict: Any
    data_seed: int
    eval_batch_size: int
    programs: dict


class LossOutput(NamedTuple):
    """What a method's loss returns to the generic train step."""

    loss: jnp.ndarray  # scalar to minimise
    logits: jnp.ndarray  # [B, C], for the training confusion counts
    batch_stats: Any  # updated BatchNorm statistics
    method_state: Any  # updated method state (a pytree; {} when the method keeps none)
    metrics: dict  # extra scalars to log (averaged over the epoch)


def cross_entropy(logits, labels, weights=None):
    """Softmax cross-entropy, averaged with optional per-example weights (0 drops a row)."""
    per_example = optax.softmax_cross_entropy_with_integer_labels(logits, labels)
    if weights is None:
        return per_example.mean()
    weights = weights.astype(per_example.dtype)
    return (per_example * weights).sum() / jnp.maximum(weights.sum(), 1e-12)


def forward(apply_fn, params, batch_stats, images, *, train: bool, features: bool = False):
    """The backbone's forward pass; in training also returns the updated batch statistics."""
    variables = {"params": params, "batch_stats": batch_stats}
    if not train:
        return apply_fn(variables, images, train=False, features=features), batch_stats
    out, updates = apply_fn(variables, images, train=True, features=features,
                            mutable=["batch_stats"])
    return out, updates["batch_stats"]


class Method:
    """A trained method: a loss, plus the few hooks most methods need. The trainer calls only
    these (and, for a method with phases, those of methods/phases.py).

    Hooks (all optional except `loss`):
      setup(info): called first; keeps `info` as self.info for the other hooks.
      init_params(model_params, key, info): the trainable pytree; methods with extra modules
        (per-group heads, an adversary) return {"model": model_params, ...} and read it back in
        `loss` and `predict`.
      init_state(info): the method's own non-trainable state, carried in the train state.
      loss(apply_fn, params, batch_stats, method_state, batch, rng): a LossOutput.
      predict(apply_fn, params, batch_stats, batch): evaluation logits.
      sample_indices(source, seed, epoch, method_state): training rows for this epoch (may
        repeat), or None for every row once.
      on_epoch_start(ctx, state, epoch): a new train state (e.g. selection rounds); `ctx` is
        a HookContext; the method state it returns holds host arrays (the trainer places them
        on the devices).
      on_finish(ctx, state, best_state): what the finished run adds to its outcome, as
        {"test": {name: number} added to the test split's result, from the selected (best)
        state (e.g. a certified fraction beside the accuracy); "files": {file name: JSON-able
        payload} written into the run directory, from the last state}; either may be absent.
      warm_up(ctx, state): work the trainer runs in a thread during the second epoch (below).
      epochs_before(): epochs the method trains first, on top of train.epochs (LASSI's flow);
        the run then has train.epochs + epochs_before() epochs, the learning-rate schedule
        counting from the first of train.epochs.

    The loss's logged `metrics` are summed over an epoch's batches and turned into the epoch's
    scalars once (`epoch_scalars`): a scalar is averaged; a pair of arrays named `<name>:num`
    and `<name>:den` (per-cell totals) is logged as `<name>`, the mean over cells with a
    non-zero denominator of num / den (a balanced accuracy).

    Attributes: `defaults` (the hyperparameters under config.method.*, with their default
    values), `batch_keys` (what the jitted step receives), `augment` (None, or a batch
    transform f(batch, rng) on uint8 images in the input pipeline), `cf_mode` (the
    counterfactual modifier applied, methods/cf.py: with "aug" the loss's batch also holds
    `cf_view`, 1 on the counterfactual rows).

    `info` holds num_classes, num_groups, num_train, epochs, seed, feature_dim, key (a PRNG key
    for the method's own initialisation), the training source's labels and groups (numpy) and,
    for a method that needs one, the teacher's variables.
    """

    name = "base"
    defaults: dict = {}
    batch_keys = ("image", "label", "group")
    augment = None
    cf_mode = ""  # the `method.cf` modifier the registry applied: "", "aug" or "cp"

    def __init__(self, cfg):
        self.cfg = cfg
        self.info: dict = {}

    def setup(self, info: dict) -> None:
        self.info = info

    def init_params(self, model_params, key, info: dict):
        del key, info
        return model_params

    def init_state(self, info: dict):
        del info
        return {}

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng,
             hp=None) -> LossOutput:
        """The training loss of a batch. `hp`: the method's hyperparameters as the train step
        passes them (training/hparams.py: the continuous ones, `traced_keys`, are values of the
        step, so that runs differing only in them share one program; every other key reads the
        config); None, as a direct call passes it, reads the config. A loss reads its traced
        hyperparameters from `self.hyper(hp)`, never from `self.cfg`, where they would be
        constants of the first run's program."""
        raise NotImplementedError(f"method {self.name!r} defines no loss")

    def hyper(self, hp):
        """The hyperparameters a loss reads: `hp` from the train step, or the config."""
        return self.cfg if hp is None else hp

    def predict(self, apply_fn, params, batch_stats, batch):
        return forward(apply_fn, params, batch_stats, batch["image"], train=False)[0]

    def sample_indices(self, source, seed: int, epoch: int, method_state):
        del source, seed, epoch, method_state
        return None

    def epochs_before(self) -> int:
        return 0

    def on_epoch_start(self, ctx: HookContext, state, epoch: int):
        del ctx, epoch
        return state

    def warm_up(self, ctx: HookContext, state):
        """Work for the trainer to run in a background thread during the second epoch (the
        first has traced the train step), joined before the next epoch's hooks: e.g. tracing
        and compiling, on stand-ins of their shapes, the programs a later epoch hook will run.
        Called after the second epoch's on_epoch_start, on the trainer's thread (stand-ins of
        the state must be made here: the train step donates the state's buffers). None:
        nothing to do."""
        del ctx, state
        return None

    def on_finish(self, ctx: HookContext, state, best_state) -> dict:
        del ctx, state, best_state
        return {}


def epoch_scalars(totals: dict, num_batches: int) -> dict:
    """An epoch's logged scalars from the sums over its batches of the loss's `metrics`: each
    scalar's sum / num_batches (batches have a fixed size, so this is the per-example mean of a
    per-batch mean); `<name>:num` / `<name>:den` array pairs (per-cell totals) give `<name>`,
    the mean over cells with a non-zero denominator of num / den, derived once from the totals
    (NaN when every denominator is 0)."""
    out = {k: float(np.asarray(v) / max(num_batches, 1)) for k, v in totals.items()
           if np.ndim(v) == 0}
    for key in totals:
        if key.endswith(":num") and np.ndim(totals[key]):
            name = key[:-len(":num")]
            num, den = np.asarray(totals[key]), np.asarray(totals[f"{name}:den"])
            out[name] = float((num[den > 0] / den[den > 0]).mean()) if (den > 0).any() \
                else float("nan")
    return out


class CrossEntropy(Method):
    """The ERM loss, cross-entropy on the training batch: the base of methods that change only
    what the batches hold (which rows, which views) or what happens between the steps."""

    def loss(self, apply_fn, params, batch_stats, method_state, batch, rng,
             hp=None) -> LossOutput:
        del rng
        logits, batch_stats = forward(apply_fn, params, batch_stats, batch["image"], train=True)
        return LossOutput(cross_entropy(logits, batch["label"]), logits, batch_stats,
                          method_state, {})


def model_params(params):
    """The network's parameters inside a method's trainable pytree (`{"model": ...}` for the
    methods with modules of their own)."""
    return params["model"] if isinstance(params, dict) and "model" in params else params


def backbone_features(apply_fn, params, batch_stats, images):
    """The network's penultimate features [B, D] in evaluation mode, from any method's
    trainable pytree."""
    (_, feats), _ = forward(apply_fn, model_params(params), batch_stats, images, train=False,
                            features=True)
    return feats


class PostFitMethod:
    """A method fitted on a finished ERM run (DFR, OxonFair): a pure fit, no training.

    It names the ERM run (`method.base_config`, `method.base_workdir`) and what it reads from
    it (`inputs`: the penultimate "features" or the "logits" of the best checkpoint, for the
    splits `input_splits()` returns); `fit(inputs, sources, seed, info)` returns ({split:
    (rows, logits)}, what it tuned). Training the ERM run when it is missing, computing (and
    caching) the inputs and writing the run directory are the trainer's side
    (training/postfit.py).
    """

    name = "base"
    inputs = "features"  # or "logits"
    base_defaults = {"base_config": "configs/erm_digitsb.py", "base_workdir": "runs/erm_digitsb"}
    defaults: dict = dict(base_defaults)

    def __init__(self, cfg):
        self.cfg = cfg

    def input_splits(self) -> tuple:
        return ("val", "test")

    def fit(self, inputs: dict, sources: dict, seed: int, info: dict):
        """Args: inputs {split: [N, D] features or [N, C] logits}; sources {split: data source}
        (labels, groups); seed (the run's `config.seed`, for the method's own draws); info
        {num_classes, num_groups, dataset, utility}.

        Returns: ({split: (rows, logits)}, tuned parameters (JSON-able) or None).
        """
        raise NotImplementedError


class ZeroShotMethod:
    """A pretrained image-text model evaluated as it is, or with its embeddings debiased on the
    training split (FairerCLIP, SFID): nothing is trained by gradient steps.

    `backbones`: the model.name values it works with. `debias(embeddings, train, class_text,
    scale, seed)`: None for plain matching, else a fit of the training split's embeddings with
    `transform_images`, `transform_texts` and `info` (nhfair_jax/zeroshot/evaluate.py calls it
    and applies the transforms); `fits_train_split` says whether it needs the training split's
    embeddings for that. `matches_pairs`: scores each image with each caption by a matching
    head instead of comparing embeddings (BLIP-2's ITM).
    """

    name = "base"
    backbones = ("clip", "blip2")
    defaults = {"prompts": (), "prompt_file": ""}
    fits_train_split = False
    matches_pairs = False

    def __init__(self, cfg):
        self.cfg = cfg

    def debias(self, embeddings, train, class_text, scale: float, seed: int):
        del embeddings, train, class_text, scale, seed
        return None


def teacher_variables(info: dict, method_name: str) -> dict:
    """The frozen teacher's {"params", "batch_stats"} that the trainer put in `info` (for the
    method state: the jitted step computes the teacher's outputs on device)."""
    if info.get("teacher") is None:
        raise RuntimeError(f"method {method_name!r} has no teacher; the trainer loads it "
                           "(method.teacher_workdir / teacher_config) before building the state")
    return info["teacher"]


def teacher_forward(apply_fn, teacher_vars: dict, images, *, features: bool = False):
    """The teacher's logits (or (logits, features)) in evaluation mode, without gradient."""
    out, _ = forward(apply_fn, teacher_vars["params"], teacher_vars["batch_stats"], images,
                     train=False, features=features)
    return jax.tree.map(jax.lax.stop_gradient, out)
