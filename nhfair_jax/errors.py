"""Errors that reach the user as one line (the CLI prints them and exits non-zero)."""


class UserError(Exception):
    """Bad input or a state the user must act on; the message says what and how to fix it."""


class TrainingDiverged(UserError):
    """A non-finite loss; the last good checkpoint is kept."""


class RunPruned(Exception):
    """A sweep's pruner stopped a trial's run after `epoch` (its checkpoints and log are kept)."""

    def __init__(self, epoch: int, value: float):
        super().__init__(f"pruned after epoch {epoch} (intermediate value {value:.4g})")
        self.epoch, self.value = epoch, value
