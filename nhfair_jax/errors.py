"""Errors that reach the user as one line (the CLI prints them and exits non-zero)."""


class UserError(Exception):
    """Bad input or a state the user must act on; the message says what and how to fix it."""


class TrainingDiverged(UserError):
    """A non-finite loss; the last good checkpoint is kept."""
