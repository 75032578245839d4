#!/usr/bin/env bash
# tests/test_hsn_roundtrip.sh — the whole path of our own net, end to end:
# `hyeongse label` (rollouts) makes shards of a few random 9x9 games, the
# PyTorch trainer trains a tiny net on them and exports it to .hsn, then the
# C engine loads that file and its outputs (`gtp kata-raw-nn`) are compared
# number by number with the trainer's own forward of the same file on the
# same sample's planes (tests/hsn_roundtrip.py says what is compared). This
# is what ties the shard writer, the input planes, the exporter and the C
# loader together. Skips (77) where /usr/bin/python3 has no torch or numpy.
set -euo pipefail
bin=${HS_BIN:?HS_BIN must name the hyeongse binary}
here=$(cd "$(dirname "$0")" && pwd)
py=${HS_TRAIN_PYTHON:-/usr/bin/python3}
if ! "$py" -c 'import torch, numpy' 2>/dev/null; then
    echo "SKIP: $py has no torch/numpy (Debian python3-torch)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$bin" playout --size 9 --games 8 --seed 5 --out "$tmp/games" >/dev/null
"$bin" label "$tmp/games" --out "$tmp/labels" --visits 8 --every 5 --val-percent 30 \
    --threads 1 2>"$tmp/label.log" || { cat "$tmp/label.log"; exit 1; }
cat > "$tmp/tiny.json" <<'JSON'
{"board_size": 9, "blocks": 1, "channels": 8, "input_kernel": 3,
 "P": 4, "G": 4, "V": 4, "H": 8, "batch": 16, "steps": 20, "lr": 0.02,
 "warmup_steps": 5, "log_every": 10, "val_every": 20, "val_samples": 64,
 "checkpoint_every": 20}
JSON
"$py" "$here/../train/train.py" --data "$tmp/labels" --config "$tmp/tiny.json" \
    --out "$tmp/train" --seed 3 --threads 1 >"$tmp/train.log" 2>&1 \
    || { cat "$tmp/train.log"; exit 1; }
"$py" "$here/../train/export.py" "$tmp/train/checkpoint.pt" "$tmp/tiny.hsn" >/dev/null
exec "$py" "$here/hsn_roundtrip.py" "$bin" "$tmp/labels" "$tmp/tiny.hsn" "$here/../train"
