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


class UnknownName(UserError, ValueError):
    """A name (method, data set, model, ...) that is not among the known ones: the message
    lists them and suggests the closest."""

    def __init__(self, kind: str, name, known):
        import difflib

        known = list(known)
        close = difflib.get_close_matches(str(name), [str(k) for k in known], n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        super().__init__(f"unknown {kind} {name!r}{hint}; known: {', '.join(map(str, known))}")
        self.kind, self.name, self.known = kind, name, known
