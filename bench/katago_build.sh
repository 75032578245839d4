#!/usr/bin/env bash
# bench/katago_build.sh — builds KataGo's Eigen (CPU, FP32) backend from a source
# tree, so bench/net.sh can measure the same weights under KataGo itself.
#
# usage: bench/katago_build.sh [SRC_DIR] [BUILD_DIR]
#   SRC_DIR    a KataGo source tree, the one holding cpp/ (default $KATAGO_SRC,
#              else /work/peers/katago-src). Never put it inside this repo: it is
#              KataGo's code, and we only measure against it.
#   BUILD_DIR  where to build (default $KATAGO_BUILD, else SRC_DIR/../katago-build)
# Prints the path of the built katago binary on its last line (stdout); the
# build's own output goes to BUILD_DIR/build.log. Rebuilding an up-to-date tree
# is a no-op. Jobs: $KATAGO_JOBS (default 2, niced: other builds share the box).
# Needs cmake, a C++ compiler, libeigen3-dev, libzip-dev and zlib1g-dev
# (scripts/install-deps.sh --bench installs them).
set -euo pipefail
src=${1:-${KATAGO_SRC:-/work/peers/katago-src}}
[ -f "$src/cpp/CMakeLists.txt" ] || { echo "no KataGo source at $src (want $src/cpp/CMakeLists.txt)" >&2; exit 1; }
src=$(cd "$src" && pwd)
build=${2:-${KATAGO_BUILD:-$(dirname "$src")/katago-build}}
jobs=${KATAGO_JOBS:-2}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
case "$build/" in
    "$repo"/*) echo "refusing to build KataGo inside this repo ($build)" >&2; exit 1 ;;
esac
mkdir -p "$build"
build=$(cd "$build" && pwd)
log=$build/build.log

# AVX2 is what KataGo's docs recommend for modern x86; fall back where the CPU
# lacks it, so the binary runs rather than dying on an illegal instruction.
avx2=0
grep -qw avx2 /proc/cpuinfo 2>/dev/null && grep -qw fma /proc/cpuinfo && avx2=1

{
    echo "== $(date -u +%FT%TZ) cmake $src/cpp (EIGEN, USE_AVX2=$avx2)"
    # No git revision: the tree is an export, not a checkout.
    cmake -S "$src/cpp" -B "$build" -DCMAKE_BUILD_TYPE=Release \
        -DUSE_BACKEND=EIGEN -DUSE_AVX2=$avx2 -DNO_GIT_REVISION=1
    echo "== $(date -u +%FT%TZ) build -j$jobs"
    nice -n 10 cmake --build "$build" -j"$jobs"
    echo "== $(date -u +%FT%TZ) done"
} >>"$log" 2>&1 || { echo "KataGo build failed; see $log" >&2; tail -20 "$log" >&2; exit 1; }

bin=$build/katago
[ -x "$bin" ] || { echo "build finished but $bin is missing; see $log" >&2; exit 1; }
echo "katago: $("$bin" version 2>/dev/null | head -1)" >&2
echo "$bin"
