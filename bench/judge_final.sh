#!/usr/bin/env bash
# bench/judge_final.sh — the judge's score of FINAL positions against RE, and
# GNU Go 3.8 (`gnugo --score aftermath`) on a sample of the same games, in one run.
#
# usage: bench/judge_final.sh [BUILD_DIR] [SAMPLE_SIZE]
#   BUILD_DIR    a Release build of hyeongse (default build-release)
#   SAMPLE_SIZE  games given to GNU Go (default 150; ~3-6 s each on 19x19)
# Data: HS_DATA_DIR (default ../shared/data). GNU Go runs 2 games at a time.
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

echo "== hyeongse judge: every eligible game of 9x9, amateur19, pro19"
"$bin" --sample-dir "$tmp" --sample "$n" \
    "$data/9x9/9x9-archive.tar.gz" "$data/amateur19/amateur19-archive.tar.gz" "$data/pro19/pro19-archive.tar.gz"

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

python3 - "$tmp/list.tsv" "$tmp/gnugo.tsv" <<'PY'
import sys, math
lst = {}
for line in open(sys.argv[1]):
    f, part, rules, rec, judged = line.rstrip("\n").split("\t")
    lst[f] = (part, float(rec), float(judged))
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
PY
echo "(judge time per game: see 'ms per game' above; the speed ratio is GNU Go s/game over it)"
