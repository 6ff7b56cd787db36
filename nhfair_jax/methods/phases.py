"""Methods whose epochs fall into phases (FSCL: a contrastive phase, then a linear head on the
frozen encoder), and what the trainer asks of any method about its phases.

A phase is its own compiled train step, with its own optimizer (a phase freezes what it does
not train with `frozen`, so that weight decay and momentum cannot move a frozen part either;
every phase keeps one optimizer-state structure, so a run switches phases with one state). A
method without phases has one, the whole run, with the run's optimizer; `phase_of`,
`in_phase` and `optimizer_of` answer for both, so the trainer has one path.
"""

from __future__ import annotations

import copy
from typing import NamedTuple

import jax
import jax.numpy as jnp
import optax

from nhfair_jax.methods.base import Method


class Phase(NamedTuple):
    """What the trainer does in an epoch of a phase.

    name: the phase (one compiled step per name).
    selectable: its epochs may be the best checkpoint and count for early stopping (False e.g.
      while a head is still untrained).
    cached_features: the step trains only a head on the frozen backbone, so the trainer may
      compute the backbone's features of the training and validation rows once (evaluation
      mode, no augmentation) and feed {"features", "label", "group"} batches instead of images;
      the method's `loss` and `predict` then read batch["features"]. The trainer feeds images
      anyway when a step needs more than each row's own image (counterfactual pairs), and
      recomputes the features after any epoch that trained the backbone.
    """

    name: str = "train"
    selectable: bool = True
    cached_features: bool = False


WHOLE_RUN = Phase()


class PhasedMethod(Method):
    """A trained method with phases. A copy of it runs each phase (`in_phase`); its hooks read
    `self.phase_name` as a static Python value while the phase's step is traced."""

    phase_name = ""  # the phase this copy runs; "" until the trainer picks one

    def phase(self, epoch: int, epochs: int) -> Phase:
        """The phase of epoch `epoch` (1-based) of `epochs`."""
        raise NotImplementedError

    def optimizer(self, make_tx):
        """The optax transformation of `self.phase_name`; make_tx(scheduled=True) builds the
        run's optimizer (scheduled: the trainer sets its learning rate per epoch; False: the
        constant config.optim.lr)."""
        return make_tx()

    def in_phase(self, name: str):
        """This method running phase `name` (a shallow copy; itself when it runs it already)."""
        if name == self.phase_name:
            return self
        other = copy.copy(self)
        other.phase_name = name
        return other


def phase_of(method, epoch: int, epochs: int) -> Phase:
    return method.phase(epoch, epochs) if isinstance(method, PhasedMethod) else WHOLE_RUN


def in_phase(method, name: str):
    return method.in_phase(name) if isinstance(method, PhasedMethod) else method


def optimizer_of(method, make_tx):
    return method.optimizer(make_tx) if isinstance(method, PhasedMethod) else make_tx()


def frozen(tx: optax.GradientTransformation) -> optax.GradientTransformation:
    """`tx` with its state kept as it is and every update zero: a part of the model that a phase
    does not train (weight decay and momentum included). The state has the same structure as
    tx's, so a run can switch phases with one optimizer state."""

    def update(updates, state, params=None):
        del params
        return jax.tree.map(jnp.zeros_like, updates), state

    return optax.GradientTransformation(tx.init, update)


def split_by_key(key: str, own: optax.GradientTransformation, rest: optax.GradientTransformation,
                 *, train_own: bool) -> optax.GradientTransformation:
    """One optimizer over a params dict whose top-level entry `key` (a module of the method's
    own: a head, a flow) gets `own` and every other entry `rest`; the part a phase does not
    train is `frozen`, so both phases share one optimizer state."""
    own, rest = (own, frozen(rest)) if train_own else (frozen(own), rest)

    def labels(params):
        return {k: jax.tree.map(lambda _, k=k: "own" if k == key else "rest", v)
                for k, v in params.items()}

    return optax.multi_transform({"own": own, "rest": rest}, labels)
