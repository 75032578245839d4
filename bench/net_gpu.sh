#!/usr/bin/env bash
# bench/net_gpu.sh — the one device check of the cuda backend, for a fresh GPU
# machine with this repository at its root: builds only what the check needs
# (HS_NN_ONLY: core + the net engine + cuDNN backend, no cluster libraries),
# runs test_nn_cuda (cuda vs the reference and KataGo's golden outputs; on a
# failure once more under compute-sanitizer), then bench_net --backend cuda and
# its peer, bench/net_torch.py --device cuda (PyTorch, FP16), alternating at
# batch 64 ... 2048, and prints a table with the ratio.
# Budget: about 6 minutes (build ~1-2, parity test ~1, bench 6 x ~2 x 10 s).
#
#   bench/net_gpu.sh [MODEL] [SECONDS]
#     MODEL    the b6c96 .bin.gz (default: ../shared/nets/..., then shared/nets/...)
#     SECONDS  per bench_net batch size (default 5)
# Environment: HS_GPU_ARCH (default 90, an H100/H200; "80;90" for both),
#   HS_GPU_BUILD (build folder, default build-gpu), HS_CUDA_ROOT (the
#   toolkit, default /usr/local/cuda), HS_PYTHON (the peer's
#   python3 with torch, default python3), NET_GPU_BATCHES (default
#   "64 128 256 512 1024 2048"), NET_GPU_PROFILE (batch sizes, e.g. "8 1024":
#   then each is profiled kernel by kernel with Nsight Compute). cuDNN is taken from /usr/local/cuda, else
#   from the system, else from the nvidia-cudnn-cu13 wheel beside PyTorch.
# Exit: 0 all ran and passed; 1 test or bench failed; 2 the machine lacks
# something (says what).
set -u
cd "$(dirname "$0")/.." || exit 2
REL=nets/katago-g170-b6c96/g170-b6c96-s175395328-d26788732.bin.gz
MODEL=${1:-}
SECS=${2:-5}
BUILD=${HS_GPU_BUILD:-build-gpu}
ARCH=${HS_GPU_ARCH:-90}
CUDA=${HS_CUDA_ROOT:-/usr/local/cuda}
PYTHON=${HS_PYTHON:-python3}

if [ -z "$MODEL" ]; then
    for d in ../shared shared; do
        [ -f "$d/$REL" ] && { MODEL=$d/$REL; break; }
    done
fi
if [ -z "$MODEL" ] || [ ! -f "$MODEL" ]; then
    echo "net_gpu: the model is missing (${MODEL:-not in ../shared/$REL nor shared/$REL});" \
         "pass its path as the first argument" >&2
    exit 2
fi
MODEL=$(cd "$(dirname "$MODEL")" && pwd)/$(basename "$MODEL")
# the golden file and its SGFs sit in the same shared tree, when present
DATA=$(cd "$(dirname "$MODEL")/../../data" 2>/dev/null && pwd)
[ -n "$DATA" ] && [ -f "$DATA/SOURCES.md" ] || DATA=""

