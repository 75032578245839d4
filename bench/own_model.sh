#!/usr/bin/env bash
# bench/own_model.sh — issue 16's checks of our own model in one run, each
# section printing its figures, then one markdown table for the README:
#   (a) ownership sign agreement with the labels at moves 50, 100, 150, 200
#       and the final position on the validation games: OURS, B6C96, the static
#       judge and Park's influence areas (bench_ownership);
#   (b) the final result of the counted games: the net judge (`judge --engine
#       net --net FILE`) with OURS and with B6C96, exact / within 1 point:
#       bench/judge_final.sh with HS_NET, once per model (GNU Go's sample is
#       OWN_GNUGO games, 0 by default: GNU Go compares no model);
#   (c) training cost: samples/s and the wall time of the training, from the
#       trainer's OUT/log.jsonl (train/train.py);
#   (d) inference: evals/s of OURS and B6C96 on the cpu backend, bench_net the
#       same way for both (random inputs, 19x19, same batch and threads).
#
# usage: bench/own_model.sh BUILD LABELS OURS.hsn B6C96.bin.gz [TRAIN_LOG]
#   BUILD      a Release build (bench_ownership, bench_judge_final, bench_judge_net, bench_net)
#   LABELS     a labels folder (`hyeongse label ... --out LABELS`)
#   OURS.hsn   our model (models/hyeongse-default.hsn); any model file works
#   B6C96      the KataGo model (../shared/nets/katago-g170-b6c96/*.bin.gz)
#   TRAIN_LOG  the trainer's log.jsonl; without it (c) says so and is skipped
# Environment (small values make a quick run):
#   OWN_BACKEND     net backend for (a) and (b): ref, cpu, cuda (default cpu)
#   OWN_MAX_GAMES   (a): only the first N validation games (default: all)
#   OWN_EVERY       (b): games whose id/2 is a multiple of K (default 1: all)
#   OWN_GNUGO       (b): judge_final.sh's GNU Go sample per model (default 0)
#   OWN_SKIP        sections to leave out, e.g. "b" or "bd"
#   NET_BATCH, NET_SECONDS, NET_THREADS, NET_RUNS   (d): batch (32), seconds
#                   per measurement (5), threads (nproc), measurements of each
#                   model, alternating, the best kept (3: other work on the
#                   machine only ever slows a run down)
#   HS_DATA_DIR     archives for (b) (default ../shared/data)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
[ $# -ge 4 ] || { echo "usage: $0 BUILD LABELS OURS.hsn B6C96.bin.gz [TRAIN_LOG]" >&2; exit 2; }
build=$1 labels=$2 ours=$3 b6=$4 trainlog=${5:-}
backend=${OWN_BACKEND:-cpu}
skip=${OWN_SKIP:-}
data=${HS_DATA_DIR:-$here/../../shared/data}
for f in "$ours" "$b6"; do [ -f "$f" ] || { echo "no model $f" >&2; exit 1; }; done
for b in bench_ownership bench_judge_final bench_judge_net bench_net; do
    [ -x "$build/bench/$b" ] || { echo "no $build/bench/$b: build a Release build first" >&2; exit 1; }
done
py=python3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
t_start=$(date +%s)
skipped() { case $skip in *"$1"*) return 0;; esac; return 1; }

# ---- (a) ---------------------------------------------------------------------
if ! skipped a; then
    echo "== (a) ownership sign agreement with the labels ($labels, validation games)"
    t0=$(date +%s)
    "$build/bench/bench_ownership" --labels "$labels" --net "ours=$ours" --net "b6c96=$b6" \
        --backend "$backend" ${OWN_MAX_GAMES:+--max-games "$OWN_MAX_GAMES"} --json > "$tmp/a.json"
    $py - "$tmp/a.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
cols = r["columns"]
print("%d validation games, %.1f s" % (r["games"], r["seconds"]))
print("%-12s" % "" + "".join("%10s" % ("move " + c if c != "final" else c) for c in cols) + "%10s" % "seconds")
print("%-12s" % "samples" + "".join("%10d" % n for n in r["samples"]))
for m in r["methods"]:
    print("%-12s" % m["name"] + "".join("%10s" % ("-" if a is None else "%.1f%%" % (100 * a))
                                        for a in m["agreement"]) + "%10.1f" % m["seconds"])
PY
    echo "(a) took $(( $(date +%s) - t0 )) s"
    echo
fi

# ---- (b) ---------------------------------------------------------------------
if ! skipped b; then
    echo "== (b) final result of the counted games: the net judge with each model (every ${OWN_EVERY:-1})"
    for name in ours b6c96; do
        f=$ours; [ $name = b6c96 ] && f=$b6
        t0=$(date +%s)
        HS_NET=$f HS_NN_BACKEND=$backend HS_BENCH_EVERY=${OWN_EVERY:-1} HS_DATA_DIR=$data \
            "$here/judge_final.sh" "$build" "${OWN_GNUGO:-0}" > "$tmp/b-$name.out"
        grep -E "^(net judge|judge, 256|time per game|[0-9]+ games read|GNU Go 3.8  |judge \(256)" \
            "$tmp/b-$name.out" | sed "s/^/$name: /"
        echo "$name: $(( $(date +%s) - t0 )) s"
    done
    echo
fi

# ---- (c) ---------------------------------------------------------------------
if ! skipped c; then
    echo "== (c) training cost"
    if [ -n "$trainlog" ] && [ -f "$trainlog" ]; then
        $py - "$trainlog" > "$tmp/c.txt" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
