#!/usr/bin/env bash
# Installs (with sudo when not root) every Debian package hyeongse needs to build
# and test, and @sabaki/sgf (Node.js, npm) for the test that reads our SGF with
# it; with --bench also the peers and tools the bench/ scripts use (GNU Go,
# hyperfine, bc; Eigen and libzip to build KataGo's Eigen backend for
# bench/net.sh). python3-torch is always installed:
# tests/test_nn_torch_peer.sh checks the PyTorch peer computes our net; cairo
# draws the report's PNGs and Chromium opens the report in
# tests/test_report_browser.sh (GNU time measures bench/report.sh's memory).
# ansible and ansible-lint: tests/test_ansible.sh lints ansible/ and deploys it
# on localhost (its local mode).
# Used by README's first command and by .ci/run (CI starts from a fresh clone).
set -euo pipefail
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
    build-essential cmake pkg-config clang libclang-rt-dev \
    libzmq3-dev libmsgpack-dev liblmdb-dev lmdb-utils libarchive-dev zlib1g-dev libdnnl-dev \
    libcairo2-dev fonts-dejavu-core chromium \
    python3 python3-torch ca-certificates ansible ansible-lint nodejs >/dev/null
# Debian's nodejs needs its npm package; NodeSource's nodejs carries npm and
# conflicts with Debian's npm, so ask for it only where it is missing.
command -v npm >/dev/null || $SUDO apt-get install -y -qq --no-install-recommends npm >/dev/null
# @sabaki/sgf, the parser Sabaki opens files with: tests/test_report_sgf_sabaki.sh
# reads our annotated SGF with it (and bench/sgf_parse.sh times it); from npm's
# registry, pinned by bench/package-lock.json, into bench/node_modules
root=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -d "$root/bench/node_modules/@sabaki/sgf" ]; then
    (cd "$root/bench" && npm ci --no-audit --no-fund --loglevel=error >/dev/null) ||
        echo "install-deps: npm could not install @sabaki/sgf into bench/node_modules:" \
             "test_report_sgf_sabaki will skip"
fi
# The cuda backend needs NVIDIA's CUDA 13 toolkit with cuDNN 9 and cuBLAS, which
# Debian does not package: it is built where they are (HS_CUDNN, /usr/local/cuda).
[ -x /usr/local/cuda/bin/nvcc ] || echo "install-deps: no CUDA toolkit in /usr/local/cuda: the cuda backend will not be built"
if [ "${1:-}" = "--bench" ]; then
    $SUDO apt-get install -y -qq --no-install-recommends \
        gnugo hyperfine bc time valgrind \
        libeigen3-dev libzip-dev >/dev/null
fi
echo "install-deps: build and test packages installed"
