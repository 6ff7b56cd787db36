"""OxonFair on DigitsB: per-group thresholds on the ERM run's scores, fitted on validation to
maximise accuracy with an accuracy gap of at most 0.02 (method.objective / method.constraint
pick one of the five combinations; see nhfair_jax/methods/oxonfair.py). Trains the ERM run
first when runs/erm_digitsb does not exist yet.

    python -m nhfair_jax.run --config configs/oxonfair_digitsb.py --workdir runs/oxonfair_digitsb
"""

from nhfair_jax.config import digitsb_config


def get_config():
    return digitsb_config("oxonfair")
