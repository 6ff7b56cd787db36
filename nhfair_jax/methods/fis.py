"""FIS, fair influential sampling: grow the labelled training set with the pool examples whose
first-order influence improves validation fairness without harming validation accuracy.

Group labels are used only on the validation set. Scoring runs on the whole pool, in batches,
with the model in evaluation mode, through forward-mode derivatives ("jvp"), per-example
gradients ("per_example", vmap of grad: the original code's way) or their closed form layer by
layer ("per_layer": one batched backward pass, then each layer's output gradient against its
forward-mode derivative); all three give the same scores. The default, "auto", takes the
fastest measured on the backend (`resolve_scoring`): per_layer on the CPU, jvp on
accelerators; a model whose parameters are not all in leaf layers, which the closed form
cannot see, gets jvp.

A round's validation directions take one forward and two backward passes per batch; the
validation logits they start from are the previous epoch's evaluation (`ctx.predict` keeps
them while the parameters are unchanged). During the second epoch the trainer runs `warm_up` in
a thread: it traces and compiles the round's programs on stand-ins of their shapes, overlapped
with training, so that the first round starts at full speed.
"""

from __future__ import annotations

import logging

import jax
import jax.numpy as jnp
import numpy as np
import optax

from nhfair_jax import per_example
from nhfair_jax.methods.base import forward
from nhfair_jax.methods.base import CrossEntropy
from nhfair_jax.methods.registry import register
from nhfair_jax.methods.space import Choice

CONSTRAINTS = ("dp", "eop", "eod")
VAL_KEYS = ("image", "label", "mask")
POOL_KEYS = ("image", "label")
SCORINGS = ("auto", "jvp", "per_example", "per_layer")


def resolve_scoring(scoring: str, backend: str | None = None) -> str:
    """The scoring path FIS runs: "auto" is the fastest exact path measured on the backend,
    "per_layer" on the CPU (examples/s against jvp's, K = 2: small CNN at 32 px 3,280 / 2,423,
    at 64 px 674 / 563; ResNet-18 at 32 px 450 / 412), "jvp" on accelerators (ResNet-18 at
    224 px, batch 64, on an H200: 7,613 / 7,376 for per_layer). Any other value is itself."""
    if scoring != "auto":
        return scoring
    return "per_layer" if (backend or jax.default_backend()) == "cpu" else "jvp"


def fairness_violation(probs, labels, groups, *, num_groups: int, constraint: str):
    """A differentiable relaxation of the fairness gap on softmax probabilities (0 = fair).

    For each conditioning cell k (dp: everything; eop / eod: the true class), group a and class
    c: |E[p_c | a, k] - E[p_c | k]|, summed over the cells the constraint uses (dp, eod: all
    classes; eop: c = k, and for a binary target only k = 1). Empty (k, a) cells are skipped.
    Works for any number of groups and classes.
    """
    if constraint not in CONSTRAINTS:
        raise ValueError(f"method.constraint must be one of {CONSTRAINTS}, got {constraint!r}")
    n, c = probs.shape
    cond = jnp.zeros(n, jnp.int32) if constraint == "dp" else labels
    k = 1 if constraint == "dp" else c
    onehot_k = jax.nn.one_hot(cond, k)
    onehot_a = jax.nn.one_hot(groups, num_groups)
    count_ka = onehot_k.T @ onehot_a  # [K, G]
    sum_kac = jnp.einsum("nk,na,nc->kac", onehot_k, onehot_a, probs)
    mean_kac = sum_kac / jnp.maximum(count_ka, 1.0)[..., None]
    mean_kc = (onehot_k.T @ probs) / jnp.maximum(onehot_k.sum(0), 1.0)[:, None]  # [K, C]
    gaps = jnp.abs(mean_kac - mean_kc[:, None, :]) * (count_ka > 0)[..., None]
    if constraint == "eop":
        use = jnp.eye(k, c)  # c = k only
        if c == 2:
            use = use.at[0].set(0.0)  # binary: the positive class
        gaps = gaps * use[:, None, :]
    return gaps.sum()


def select_from_pool(acc_scores, fair_scores, budget: int) -> np.ndarray:
    """Positions of the pool examples to label, best first: only examples whose influence
    improves the fairness objective (fairness score > 0) AND does not harm accuracy (accuracy
    score >= 0) qualify; the `budget` most fairness-improving of them are taken (fewer when fewer
    qualify).

    A score is g_i . v, the dot product of the example's loss gradient with the gradient v of the
    validation loss (or fairness violation): a gradient step on the example changes that
    quantity by -lr * g_i . v, so a positive score lowers it.
    """
    acc_scores, fair_scores = np.asarray(acc_scores), np.asarray(fair_scores)
    qualified = np.flatnonzero((acc_scores >= 0) & (fair_scores > 0))
    order = qualified[np.argsort(-fair_scores[qualified], kind="stable")]
    return order[:budget]


