"""Which random draw a sweep's trial makes: the same however many workers ran the study, and
whichever of them were killed.

`NumberSeededTPE` seeds each trial's random draws from (sampler seed, draw number). A new
trial's draw number counts the new trials before it, so the k-th new trial of a study draws the
same configuration whatever trials were retried in between; a retry of a trial whose worker was
lost (before or after it drew) draws as that trial did. With every trial random (the startup
phase), a study is then the same set of configurations however its workers fared.
"""

from __future__ import annotations


def is_retry(trial) -> bool:
    """A retry of a lost trial: made by the sweep (`retry_of`) or by Optuna's failed-trial
    callback (`retry_history`)."""
    return "retry_of" in trial.user_attrs or "retry_history" in trial.system_attrs


def draw_number(study, trial) -> int:
    """The draw number of `trial` (see the module's docstring)."""
    if "draw_number" in trial.user_attrs:
        return int(trial.user_attrs["draw_number"])
    trials = study.get_trials(deepcopy=False)
    history = trial.system_attrs.get("retry_history")
    if history:  # Optuna's callback: draw as the first trial it retries
        first = next((t for t in trials if t.number == int(history[0])), None)
        if first is not None and first.number != trial.number:
            return draw_number(study, first)
    return sum(t.number < trial.number and not is_retry(t) for t in trials)


def _number_seeded_tpe():
    import optuna

    class NumberSeeded(optuna.samplers.TPESampler):
        """TPE whose random draws for a trial depend on (seed, draw number), not on which
        process samples it: workers sharing a study never draw the same startup
        configuration, and a study's random phase is the same however many workers ran it."""

        def __init__(self, *, seed: int, **kw):
            super().__init__(seed=seed, **kw)
            self._base_seed = int(seed)

        def before_trial(self, study, trial):
            s = (self._base_seed * 1_000_003 + draw_number(study, trial) * 7919) % 2**32
            self._rng.rng.seed(s)
            self._random_sampler._rng.rng.seed(s)
            super().before_trial(study, trial)

    return NumberSeeded


def NumberSeededTPE(**kw):  # noqa: N802 - a class made on first use (optuna imports lazily)
    return _number_seeded_tpe()(**kw)