echo "== machine"
# cuDNN (and cuBLAS): in the toolkit or the system's folders, or else from the
# Python wheels nvidia-cudnn-cu13 / nvidia-cublas that the GPU machines'
# PyTorch brings; those carry versioned library names only, so the wheels'
# headers and libraries are linked into one folder with the plain names too
CUDNN=$CUDA
EXTRA_CMAKE=()
wheel_dir() {   # the folder of the wheel's package nvidia.$1, or nothing
    "$PYTHON" -c "import nvidia.$1 as m; print(list(m.__path__)[0])" 2>/dev/null
}
link_wheel() {  # wheel folder -> /tmp/hs-cuda-wheels/{include,lib}
    local d=$1 f b
    mkdir -p /tmp/hs-cuda-wheels/include /tmp/hs-cuda-wheels/lib
    ln -sf "$d"/include/* /tmp/hs-cuda-wheels/include/
    for f in "$d"/lib/*.so*; do
        b=$(basename "$f")
        ln -sf "$f" "/tmp/hs-cuda-wheels/lib/$b"
        ln -sf "$f" "/tmp/hs-cuda-wheels/lib/${b%%.so*}.so"
    done
}
if [ ! -e "$CUDA/include/cudnn.h" ] && [ ! -e /usr/include/cudnn.h ]; then
    d=$(wheel_dir cudnn) && [ -e "$d/include/cudnn.h" ] && { link_wheel "$d"; CUDNN=/tmp/hs-cuda-wheels; }
fi
if [ ! -e "$CUDA/lib64/libcublas.so" ] && ! ls /usr/lib/x86_64-linux-gnu/libcublas.so >/dev/null 2>&1; then
    d=$(wheel_dir cublas) && [ -e "$d/include/cublas_v2.h" ] && {
        link_wheel "$d"; CUDNN=/tmp/hs-cuda-wheels
        EXTRA_CMAKE+=(-DHS_CUBLAS_LIB=/tmp/hs-cuda-wheels/lib/libcublas.so); }
fi
[ "$CUDNN" = "$CUDA" ] || export LD_LIBRARY_PATH="$CUDNN/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
missing=""
for tool in cmake gcc "$CUDA/bin/nvcc"; do
    command -v "$tool" >/dev/null 2>&1 || missing="$missing $tool"
done
for lib in libcublas.so libcudart.so libcudnn.so; do
    [ -n "$(ls "$CUDA/lib64/$lib" "$CUDNN"/lib*/$lib /usr/lib/x86_64-linux-gnu/$lib 2>/dev/null)" ] \
        || missing="$missing $lib"
done
[ -e "$CUDNN/include/cudnn.h" ] || [ -e /usr/include/cudnn.h ] || missing="$missing cudnn.h"
if [ -n "$missing" ]; then
    echo "net_gpu: this machine lacks:$missing" >&2
    exit 2
fi
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>/dev/null \
    || echo "(no nvidia-smi)"
"$CUDA/bin/nvcc" --version | tail -1
grep -h "define CUDNN_M[AI][JN]OR\|define CUDNN_PATCHLEVEL" "$CUDNN"/include/cudnn_version.h \
    2>/dev/null | awk '{printf "%s ", $3} END {print "(cuDNN, from '"$CUDNN"')"}'
echo "model: $MODEL"
echo "data:  ${DATA:-(none: the golden comparison is left out)}"

echo "== build ($BUILD, HS_NN_ONLY, sm_$ARCH)"
mkdir -p "$BUILD" || exit 2
t0=$(date +%s)
if ! cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DHS_NN_ONLY=ON -DHS_CUDNN=ON \
        -DHS_CUDA_ROOT="$CUDA" -DHS_CUDNN_ROOT="$CUDNN" "${EXTRA_CMAKE[@]}" -DCMAKE_CUDA_ARCHITECTURES="$ARCH" ${DATA:+-DHS_DATA_DIR="$DATA"} \
        > "$BUILD/net_gpu.configure.log" 2>&1; then
    tail -30 "$BUILD/net_gpu.configure.log"
    echo "net_gpu: configure failed (log: $BUILD/net_gpu.configure.log)" >&2
    exit 2
fi
if ! cmake --build "$BUILD" -j"$(nproc)" > "$BUILD/net_gpu.build.log" 2>&1; then
    grep -E "error|Error" "$BUILD/net_gpu.build.log" | head -30
    echo "net_gpu: build failed (log: $BUILD/net_gpu.build.log)" >&2
    exit 2
fi
echo "built in $(( $(date +%s) - t0 )) s"

echo "== test_nn_cuda_errors (the error path)"
"$BUILD/test_nn_cuda_errors" | tail -2
errors_rc=${PIPESTATUS[0]}
[ "$errors_rc" -eq 0 ] || echo "net_gpu: test_nn_cuda_errors failed (exit $errors_rc)" >&2

