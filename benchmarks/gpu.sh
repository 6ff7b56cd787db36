#!/usr/bin/env bash
# The accelerator benchmark (benchmarks/gpu.py): ResNet-18 224 px train step, FIS scoring paths
# and the data-parallel step, JAX against PyTorch when torch with CUDA is installed. Installs
# nothing; says so and exits 0 on a machine without an accelerator.
#   bash benchmarks/gpu.sh [OUT.json]     (default benchmarks/results/gpu.json)
# The interpreter is $PYTHON when set (e.g. PYTHON=.venv/bin/python for a virtual environment
# that is not activated), else the first python3 / python on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-$(command -v python3 || command -v python)}
exec "$python" benchmarks/gpu.py --json "${1:-benchmarks/results/gpu.json}"
