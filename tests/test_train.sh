#!/usr/bin/env bash
# tests/test_train.sh — the PyTorch trainer (train/): synthetic shards, a short
# training run, determinism, resume, export and the exported net's forward
# (tests/train_test.py says what each check asserts). Skips (77) where
# /usr/bin/python3 has no torch or numpy: the trainer needs both.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
py=${HS_TRAIN_PYTHON:-/usr/bin/python3}
if ! "$py" -c 'import torch, numpy' 2>/dev/null; then
    echo "SKIP: $py has no torch/numpy (Debian python3-torch)"
    exit 77
fi
exec "$py" "$here/train_test.py"
