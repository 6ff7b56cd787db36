"""`python -m nhfair_jax.evaluate` (see nhfair_jax.evaluate)."""

import sys

from nhfair_jax.evaluate.cli import main

sys.exit(main())
