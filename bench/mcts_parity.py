#!/usr/bin/env python3
"""bench/mcts_parity.py — our search's tree beside KataGo's on the same
evaluations: both analysis engines, one search thread, every evaluation at
symmetry 0 (nnRandomize = false), KataGo without the parts we do not have
(graph search, the analysis engine's wide root noise, root symmetry pruning),
the same positions of real games and the same visits. Then the two searches
differ only where their code does, and the root's visits say by how much.

bench/mcts_parity.sh runs it with the defaults; this is the engine.

Printed: per position (with --verbose) the four most visited moves of each,
and at the end how often the most visited move is the same, the mean L1
distance between the root's visit counts (sum over moves of |ours - theirs|)
and the mean root win rate difference. A change to the search that KataGo
also has should move the first towards all and the second towards 0; a
difference that is ours on purpose shows here first.
"""

import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from move_quality import positions  # noqa: E402


def queries(args):
    out = []
    for pid, moves, _ in positions(args):
        out.append({"id": pid, "moves": [[c, m] for c, m in moves], "rules": "chinese",
                    "komi": args.komi, "boardXSize": 19, "boardYSize": 19,
                    "maxVisits": args.visits})
    return out


def run(cmd, qs, stderr_path):
    """The final reply of each query, by id."""
    text = "".join(json.dumps(q) + "\n" for q in qs)
    with open(stderr_path, "w", encoding="utf-8") as err:
        p = subprocess.run(cmd, input=text, stdout=subprocess.PIPE, stderr=err, text=True,
                           check=False)
    if p.returncode != 0:
        sys.exit(f"{cmd[0]} exited with {p.returncode}: see {stderr_path}")
    got = {}
    for line in p.stdout.splitlines():
        r = json.loads(line)
        if "error" in r:
            sys.exit(f"{cmd[0]}: {r}")
        if "moveInfos" in r and not r.get("isDuringSearch"):
            got[r["id"]] = r
    return got


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ours", required=True, help="our analysis command line (split on spaces)")
    ap.add_argument("--katago", required=True, help="KataGo's analysis command line")
    ap.add_argument("--sgf-dir", required=True)
    ap.add_argument("--positions", type=int, default=40)
    ap.add_argument("--per-game", type=int, default=2)
    ap.add_argument("--visits", type=int, default=200)
    ap.add_argument("--komi", type=float, default=7.5)
    ap.add_argument("--out", required=True, help="folder for the engines' stderr")
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    qs = queries(args)
    if not qs:
        sys.exit(f"no positions in {args.sgf_dir}")
    ours = run(args.ours.split(), qs, os.path.join(args.out, "ours.stderr"))
    theirs = run(args.katago.split(), qs, os.path.join(args.out, "katago.stderr"))
    same = n = 0
    l1_sum = wr_sum = 0.0
    for q in qs:
        a, b = ours.get(q["id"]), theirs.get(q["id"])
        if not a or not b:
            print(f"{q['id']}: no reply from {'ours' if not a else 'KataGo'}")
            continue
        va = {m["move"]: m["visits"] for m in a["moveInfos"]}
        vb = {m["move"]: m["visits"] for m in b["moveInfos"]}
        best_a, best_b = max(va, key=va.get), max(vb, key=vb.get)
        l1 = sum(abs(va.get(m, 0) - vb.get(m, 0)) for m in set(va) | set(vb))
        dwr = abs(a["rootInfo"]["winrate"] - b["rootInfo"]["winrate"])
        n += 1
        same += best_a == best_b
        l1_sum += l1
        wr_sum += dwr
        if args.verbose:
            top = sorted(vb, key=vb.get, reverse=True)[:4]
            print(f"{q['id']}: KataGo {[(m, vb[m]) for m in top]} ours "
                  f"{[(m, va.get(m, 0)) for m in top]} best {best_b}/{best_a} L1 {l1}")
    if not n:
        sys.exit("no position answered by both")
    print(f"positions {n}, {args.visits} visits: same most visited move {same}/{n}, "
          f"root visits L1 {l1_sum / n:.1f} (of {2 * args.visits}), "
          f"root win rate |diff| {wr_sum / n:.4f}")


if __name__ == "__main__":
    main()
