#!/usr/bin/env bash
# bench/value_quality.sh — value quality in the middle game: on the counted
# pro games, predict the recorded winner from the position after moves 100,
# 150 and 200 with four methods in one run, and print accuracy and log loss:
#   mcts    the tree search with the net evaluator, 100 visits (bench_value)
#   net     the raw net (symmetry 0), its win probability
#   judge   the static judge's score (mid-game configuration)
#   gnugo   GNU Go 3.8's estimate_score (gnugo --mode gtp; loadsgf FILE M+1;
#           estimate_score), --chinese-rules for games under area scoring
#
# usage: bench/value_quality.sh NET.bin.gz [GAMES] [BUILD_DIR]
#   NET        a KataGo model (e.g. ../shared/nets/katago-g170-b6c96/*.bin.gz)
#   GAMES      the first GAMES eligible games in archive order (default: all)
#   BUILD_DIR  a Release build (default build-release)
# Environment: HS_DATA_DIR (default ../shared/data; the archive is
# pro19/pro19-archive.tar.gz), HS_NN_BACKEND (ref, cpu, cuda), VISITS (100),
# THREADS (leaves per search step, 8), MOVES (100,150,200), GNUGO (binary),
# GNUGO_JOBS (GNU Go processes at once, default 2), VALUE_NO_FOX=1 (leave the
# Fox records out: pro19 then has only the 15 AlphaGo games; by default the
# Fox records whose KM is a Fox komi code are in, KM[0] never).
# Which games count: bench/bench_value.c's comment (counted RE "B+n"/"W+n").
#
# Probabilities. mcts and net give Black's win probability. judge and gnugo
# give a score only; it becomes a probability by a logistic of the margin,
# p = 1 / (1 + exp(-score / s)), with the scale s fitted (least log loss, a
# grid of 0.5..60 points) per method and move number on the OTHER half of the
# games (halves by game id), so no position is predicted with a scale fitted on
# its own game; where the other half has fewer than 10 positions, s = 10
# points (fixed). Every probability is clipped to [0.01, 0.99] for the log
# loss. Accuracy: the predicted winner is the side with p > 0.5 (p = 0.5
# counts as wrong). n = positions (a game counts at each move it reaches).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
net=${1:?usage: bench/value_quality.sh NET.bin.gz [GAMES] [BUILD_DIR]}
games=${2:-1000000}
build=${3:-$here/../build-release}
data=${HS_DATA_DIR:-$here/../../shared/data}
bin=$build/bench/bench_value
gnugo=${GNUGO:-$(command -v gnugo || echo /usr/games/gnugo)}
[ -x "$bin" ] || { echo "no $bin: build with -DCMAKE_BUILD_TYPE=Release first" >&2; exit 1; }
[ -x "$gnugo" ] || { echo "GNU Go not found (apt-get install gnugo)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "== $(date -u +%FT%TZ) value quality, hyeongse $(git -C "$here/.." rev-parse --short HEAD 2>/dev/null || echo '?'), $("$gnugo" --version | head -1)"
fox=--with-fox
[ -n "${VALUE_NO_FOX:-}" ] && fox=
"$bin" --net "$net" ${HS_NN_BACKEND:+--backend "$HS_NN_BACKEND"} --visits "${VISITS:-100}" \
    --threads "${THREADS:-8}" --games "$games" --moves "${MOVES:-100,150,200}" $fox \
    --sgf-dir "$tmp" "$data/pro19/pro19-archive.tar.gz" > "$tmp/rows.tsv"

python3 - "$tmp" "$gnugo" "${GNUGO_JOBS:-2}" "$here" <<'PY'
import concurrent.futures, math, os, sys
tmp, gnugo, jobs, here = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
sys.path.insert(0, here)
from gtp_match import Engine, EngineError, parse_score

lines = open(os.path.join(tmp, "rows.tsv")).read().splitlines()
head = lines[0].split("\t")
rows = [dict(zip(head, l.split("\t"))) for l in lines[1:]]
for r in rows:
    for k in ("half", "move", "area"):
        r[k] = int(r[k])
    for k in ("recorded", "judge", "net_p", "net_lead", "mcts_p", "mcts_lead"):
        r[k] = float(r[k])

def gnugo_game(sgf):
    """GNU Go's estimate_score for every row of one game (Black's margin or None)."""
    mine = [r for r in rows if r["sgf"] == sgf]
    flag = " --chinese-rules" if mine[0]["area"] else ""
    e = Engine("gnugo", gnugo + " --mode gtp" + flag, os.devnull)
    try:
        for r in mine:
            e.command(f"loadsgf {os.path.join(tmp, sgf)} {r['move'] + 1}")
            r["gnugo"] = parse_score(e.command("estimate_score", check=False))
    except EngineError as err:
        print(f"gnugo on {sgf}: {err}", file=sys.stderr)
    finally:
        e.close()

with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
    list(pool.map(gnugo_game, sorted({r["sgf"] for r in rows})))

clip = lambda p: min(0.99, max(0.01, p))
logistic = lambda s, scale: 1.0 / (1.0 + math.exp(-max(-500.0, min(500.0, s / scale))))
def logloss(pairs):
    return -sum(math.log(clip(p)) if y else math.log(1 - clip(p)) for p, y in pairs) / max(1, len(pairs))
SCALES = [0.5 * (120 ** (i / 199)) for i in range(200)]   # 0.5 .. 60 points
def fit(pairs):            # pairs of (score, black won)
    if len(pairs) < 10:
        return 10.0
    return min(SCALES, key=lambda s: logloss([(logistic(x, s), y) for x, y in pairs]))

moves = sorted({r["move"] for r in rows})
print(f"{len({r['sgf'] for r in rows})} games, {len(rows)} positions; "
      f"GNU Go estimates: {sum(1 for r in rows if r.get('gnugo') is not None)}")
print("method  move      n  accuracy  log loss  scale (points; fitted on the other half)")
for method in ("mcts", "net", "judge", "gnugo"):
    for m in moves:
        here_rows = [r for r in rows if r["move"] == m and
                     (method not in ("gnugo",) or r.get("gnugo") is not None)]
        pairs, scales = [], {}
        if method in ("judge", "gnugo"):     # each half's scale, fitted on the other half
            for h in (0, 1):
                scales[h] = fit([(o[method], o["recorded"] > 0) for o in here_rows if o["half"] != h])
        for r in here_rows:
            y = r["recorded"] > 0
            p = r[method + "_p"] if method in ("mcts", "net") else logistic(r[method], scales[r["half"]])
            pairs.append((p, y))
        acc = 100.0 * sum(1 for p, y in pairs if (p > 0.5) == y and p != 0.5) / max(1, len(pairs))
        sc = f"{scales[0]:.1f} (half 0) / {scales[1]:.1f} (half 1)" if scales else "-"
        print(f"{method:6s} {m:5d} {len(pairs):6d}  {acc:7.1f}%  {logloss(pairs):8.3f}  {sc}")
PY