echo "== test_nn_cuda (cuda vs ref at batch 1, 7, 64, 9x9, 13x13; golden)"
t0=$(date +%s)
HS_NN_MODEL="$MODEL" HS_DATA_DIR="$DATA" timeout 240 "$BUILD/test_nn_cuda"
test_rc=$?
echo "test_nn_cuda: exit $test_rc in $(( $(date +%s) - t0 )) s (0 pass, 77 skipped, 124 timed out)"
if [ "$test_rc" -ne 0 ] && [ "$test_rc" -ne 77 ] && command -v compute-sanitizer >/dev/null; then
    echo "== compute-sanitizer memcheck of test_nn_cuda (after its failure; 120 s at most)"
    HS_NN_MODEL="$MODEL" timeout 120 compute-sanitizer --tool memcheck --print-limit 20 \
        "$BUILD/test_nn_cuda" 2>&1 | grep -v "^check\|^ok " | head -80
fi

echo "== bench_net --backend cuda"
bench_rc=0
if [ ! -x "$BUILD/bench_net" ]; then
    echo "net_gpu: no bench_net in this tree (bench/bench_net.c); bench left out" >&2
    bench_rc=1
else
    table=""
    torch_ok=1
    "$PYTHON" -c 'import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)' 2>/dev/null \
        || { torch_ok=0; echo "net_gpu: $PYTHON has no PyTorch with a GPU: the peer is left out"; }
    for B in ${NET_GPU_BATCHES:-64 128 256 512 1024 2048}; do
        line=$(timeout $((SECS * 4 + 60)) "$BUILD/bench_net" "$MODEL" --backend cuda --batch "$B" \
                   --seconds "$SECS" 2>&1)
        rc=$?
        echo "$line" | tail -3
        eps=$(echo "$line" | sed -n 's/.*evals_per_s=\([0-9.]*\).*/\1/p' | tail -1)
        [ $rc -eq 0 ] && [ -n "$eps" ] || { bench_rc=1; eps="failed (exit $rc)"; }
        teps="-"
        if [ $torch_ok -eq 1 ]; then
            line=$(timeout $((SECS * 4 + 90)) "$PYTHON" bench/net_torch.py "$MODEL" --device cuda \
                       --batch "$B" --seconds "$SECS" 2>&1)
            echo "$line" | tail -3
            teps=$(echo "$line" | sed -n 's/.*evals_per_s=\([0-9.]*\).*/\1/p' | tail -1)
            teps=${teps:-failed}
        fi
        ratio=$(awk -v a="$eps" -v b="$teps" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "-" }')
        table="$table$(printf '%6d  %12s  %12s  %6s' "$B" "$eps" "$teps" "$ratio")"$'\n'
    done
    echo "== table: b6c96, 19x19, FP16, $SECS s per batch and engine"
    printf ' batch  ours evals/s  torch evals/s  ratio\n%s' "$table"
fi
if [ -n "${NET_GPU_PROFILE:-}" ]; then
    # Where a pass's time goes, kernel by kernel (our kernels, cuDNN's, cuBLAS's):
    # Nsight Compute times each kernel of about two passes, after the warm-up
    # and the plan's setup, with the clocks left alone (docs/NET.md lists what
    # was not profiled yet). Kernels run one at a time under it, so the sum is
    # not the pass's wall time: read it for the shares.
    NCU=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
    if [ -z "$NCU" ]; then
        echo "net_gpu: NET_GPU_PROFILE: no ncu here; the profile is left out"
    else
        for B in $NET_GPU_PROFILE; do
            echo "== ncu: kernels of bench_net --backend cuda --batch $B (about two passes)"
            prof="${OUT:-$BUILD}/ncu-batch$B.txt"
            timeout 180 "$NCU" --clock-control none --metrics gpu__time_duration.sum \
                --launch-skip 400 --launch-count 160 --print-summary per-kernel \
                "$BUILD/bench_net" "$MODEL" --backend cuda --batch "$B" --seconds 2 > "$prof" 2>&1
            echo "ncu exit $? (whole output: $prof)"
            # the kernels' names and their times, whatever else the summary holds
            grep -E "^  [^ ]|gpu__time_duration" "$prof" | cut -c1-150 | head -90
        done
    fi
fi
[ $errors_rc -eq 0 ] && [ $test_rc -eq 0 ] && [ $bench_rc -eq 0 ] && exit 0
exit 1