def count_qualified(acc_scores, fair_scores) -> int:
    """How many pool examples improve fairness without harming accuracy."""
    return int(((np.asarray(acc_scores) >= 0) & (np.asarray(fair_scores) > 0)).sum())


@register("fis", space={"method.label_ratio": Choice((0.1, 0.3, 0.5)),
                        "method.constraint": Choice(("dp", "eop", "eod"))})
class FIS(CrossEntropy):
    """ERM on a labelled subset that grows by influence-guided selection rounds.

    Hyperparameters: label_ratio (initial labelled fraction), constraint (dp / eop / eod),
    warmup_epochs (epochs trained before the first round), budget (the most examples a round
    adds, as a multiple of the validation split's size), scan (the most pool examples a round
    scores, as a multiple of the validation split's size, in the pool's order), round_every
    (epochs between rounds), max_rounds (0: until the pool is empty), scoring ("auto":
    `resolve_scoring`; "jvp", "per_example" or "per_layer"), memory_mb (the per_example path
    only: megabytes of per-example intermediates held at once, the chunk size following from
    it; 0: 1 GiB on the CPU, half an accelerator's memory; per_layer holds each layer's input
    and output gradient for the batch), pool_labels ("true": the
    pool's ground-truth labels, as the benchmark paper's adaptation, its Appendix B.4: "we employ
    ground-truth labels for influence-guided selection"; "predicted": the model's own labels, the
    original active-learning setting where the pool is unlabelled).

    Each round adds at most budget x len(val) examples, only those whose influence improves
    validation fairness without harming validation accuracy; fis_selection.json records per
    round how many qualified. The schedule is the benchmark's code's (its paper gives none):
    after 6 epochs on the labelled subset (its `fis_warm` 5 counts epochs from 0 and selects
    after the epoch it names), a round every epoch, each adding up to len(val) examples (its
    `num_samples`, the validation examples seen) from the first 100 x len(val) of the pool.

    References: Pang et al., "Fairness without Harm: An Influence-Guided Active Sampling
    Approach", NeurIPS 2024.
    """

    defaults = {"label_ratio": 0.3, "constraint": "dp", "warmup_epochs": 6, "budget": 1.0,
                "scan": 100.0, "round_every": 1, "max_rounds": 0, "scoring": "auto", "memory_mb": 0,
                "pool_labels": "true"}

    def __init__(self, cfg):
        super().__init__(cfg)
        if cfg.scoring not in SCORINGS:
            raise ValueError(f"method.scoring must be one of {SCORINGS}, got {cfg.scoring!r}")
        if cfg.constraint not in CONSTRAINTS:
            raise ValueError(f"method.constraint must be one of {CONSTRAINTS}, got "
                             f"{cfg.constraint!r}")
        if not 0.0 < cfg.label_ratio <= 1.0:
            raise ValueError(f"method.label_ratio must be in (0, 1], got {cfg.label_ratio}")
        if cfg.memory_mb < 0:
            raise ValueError(f"method.memory_mb must be 0 (the device's default) or a number of "
                             f"megabytes, got {cfg.memory_mb}")
        if cfg.pool_labels not in ("predicted", "true"):
            raise ValueError(f"method.pool_labels must be 'predicted' or 'true', got "
                             f"{cfg.pool_labels!r}")

    # --- state: which training rows are labelled, and in which round they joined -----------
    def init_state(self, info):
        n = info["num_train"]
        rng = np.random.default_rng([info.get("seed", 0), 0xF15])
        first = rng.permutation(n)[:max(1, int(round(self.cfg.label_ratio * n)))]
        joined = np.full(n, -1, np.int32)
        joined[first] = 0
        # qualified[r]: pool examples that qualified in round r (rounds <= epochs)
        return {"joined": jnp.asarray(joined),
                "qualified": jnp.zeros(max(int(info.get("epochs", 1)), 1) + 1, jnp.int32)}

    def sample_indices(self, source, seed, epoch, method_state):
        del source, seed, epoch
        return np.flatnonzero(np.asarray(method_state["joined"]) >= 0)

    # --- scoring -------------------------------------------------------------------------
    def _example_losses(self, apply_fn, params, batch_stats, images, labels):
        logits, _ = forward(apply_fn, params, batch_stats, images, train=False)
        if self.cfg.pool_labels == "predicted":
            labels = jnp.argmax(jax.lax.stop_gradient(logits), axis=-1)
        return optax.softmax_cross_entropy_with_integer_labels(logits, labels)

    def score_batch(self, apply_fn, params, batch_stats, batch, directions):
        """[K, B] influence scores g_i . v_k of a batch for the K directions."""
        def losses(p, b):
            return self._example_losses(apply_fn, p, batch_stats, b["image"], b["label"])

        scoring = resolve_scoring(self.cfg.scoring)
        if scoring == "per_layer":
            try:
                return per_example.per_layer_dots(losses, params, batch, directions)
            except per_example.NoClosedForm:
                if self.cfg.scoring != "auto":
                    raise
                scoring = "jvp"  # the model has parameters the closed form cannot see
        if scoring == "jvp":
            return per_example.jvp_dots(losses, params, batch, directions)

        def one(p, ex):
            return self._example_losses(apply_fn, p, batch_stats, ex["image"][None],
                                        ex["label"][None])[0]

        budget = int(self.cfg.memory_mb * 2**20) or None  # 0: the device's default
        return per_example.per_example_dots(one, params, batch, directions, memory_budget=budget)

    def _round_programs(self, ctx):
        """The round's three jitted programs, built once per run and kept in the run's
        `ctx.programs`: the validation gradients of a batch, the fairness violation's weights,
        and a pool batch's scores. Without them kept every round recompiles (about 6 s each on
        2 cores)."""
        if "fis_round" in ctx.programs:
            return ctx.programs["fis_round"]
        apply_fn, val = ctx.apply_fn, ctx.sources["val"]

        def add_grads(totals, params, batch_stats, batch, weights):
            # totals + d/dtheta of the batch's sum_i mask_i (CE_i / n, sum_c W_ic p_ic): one
            # forward pass, each gradient a backward pass from its own logits cotangent.
            logits, pull = jax.vjp(lambda p: forward(apply_fn, p, batch_stats, batch["image"],
                                                     train=False)[0], params)
            mask = batch["mask"].astype(logits.dtype)

            def loss_part(z):
                ce = optax.softmax_cross_entropy_with_integer_labels(z, batch["label"])
                return (ce * mask).sum() / len(val)

            def fair_part(z):
                return (jax.nn.softmax(z) * weights * mask[:, None]).sum()

            return tuple(jax.tree.map(jnp.add, total, pull(jax.grad(part)(logits))[0])
                         for total, part in zip(totals, (loss_part, fair_part)))

        # Each step of a round is one compiled program (once per run, and kept by the
        # persistent cache): eagerly, the violation's gradient and the sums were some 50 small
        # programs, compiled again in every process.
        def fair_weights(logits, labels, groups):
            return jax.grad(fairness_violation)(jax.nn.softmax(logits), labels, groups,
                                                num_groups=val.num_groups,
                                                constraint=self.cfg.constraint)

        def score(params, batch_stats, batch, directions):
            return self.score_batch(apply_fn, params, batch_stats, batch, directions)

        ctx.programs["fis_round"] = tuple(map(jax.jit, (add_grads, fair_weights, score)))
        return ctx.programs["fis_round"]

    def validation_directions(self, ctx, state):
        """Gradients of the validation loss and of the validation fairness violation."""
        val = ctx.sources["val"]
        add_grads_j, weights_j, _ = self._round_programs(ctx)
        # The validation logits at these parameters: the run's evaluation of the previous
        # epoch, already computed (ctx.predict keeps each split's logits at these parameters).
        logits = ctx.predict(state, "val")
        # The violation is a function of group means of probabilities: its gradient is that of
        # sum_i sum_c W_ic p_ic(theta) with W = dV/dp held fixed.
        w = np.asarray(weights_j(jnp.asarray(logits), jnp.asarray(val.labels),
                                 jnp.asarray(val.groups)))
        zeros = jax.tree.map(jnp.zeros_like, state.params)
        totals = (zeros, zeros)
        bs = ctx.eval_batch_size
        for i, (_, device_batch) in enumerate(ctx.eval_batches(val, VAL_KEYS)):
            rows = w[i * bs:(i + 1) * bs]
            rows = jnp.asarray(np.concatenate([rows, np.zeros((bs - len(rows), rows.shape[1]),
                                                              rows.dtype)]))
            totals = add_grads_j(totals, state.params, state.batch_stats, device_batch, rows)
        return totals

    def warm_up(self, ctx, state):
        """The round's programs run once on stand-in values of the round's shapes, for the
        trainer to run in a thread during the second epoch, so that the first round finds them
        traced and compiled (about 0.6 s of tracing on the CPU, overlapped with training).
        Nothing when the first round is at the second epoch or earlier."""
        if self.cfg.warmup_epochs + 1 <= 2:
            return None
        val = ctx.sources["val"]
        add_grads_j, weights_j, score_j = self._round_programs(ctx)
        _, device_batch = next(iter(ctx.eval_batches(val, VAL_KEYS)))
        # stand-ins with the state's shapes and placement (the train step donates the state's
        # own buffers while the thread runs)
        params, batch_stats = (jax.tree.map(jnp.zeros_like, t)
                               for t in (state.params, state.batch_stats))

        def work():
            try:
                w = weights_j(jnp.zeros((len(val), val.num_classes), jnp.float32),
                              jnp.asarray(val.labels), jnp.asarray(val.groups))
                rows = jnp.asarray(np.zeros((ctx.eval_batch_size, w.shape[1]), w.dtype))
                zeros = jax.tree.map(jnp.zeros_like, params)
                totals = add_grads_j((zeros, zeros), params, batch_stats, device_batch, rows)
                pool_batch = {k: v for k, v in device_batch.items() if k in POOL_KEYS}
                jax.block_until_ready(score_j(params, batch_stats, pool_batch, totals))
            except Exception:  # an optimisation only: the round itself reports any error
                logging.debug("FIS warm-up failed", exc_info=True)

        return work

    def pool_scores(self, ctx, state, pool_rows):
        """(accuracy influence, fairness influence) of every pool row."""
        directions = self.validation_directions(ctx, state)
        _, _, score = self._round_programs(ctx)
        pool = ctx.sources["train"].subset(pool_rows, "pool")
        # every batch dispatched before any result is read: the device never waits for the
        # host's reading of the next batch
        out = [(score(state.params, state.batch_stats, device_batch, directions), batch["mask"])
               for batch, device_batch in ctx.eval_batches(pool, POOL_KEYS)]
        scores = np.concatenate([np.asarray(s)[:, mask] for s, mask in out], axis=1)
        return scores[0], scores[1]

    # --- rounds ----------------------------------------------------------------------------
    def _round_number(self, epoch: int) -> int | None:
        since = epoch - self.cfg.warmup_epochs - 1
        if since < 0 or since % self.cfg.round_every:
            return None
        r = since // self.cfg.round_every + 1
        return None if self.cfg.max_rounds and r > self.cfg.max_rounds else r

    def on_epoch_start(self, ctx, state, epoch):
        r = self._round_number(epoch)
        joined = np.asarray(jax.device_get(state.method_state["joined"]))
        pool_rows = np.flatnonzero(joined < 0)
        if r is None or pool_rows.size == 0:
            return state
        n_val = len(ctx.sources["val"])
        pool_rows = pool_rows[:max(1, int(round(self.cfg.scan * n_val)))]  # the code's scan
        acc, fair = self.pool_scores(ctx, state, pool_rows)
        budget = max(1, int(round(self.cfg.budget * n_val)))
        joined = joined.copy()
        joined[pool_rows[select_from_pool(acc, fair, budget)]] = r
        qualified = np.asarray(jax.device_get(state.method_state["qualified"])).copy()
        qualified[min(r, len(qualified) - 1)] = count_qualified(acc, fair)
        logging.info("FIS round %d: %d of %d pool examples qualify, %d added", r,
                     qualified[min(r, len(qualified) - 1)], len(pool_rows),
                     min(budget, qualified[min(r, len(qualified) - 1)]))
        return state.replace(method_state={"joined": jnp.asarray(joined),
                                           "qualified": jnp.asarray(qualified)})

    def on_finish(self, ctx, state, best_state):
        del best_state  # the selection is the last state's
        joined = np.asarray(jax.device_get(state.method_state["joined"]))
        qualified = np.asarray(jax.device_get(state.method_state["qualified"]))
        index = ctx.sources["train"].indices
        rounds = [{"round": int(r),
                   "epoch": self.cfg.warmup_epochs + 1 + (int(r) - 1) * self.cfg.round_every,
                   "qualified": int(qualified[min(int(r), len(qualified) - 1)]),
                   "selected": index[joined == r].tolist()}
                  for r in np.unique(joined[joined > 0])]
        return {"files": {"fis_selection.json": {
            "label_ratio": self.cfg.label_ratio, "constraint": self.cfg.constraint,
            "initial": index[joined == 0].tolist(), "rounds": rounds,
            "labelled": int((joined >= 0).sum()), "pool_left": int((joined < 0).sum())}}}