train = [r for r in rows if r.get("kind") == "train" and "samples_per_s" in r]
ends = [r for r in rows if r.get("kind") == "end"]
starts = [r for r in rows if r.get("kind") == "start"]
if not train:
    print("no training lines in the log"); sys.exit(0)
sps = sorted(r["samples_per_s"] for r in train)
wall = sum(r.get("seconds", 0) for r in ends)
cfg = starts[-1].get("config", {}) if starts else {}
dev = starts[-1].get("device", "?") if starts else "?"
thr = starts[-1].get("threads", "?") if starts else "?"
steps = max(r["step"] for r in train)
print("log %s: %d sessions, %d steps, batch %s, device %s, %s threads" % (
    sys.argv[1], len(starts), steps, cfg.get("batch", "?"), dev, thr))
print("samples/s: median %.1f (min %.1f, max %.1f over %d log windows)" % (
    sps[len(sps) // 2], sps[0], sps[-1], len(sps)))
if ends:
    print("training wall time: %.0f s (%.2f h), validation and checkpoints included" % (wall, wall / 3600))
else:
    print("training wall time: no end line (the run did not finish)")
print("SUMMARY sps=%.1f wall=%.0f device=%s threads=%s" % (sps[len(sps) // 2], wall, dev, thr))
PY
        grep -v '^SUMMARY' "$tmp/c.txt"
    else
        echo "no training log given (5th argument: the trainer's OUT/log.jsonl); skipped"
    fi
    echo
fi

# ---- (d) ---------------------------------------------------------------------
if ! skipped d; then
    batch=${NET_BATCH:-32} secs=${NET_SECONDS:-5} threads=${NET_THREADS:-$(nproc)} runs=${NET_RUNS:-3}
    echo "== (d) inference, cpu backend, 19x19, batch $batch, $threads threads, best of $runs x $secs s"
    for r in $(seq "$runs"); do
        for name in ours b6c96; do
            f=$ours; [ $name = b6c96 ] && f=$b6
            "$build/bench/bench_net" "$f" --backend cpu --batch "$batch" --threads "$threads" \
                --seconds "$secs" | tee -a "$tmp/d-$name.out" | sed "s/^/$name run $r: /"
        done
    done
    echo
fi

# ---- summary -------------------------------------------------------------------
echo "== summary (markdown; total run time $(( $(date +%s) - t_start )) s)"
$py - "$tmp" <<'PY'
import json, os, re, sys
tmp = sys.argv[1]
def read(name):
    p = os.path.join(tmp, name)
    return open(p).read() if os.path.exists(p) else None
pct = lambda a: "-" if a is None else "%.1f%%" % (100 * a)
a = read("a.json")
if a:
    r = json.loads(a)
    cols = ["move " + c if c != "final" else "final" for c in r["columns"]]
    print("| ownership sign agreement (%d val games) | %s |" % (r["games"], " | ".join(cols)))
    print("|---|" + "---|" * len(cols))
    print("| samples | %s |" % " | ".join(str(n) for n in r["samples"]))
    by = {m["name"]: m["agreement"] for m in r["methods"]}
    for m in r["methods"]:
        print("| %s | %s |" % (m["name"], " | ".join(pct(x) for x in m["agreement"])))
    print()
    o, k, j = by.get("ours"), by.get("b6c96"), by.get("judge")
    if o and k and j and o[2] is not None and k[2] is not None:
        near = o[2] >= k[2] - 0.02
        both = [(x, y) for x, y in zip(o, j) if x is not None and y is not None]
        above = all(x > y for x, y in both)
        print("Goal (ours within 2 points of b6c96 at move 150, above the judge at every column): "
              "%s (move 150: %s vs %s; above the judge: %s)." % (
                  "met" if near and above else "not met", pct(o[2]), pct(k[2]), "yes" if above else "no"))
        print()
rows, judge_row = [], None
for name in ("ours", "b6c96"):
    b = read("b-%s.out" % name)
    d = read("d-%s.out" % name)
    m = re.search(r"^net judge.*?(\d+) games\s+exact\s+([\d.]+)%\s+within 1\s+([\d.]+)%", b or "", re.M)
    e = [float(x) for x in re.findall(r"evals_per_s=([\d.]+)", d or "")]
    rows.append((name, "%s%% / %s%% (%s games)" % (m.group(2), m.group(3), m.group(1)) if m else "-",
                 "%.1f" % max(e) if e else "-"))
    j = re.search(r"^judge, 256 playouts\s+(\d+) games\s+exact\s+([\d.]+)%\s+within 1\s+([\d.]+)%", b or "", re.M)
    if name == "ours" and j:
        judge_row = ("judge (256 playouts, no net)", "%s%% / %s%% (%s games)" % (j.group(2), j.group(3), j.group(1)), "-")
if any(x != "-" for r in rows for x in r[1:]):
    print("| model | final result: exact / within 1 | evals/s (cpu) |")
    print("|---|---|---|")
    for r in rows + ([judge_row] if judge_row else []):
        print("| %s | %s | %s |" % r)
    print()
c = read("c.txt")
s = re.search(r"SUMMARY sps=([\d.]+) wall=([\d.]+) device=(\S+) threads=(\S+)", c or "")
if s:
    print("Training: %s samples/s (%s, %s threads), wall time %.2f h." % (
        s.group(1), s.group(3), s.group(4), float(s.group(2)) / 3600))
PY
