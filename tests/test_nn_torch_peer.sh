#!/usr/bin/env bash
# tests/test_nn_torch_peer.sh — our model reader and C reference pass against
# an independent implementation of the same net: bench/net_torch.py (PyTorch,
# the peer bench/net.sh measures) and bench/bench_net_ref_probe must give the
# same raw outputs (value, score, pass, policy and ownership samples) on two
# fixed inputs within 1e-4. This is also what makes the PyTorch peer's speed
# comparable to ours. Skips (77) without ../shared's b6c96 net, without a
# python3 that has torch (python3-torch), or without the probe (a build
# without the bench programs).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
model=${HS_DATA_DIR:-$here/../../shared/data}/../nets/katago-g170-b6c96/g170-b6c96-s175395328-d26788732.bin.gz
probe=$(dirname "${HS_BIN:-$here/../build-release/cli/hyeongse}")/../bench/bench_net_ref_probe
[ -f "$model" ] || { echo "skip: no b6c96 net at $model"; exit 77; }
[ -x "$probe" ] || { echo "skip: no $probe"; exit 77; }
py=
for c in ${HS_PYTHON:-python3 /usr/bin/python3}; do
    if command -v "$c" >/dev/null && "$c" -c 'import torch' 2>/dev/null; then py=$c; break; fi
done
[ -n "$py" ] || { echo "skip: no python3 with torch (apt-get install python3-torch)"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$probe" "$model" > "$tmp/probe.txt"
[ "$(wc -l < "$tmp/probe.txt")" -eq 2 ] || { echo "FAIL: the probe printed:"; cat "$tmp/probe.txt"; exit 1; }
if "$py" "$here/../bench/net_torch.py" "$model" --threads 1 --compare "$tmp/probe.txt"; then
    echo "ok: the PyTorch net agrees with our reference pass"
else
    echo "FAIL: the PyTorch net and our reference pass disagree"; cat "$tmp/probe.txt"
    exit 1
fi
