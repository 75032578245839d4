#!/usr/bin/env bash
# bench/judge_final.sh — the judge's score of FINAL positions against RE, and
# GNU Go 3.8 (`gnugo --score aftermath`) on a sample of the same games, in one run.
#
# usage: bench/judge_final.sh [BUILD_DIR] [SAMPLE_SIZE]
#   BUILD_DIR    a Release build of hyeongse (default build-release)
#   SAMPLE_SIZE  games given to GNU Go (default 150; ~3-6 s each on 19x19)
# Data: HS_DATA_DIR (default ../shared/data). GNU Go runs 2 games at a time.
# The net judge too (bench_judge_net.c: net judge and the judge with playouts
# on the same games, then GNU Go on the sample, one table): set
#   HS_NET=FILE.bin.gz    the KataGo model (e.g. ../shared/nets/katago-g170-b6c96/...)
#   HS_NN_BACKEND=B       ref, cpu or cuda (default: the fastest built)
#   HS_BENCH_EVERY=K      only games whose id/2 is a multiple of K (a sample for
#                         the slow ref backend; default 1, every game)
# Which games count, exactly: see the comment at the top of bench_judge_final.c
# (counted RE "B+n"/"W+n" with n > 0; Fox records excluded for their KM/RU; RU
# missing and KM 7.5 read as Chinese rules).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-$here/../build-release}
n=${2:-150}
data=${HS_DATA_DIR:-$here/../../shared/data}
bin=$build/bench/bench_judge_final
gnugo=$(command -v gnugo || echo /usr/games/gnugo)
[ -x "$bin" ] || { echo "no $bin: build with -DCMAKE_BUILD_TYPE=Release first" >&2; exit 1; }
[ -x "$gnugo" ] || { echo "GNU Go not found (apt-get install gnugo)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

archives=("$data/9x9/9x9-archive.tar.gz" "$data/amateur19/amateur19-archive.tar.gz" "$data/pro19/pro19-archive.tar.gz")
if [ -n "${HS_NET:-}" ]; then
    echo "== net judge and hyeongse judge (256 playouts) on the same games of 9x9, amateur19, pro19"
    "$build/bench/bench_judge_net" --net "$HS_NET" ${HS_NN_BACKEND:+--backend "$HS_NN_BACKEND"} \
        --every "${HS_BENCH_EVERY:-1}" --sample-dir "$tmp" --sample "$n" "${archives[@]}" | tee "$tmp/net.out"
else
    echo "== hyeongse judge: every eligible game of 9x9, amateur19, pro19"
    "$bin" --sample-dir "$tmp" --sample "$n" "${archives[@]}"
fi

echo
echo "== GNU Go 3.8 --score aftermath on the sample ($n games, kgs + kgs-counted + 9x9, lowest game ids)"
run_one() {  # file rules -> "file<TAB>margin<TAB>seconds"
    local f=$1 rules=$2 flag=
    [ "$rules" = area ] && flag=--chinese-rules
    local t0 t1 out
    t0=$(date +%s.%N)
    out=$("$3" --score aftermath $flag -l "$f" 2>/dev/null | grep -E "wins by|Jigo|jigo" | tail -1 || true)
    t1=$(date +%s.%N)
    local m=nan
    if [[ $out =~ Black\ wins\ by\ ([0-9.]+) ]]; then m=${BASH_REMATCH[1]}
    elif [[ $out =~ White\ wins\ by\ ([0-9.]+) ]]; then m=-${BASH_REMATCH[1]}
    elif [[ $out =~ [Jj]igo ]]; then m=0; fi
    printf '%s\t%s\t%s\n' "$(basename "$f")" "$m" "$(echo "$t1 - $t0" | bc)"
}
export -f run_one
cut -f1,3 "$tmp/list.tsv" | while IFS=$'\t' read -r f rules; do printf '%s %s\n' "$tmp/$f" "$rules"; done |
    xargs -P 2 -n 2 bash -c 'run_one "$0" "$1" '"$gnugo" > "$tmp/gnugo.tsv"

python3 - "$tmp/list.tsv" "$tmp/gnugo.tsv" "$tmp/net.out" <<'PY'
import sys, math, os, re
lst = {}
for line in open(sys.argv[1]):
    cols = line.rstrip("\n").split("\t")
    f, part, rules, rec, judged = cols[:5]
    lst[f] = (part, float(rec), float(judged), float(cols[5]) if len(cols) > 5 else None)
gg = {}
for line in open(sys.argv[2]):
    f, m, t = line.rstrip("\n").split("\t")
    gg[f] = (float(m), float(t))
def stats(pairs):
    n = len(pairs)
    ex = sum(1 for a, b in pairs if not math.isnan(a) and abs(a - b) < 1e-6)
    w1 = sum(1 for a, b in pairs if not math.isnan(a) and abs(a - b) <= 1 + 1e-6)
    return n, 100.0 * ex / max(n, 1), 100.0 * w1 / max(n, 1)
files = sorted(lst)
j = stats([(lst[f][2], lst[f][1]) for f in files])
g = stats([(gg.get(f, (float("nan"), 0))[0], lst[f][1]) for f in files])
gt = sum(gg[f][1] for f in files if f in gg) / max(len(gg), 1)
parts = {}
for f in files: parts[lst[f][0]] = parts.get(lst[f][0], 0) + 1
print("sample: %d games (%s)" % (len(files), ", ".join("%s %d" % kv for kv in sorted(parts.items()))))
print("  hyeongse judge on the sample: exact %.1f%%, within 1 point %.1f%%" % (j[1], j[2]))
print("  GNU Go 3.8 on the sample:     exact %.1f%%, within 1 point %.1f%%, %.2f s per game" % (g[1], g[2], gt))
fails = sum(1 for f in files if f not in gg or math.isnan(gg[f][0]))
if fails: print("  (GNU Go gave no score for %d games; counted as misses)" % fails)
if files and lst[files[0]][3] is not None:
    nj = stats([(lst[f][3], lst[f][1]) for f in files])
    print("  net judge on the sample:      exact %.1f%%, within 1 point %.1f%%" % (nj[1], nj[2]))
    rows = {}
    if os.path.exists(sys.argv[3]):
        for line in open(sys.argv[3]):
            m = re.match(r"^(net judge.*?|judge, 256 playouts)\s+(\d+) games\s+exact\s+([\d.]+)%\s+within 1\s+([\d.]+)%", line)
            if m: rows[m.group(1).split(" (")[0]] = m.groups()[1:]
    print()
    print("%-28s %10s %8s %10s   %10s %8s %10s" % ("", "games", "exact", "within 1", "sample", "exact", "within 1"))
    for name, key, s in (("net judge", "net judge", nj), ("judge (256 playouts)", "judge, 256 playouts", j)):
        r = rows.get(key, ("-", "-", "-"))
        print("%-28s %10s %7s%% %9s%%   %10d %7.1f%% %9.1f%%" % (name, r[0], r[1], r[2], s[0], s[1], s[2]))
    print("%-28s %10s %8s %10s   %10d %7.1f%% %9.1f%%" % ("GNU Go 3.8", "-", "-", "-", g[0], g[1], g[2]))
PY
echo "(judge time per game: see 'ms per game' above; the speed ratio is GNU Go s/game over it)"
