#!/usr/bin/env bash
# Installs the packages (scripts/install-deps.sh) and builds a Release hyeongse in
# build/. Afterwards: build-release/cli/hyeongse --help.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build-release -j"$(nproc)"
echo "setup: built build-release/cli/hyeongse"
