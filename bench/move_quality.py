#!/usr/bin/env python3
"""bench/move_quality.py - how good the moves of two GTP engines are on the same
positions, judged by a stronger search (an "oracle"): a screen of a search
change that needs far fewer CPU-hours than a match of 100 games.

    bench/move_quality.py --a "CMD" --b "CMD" --oracle "CMD" --sgf-dir DIR --out DIR
        [--positions N] [--per-game K] [--komi K] [--oracle-visits V] [--eval-visits V]
        [--name-a X] [--name-b Y]

Positions: the main lines of the 19x19 records in --sgf-dir (sorted by name;
records with setup stones or handicap are skipped), up to --per-game
positions a record, spread over moves 20 .. end-20 with an offset drawn from
the record's name, until --positions. Each is sent to the engines as
clear_board, komi, then every move with `play` (kata-set-rules chinese where
the engine knows it), so that both see the same position and history
whatever their loadsgf does with a record's rules and komi.

The engines: A and B each `genmove` once per position (KataGo also
`clear_cache` first, so that no evaluation comes from an earlier position:
both search a fresh tree). A command line with "{pos}" gets the position's
number there (a seed that differs per position).

The oracle: a KataGo analysis engine command line (`katago analysis -model
NET -config CFG`, CFG with reportAnalysisWinratesAs = SIDETOMOVE). For each
position it searches --oracle-visits for its own choice, then values every
move that the oracle or an engine chose by a search of --eval-visits with
only that move allowed at the root (`allowMoves`, untilDepth 1): the move's
win rate and score lead for the side to move. All moves are valued the
same way, so a move's loss is the oracle choice's value minus its own, and
the difference between A and B is paired position by position.

Output in DIR: oracle.jsonl (the oracle's answers, a cache: a rerun, with
another build of A for example, asks only for what is not there),
moves-NAME.json (each engine's choices, also a cache per name), and the
summary, also printed: agreement with the oracle and between the engines,
each engine's mean loss (win rate points and score points), and the mean
paired difference A - B with a 95% interval (normal approximation).
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gtp_match import COLS, Engine, EngineError, mainline, write_atomic  # noqa: E402


def sgf_mainline(path):
    """(size, [(colour, gtp move)]) of a plain SGF's main line; None when it
    has setup stones or a handicap (the position is then not a game's)."""
    main = mainline(path)
    ha = re.search(r"\bHA\s*\[\s*(\d+)", main)
    if re.search(r"\b(AB|AW)\s*\[", main) or (ha and int(ha.group(1)) >= 2):
        return None
    m = re.search(r"SZ\s*\[(\d+)\]", main)
    size = int(m.group(1)) if m else 19
    moves = []
    for col, coord in re.findall(r";\s*([BW])\s*\[([a-z]{0,2})\]", main):
        if coord in ("", "tt") or len(coord) != 2:
            moves.append((col, "pass"))
            continue
        x, y = ord(coord[0]) - 97, ord(coord[1]) - 97
        if not (0 <= x < size and 0 <= y < size):
            return None
        moves.append((col, f"{COLS[x]}{size - y}"))
    return size, moves


def positions(args):
    """[(id, moves before the position, colour to move)] as the summary explains."""
    out = []
    names = sorted(n for n in os.listdir(args.sgf_dir) if n.lower().endswith(".sgf"))
    for name in names:
        game = sgf_mainline(os.path.join(args.sgf_dir, name))
        if not game or game[0] != 19 or len(game[1]) < 60:
            continue
        moves = game[1]
        span = len(moves) - 40
        step = max(1, span // args.per_game)
        first = 20 + zlib.crc32(name.encode()) % step
        for k in range(args.per_game):
            m = first + k * step
            if m >= len(moves) - 20 or len(out) >= args.positions:
                break
            out.append((f"{name}@{m}", moves[:m], moves[m][0]))
        if len(out) >= args.positions:
            break
    return out


class Oracle:
    """A KataGo analysis engine, one query at a time, answers cached in a file."""

    def __init__(self, cmd, cache_path, stderr_path):
        self.cache_path = cache_path
        self.cache = {}
        if os.path.exists(cache_path):
            with open(cache_path, encoding="utf-8") as f:
                for line in f:
                    if line.strip():
                        rec = json.loads(line)
                        self.cache[rec["key"]] = rec
        self.cmd, self.stderr_path, self.proc = cmd, stderr_path, None
        self.serial = 0

    def _start(self):
        if self.proc is None:
            self.err = open(self.stderr_path, "a", encoding="utf-8")
            self.proc = subprocess.Popen(self.cmd, shell=True, stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, stderr=self.err, text=True,
                                         bufsize=1)

    def ask(self, key, query):
        if key in self.cache:
            return self.cache[key]
        self._start()
        self.serial += 1
        query = dict(query, id=f"q{self.serial}")
        self.proc.stdin.write(json.dumps(query) + "\n")
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise EngineError(f"oracle exited (see {self.stderr_path})")
            ans = json.loads(line)
            if ans.get("id") != query["id"] or ans.get("isDuringSearch"):
                continue
            if "error" in ans:
                raise EngineError(f"oracle: {ans['error']} for {key}")
            break
        best = min(ans["moveInfos"], key=lambda mi: mi["order"])
        rec = {"key": key, "move": best["move"], "winrate": best["winrate"],
               "scoreLead": best["scoreLead"], "visits": best["visits"]}
        self.cache[key] = rec
        with open(self.cache_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(rec) + "\n")
        return rec

    def close(self):
        if self.proc:
            self.proc.stdin.close()
            self.proc.wait(timeout=60)
            self.err.close()


def base_query(args, moves, to_move, visits):
    return {"moves": [[c, m] for c, m in moves], "initialPlayer": to_move, "rules": "chinese",
            "komi": args.komi, "boardXSize": 19, "boardYSize": 19, "maxVisits": visits}


def oracle_choice(oracle, args, pid, moves, to_move):
    q = base_query(args, moves, to_move, args.oracle_visits)
    return oracle.ask(f"{pid}|best|{args.oracle_visits}", q)["move"]


def oracle_value(oracle, args, pid, moves, to_move, move):
    q = base_query(args, moves, to_move, args.eval_visits)
    q["allowMoves"] = [{"player": to_move, "moves": ["pass" if move == "PASS" else move],
                        "untilDepth": 1}]
    return oracle.ask(f"{pid}|{move}|{args.eval_visits}", q)


def engine_moves(args, name, cmd, pos):
    """{position id: move} of one engine, from its cache file where there."""
    path = os.path.join(args.out, f"moves-{re.sub(r'[^A-Za-z0-9_.-]', '_', name)}.json")
    have = json.load(open(path, encoding="utf-8")) if os.path.exists(path) else {}
    todo = [p for p in pos if p[0] not in have]
    if not todo:
        return have
    per_pos = "{pos}" in cmd
    e = None
    try:
        for i, (pid, moves, to_move) in enumerate(pos):
            if pid in have:
                continue
            if e is None or per_pos:
                if e:
                    e.close()
                e = Engine(name, cmd.replace("{pos}", str(i + 1)),
                           os.path.join(args.out, f"{name}.stderr"))
            e.command("boardsize 19")
            e.command("clear_board")
            e.command(f"komi {args.komi}")
            if "kata-set-rules" in e.known:
                e.command("kata-set-rules chinese")
            for c, m in moves:
                e.command(f"play {c} {m}")
            if "clear_cache" in e.known:
                e.command("clear_cache")
            have[pid] = e.command(f"genmove {to_move}").strip().upper()
            write_atomic(path, json.dumps(have, indent=0))
    finally:
        if e:
            e.close()
    return have


def mean_ci(xs):
    n = len(xs)
    if n == 0:
        return 0.0, 0.0
    mu = sum(xs) / n
    var = sum((x - mu) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    return mu, 1.96 * math.sqrt(var / n)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True)
    ap.add_argument("--b", required=True)
    ap.add_argument("--name-a", default="A")
    ap.add_argument("--name-b", default="B")
    ap.add_argument("--oracle", required=True)
    ap.add_argument("--sgf-dir", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--per-game", type=int, default=3)
    ap.add_argument("--komi", type=float, default=7.5)
    ap.add_argument("--oracle-visits", type=int, default=1600)
    ap.add_argument("--eval-visits", type=int, default=400)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    pos = positions(args)
    if not pos:
        ap.error(f"no 19x19 game records in {args.sgf_dir}")
    print(f"{len(pos)} positions from {args.sgf_dir}", flush=True)
    ma = engine_moves(args, args.name_a, args.a, pos)
    mb = engine_moves(args, args.name_b, args.b, pos)
    oracle = Oracle(args.oracle, os.path.join(args.out, "oracle.jsonl"),
                    os.path.join(args.out, "oracle.stderr"))
    rows = []
    try:
        for i, (pid, moves, to_move) in enumerate(pos):
            best = oracle_choice(oracle, args, pid, moves, to_move)
            val = {}
            for mv in {best.upper(), ma[pid], mb[pid]}:
                if mv != "RESIGN":
                    val[mv] = oracle_value(oracle, args, pid, moves, to_move, mv)
            if "RESIGN" in (ma[pid], mb[pid]):
                print(f"{pid}: an engine resigned; left out", file=sys.stderr)
                continue
            rows.append((pid, best.upper(), ma[pid], mb[pid], val))
            if (i + 1) % 10 == 0:
                print(f"  {i + 1}/{len(pos)} positions judged", flush=True)
    finally:
        oracle.close()
    summary = summarize(args, rows)
    write_atomic(os.path.join(args.out, f"summary-{args.name_a}-{args.name_b}.txt"), summary)
    print(summary, end="")


def summarize(args, rows):
    n = len(rows)
    lines = [f"move quality: {args.name_a} vs {args.name_b} on {n} positions; oracle "
             f"{args.oracle_visits} visits, each move valued by {args.eval_visits} visits with only "
             f"it allowed at the root (side to move's view)"]
    if n == 0:
        return lines[0] + "\n"
    for name, k in ((args.name_a, 2), (args.name_b, 3)):
        wl = [r[4][r[1]]["winrate"] - r[4][r[k]]["winrate"] for r in rows]
        sl = [r[4][r[1]]["scoreLead"] - r[4][r[k]]["scoreLead"] for r in rows]
        agree = sum(r[k] == r[1] for r in rows)
        mw, cw = mean_ci(wl)
        ms, cs = mean_ci(sl)
        lines.append(f"{name}: the oracle's move in {agree} of {n} ({100 * agree / n:.1f}%); mean loss "
                     f"{100 * mw:.2f} +- {100 * cw:.2f} win rate points, {ms:.2f} +- {cs:.2f} points "
                     f"of score")
    same = sum(r[2] == r[3] for r in rows)
    dw = [r[4][r[2]]["winrate"] - r[4][r[3]]["winrate"] for r in rows]
    ds = [r[4][r[2]]["scoreLead"] - r[4][r[3]]["scoreLead"] for r in rows]
    mw, cw = mean_ci(dw)
    ms, cs = mean_ci(ds)
    lines.append(f"{args.name_a} and {args.name_b} chose the same move in {same} of {n} "
                 f"({100 * same / n:.1f}%)")
    lines.append(f"{args.name_a} - {args.name_b}, paired: {100 * mw:+.2f} +- {100 * cw:.2f} win rate "
                 f"points, {ms:+.2f} +- {cs:.2f} points of score (95%; > 0: {args.name_a}'s moves "
                 f"better)")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    try:
        main()
    except EngineError as e:
        print(f"move_quality: {e}", file=sys.stderr)
        sys.exit(1)
