#!/usr/bin/env bash
# bench/net.sh — nnEvals/s of the b6c96 KataGo net under our CPU engine and two
# peers, in one run, at batch 1, 8, 32 and 128 with every core:
#   ours    BUILD/bench/bench_net MODEL --backend cpu --batch B --threads T
#   torch   bench/net_torch.py (our own PyTorch version of the same net,
#           python3-torch; checked first to give the same raw outputs as our C
#           reference pass within 1e-4 on two fixed inputs, via
#           BUILD/bench/bench_net_ref_probe; the run fails if they differ)
#   katago  KataGo's Eigen (CPU, FP32) backend built from its public source by
#           bench/katago_build.sh, `katago benchmark` with bench/katago_bench.cfg
#
# usage: bench/net.sh [BUILD_DIR]
#   BUILD_DIR   a Release build of hyeongse (default build-release)
# Environment:
#   HS_NET_MODEL   the model (default ../shared/nets/katago-g170-b6c96/g170-b6c96-*.bin.gz)
#   HS_NET_PROBE   bench_net_ref_probe for the torch check (default BUILD_DIR/bench/)
#   NET_SECONDS    seconds per measurement, ours and torch (default 5)
#   NET_RUNS       measurements of each at each batch, alternating; the table
#                  shows the best (default 3; every run's line is printed)
#   NET_BATCHES    batch sizes (default "1 8 32 128")
#   NET_THREADS    threads (default nproc: all cores)
#   HS_PYTHON      a python3 with torch (default: the first of python3,
#                  /usr/bin/python3 that imports torch)
#   KATAGO         a katago binary; else KATAGO_SRC (default /work/peers/katago-src)
#                  is built with bench/katago_build.sh where that source is present
#   KATAGO_VISITS, KATAGO_POSITIONS   the benchmark's -v and -n (default 400, 5)
#   KATAGO_THREADS the benchmark's -t list (default T,2T,4T)
#
# KataGo's benchmark takes no batch size the way ours does: it runs searches,
# and its Eigen backend runs min(search threads, cores) server threads, each
# evaluating single-threaded whatever its searches have queued, in batches of
# at most 2 (v1.17's Setup hard-codes nnMaxBatchSize = 2 for Eigen: big
# batches do not help a single-threaded CPU evaluator). So it runs once, after
# ours and torch, at -t T,2T,4T search threads (T = cores; KATAGO_THREADS to
# change), and its best nnEvals/s over those is the KataGo figure set beside
# ours at every batch size (its avgBatchSize is printed with it).
# Any part that is missing (our bench_net, torch, KataGo's source) is said and
# skipped; the others still run.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build-release}
model=${HS_NET_MODEL:-$here/../../shared/nets/katago-g170-b6c96/g170-b6c96-s175395328-d26788732.bin.gz}
secs=${NET_SECONDS:-5}
runs=${NET_RUNS:-3}
batches=${NET_BATCHES:-1 8 32 128}
threads=${NET_THREADS:-$(nproc)}
visits=${KATAGO_VISITS:-400}
kthreads=${KATAGO_THREADS:-$threads,$((2 * threads)),$((4 * threads))}
npos=${KATAGO_POSITIONS:-5}
[ -f "$model" ] || { echo "no model at $model (set HS_NET_MODEL)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
res=$tmp/results.tsv   # part <TAB> batch <TAB> evals/s <TAB> note
: > "$res"

# ---- which parts run -------------------------------------------------------
ours=$build/bench/bench_net
probe=${HS_NET_PROBE:-$build/bench/bench_net_ref_probe}
[ -x "$ours" ] || { echo "ours: no $ours (build bench_net in a Release build); skipped"; ours=; }

py=
for c in ${HS_PYTHON:-python3 /usr/bin/python3}; do
    if command -v "$c" >/dev/null && "$c" -c 'import torch' 2>/dev/null; then py=$c; break; fi
done
[ -n "$py" ] || echo "torch: no python3 with torch (apt-get install python3-torch); skipped"

katago=${KATAGO:-}
if [ -z "$katago" ]; then
    src=${KATAGO_SRC:-/work/peers/katago-src}
    if [ -f "$src/cpp/CMakeLists.txt" ]; then
        echo "katago: building (or checking) the Eigen backend from $src ..."
        katago=$("$here/katago_build.sh" "$src") || katago=
    else
        echo "katago: no KataGo source at $src (set KATAGO_SRC or KATAGO); skipped"
    fi
fi
[ -z "$katago" ] || [ -x "$katago" ] || { echo "katago: $katago is not executable; skipped"; katago=; }
[ -z "$katago" ] || echo "katago: $katago ($("$katago" version 2>/dev/null | head -1))"

# Other work on the machine changes every figure (OpenMP's spinning threads
# suffer most when cores are shared): say how loaded it was.
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
echo "model: $model"
echo "threads: $threads; batches: $batches; best of $runs runs of ${secs}s (ours, torch)"

# ---- the torch peer computes our net ---------------------------------------
agree=unchecked
if [ -n "$py" ]; then
    if [ -x "$probe" ]; then
        "$probe" "$model" > "$tmp/probe.txt"
        echo "C reference (bench_net_ref_probe):"; sed 's/^/  /' "$tmp/probe.txt"
        echo "torch (net_torch.py --compare):"
        if "$py" "$here/net_torch.py" "$model" --compare "$tmp/probe.txt" > "$tmp/cmp.txt"; then
            agree="yes ($(grep -o 'max |diff| [^ ]*' "$tmp/cmp.txt"))"
        else
            agree="NO ($(tail -1 "$tmp/cmp.txt"))"
        fi
        sed 's/^/  /' "$tmp/cmp.txt"
    else
        echo "no $probe: cannot check the torch peer against our reference pass"
    fi
    echo "torch computes the same net as our reference (1e-4): $agree"
fi

# ---- measurements, per batch: ours, then torch, NET_RUNS times ----------------
field() {  # KEY=VALUE out of a line
    tr ' ' '\n' <<<"$2" | sed -n "s/^$1=//p"
}
for b in $batches; do
    echo
    echo "== batch $b"
    for run in $(seq "$runs"); do   # alternating, so a busy spell hits both
        if [ -n "$ours" ]; then
            line=$("$ours" "$model" --backend cpu --batch "$b" --seconds "$secs" --threads "$threads")
            echo "$line"
            printf 'ours\t%s\t%s\t\n' "$b" "$(field evals_per_s "$line")" >> "$res"
        fi
        if [ -n "$py" ]; then
            line=$("$py" "$here/net_torch.py" "$model" --batch "$b" --seconds "$secs" --threads "$threads")
            echo "$line"
            printf 'torch\t%s\t%s\t\n' "$b" "$(field evals_per_s "$line")" >> "$res"
        fi
    done
done

# ---- KataGo: once, best over its thread counts (see the header) -------------
if [ -n "$katago" ]; then
    echo
    echo "== katago benchmark -t $kthreads -v $visits -n $npos"
    log=$tmp/katago.log
    if "$katago" benchmark -model "$model" -config "$here/katago_bench.cfg" \
            -t "$kthreads" -v "$visits" -n "$npos" > "$log" 2>&1; then
        tr '\r' '\n' < "$log" | grep 'nnEvals/s' | tee "$tmp/katago.lines"
        best=$(python3 -c '
import re, sys
best = None
for line in sys.stdin:
    m = re.search(r"numSearchThreads = *(\d+):.*nnEvals/s = ([\d.]+).*avgBatchSize = ([\d.]+)", line)
    if m and (best is None or float(m.group(2)) > best[1]):
        best = (int(m.group(1)), float(m.group(2)), m.group(3))
if best:
    print("%s\t%d search threads, avg batch %s" % (best[1], best[0], best[2]))' < "$tmp/katago.lines")
        [ -z "$best" ] || printf 'katago\t0\t%s\n' "$best" >> "$res"
    else
        echo "katago benchmark failed:"; tail -5 "$log"
    fi
fi

# ---- table -------------------------------------------------------------------
echo
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
python3 - "$res" "$agree" <<'PY'
import sys
rows, kg, kg_note = {}, None, ""
for line in open(sys.argv[1]):
    part, b, eps, note = line.rstrip("\n").split("\t")
    if not eps:
        continue
    if part == "katago":
        kg, kg_note = float(eps), note
    else:  # best of the runs
        rows[(part, int(b))] = max(float(eps), rows.get((part, int(b)), 0.0))
batches = sorted({b for _, b in rows})
def f(v): return "%9.1f" % v if v is not None else "        -"
def r(a, b): return "%8.2fx" % (a / b) if a is not None and b else "        -"
print("nnEvals/s, b6c96, 19x19, best runs   (torch agrees with our reference: %s)" % sys.argv[2])
print("%5s %9s %9s %9s %9s %9s" % ("batch", "ours", "torch", "katago", "ours/tch", "ours/kg"))
for b in batches:
    o, t = rows.get(("ours", b)), rows.get(("torch", b))
    print("%5d %s %s %s %s %s" % (b, f(o), f(t), f(kg), r(o, t), r(o, kg)))
if kg is not None:
    print("katago: its best run (%s), the same figure at every batch" % kg_note)
PY
# A torch peer that computes another net is no peer: fail the run.
case $agree in NO*) echo "net.sh: the torch peer disagrees with our reference pass" >&2; exit 1 ;; esac
