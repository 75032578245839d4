#!/usr/bin/env bash
# Installs the packages (scripts/install-deps.sh) and builds a Release hyeongse in
# build/. Afterwards: build/hyeongse --help.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j"$(nproc)"
echo "setup: built build/hyeongse"
