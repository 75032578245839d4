#!/usr/bin/env python3
"""bench/gtp_match.py - the project's own GTP match referee (and a GTP speed probe).

A match: two engine command lines play N games on one board size and komi,
colours alternating (engine A takes Black in games 1, 3, 5, ...). Each engine
is one long-lived process (a net is loaded once); `clear_board` starts a game.

    bench/gtp_match.py match --a "CMD" --b "CMD" --out DIR [--games N] [--size S]
        [--komi K] [--rules R] [--max-moves M] [--scorer "CMD"] [--name-a X] [--name-b Y]
        [--visits-re-a RE] [--visits-re-b RE] [--move-timeout SEC]

The referee keeps the game (the move list) and checks legality by asking the
engines: the move one engine generates is played into the other, and a "?"
there makes it illegal, a loss for the mover (RE "B+F"/"W+F", forfeit). A game
ends on two passes in a row, a resignation ("resign" from genmove), a forfeit
(illegal move, an engine dead or silent during the game) or the move cap (default 2 * S * S);
a finished game (two passes or the cap) is scored by asking BOTH engines
`final_score`. Their answers agree on the winner: that is the result (the
margin is A's, the other's goes into the SGF comment). They disagree: the
--scorer engine (e.g. "gnugo --mode gtp --chinese-rules"), given the moves,
decides; without one the game is recorded as disputed (RE[?]) and left out of
the win rate. An engine that fails to start or to set up a game (boardsize,
clear_board, komi) stops the match (exit status 1) without recording that game. An engine that does not answer final_score counts as absent.

"{game}" in a command line is replaced by the game's number (1, 2, ...), and
such an engine is started anew for every game: a seed that differs per game
(`--seed {game}`) keeps two deterministic engines from playing the same two
games over and over.

Output in DIR: game-NNNN.sgf (SZ KM RU PB PW DT RE, every move) and
game-NNNN.json (the result, who was Black, each engine's genmove seconds and
moves, visits when reported) per game, match.json (the parameters), and
summary.txt, which is also printed. Resumable: a game whose .json exists is not
played again (the .json is written last, after its .sgf), and a rerun with
other parameters than match.json's is refused, so that a long match can be
stopped and continued.

Summary: wins of each engine (as Black / as White), A's win rate with a 95%
Wilson interval (a jigo counts half), disputed and forfeited games, each
engine's mean seconds per genmove (measured here: the round trip of the
genmove command), and visits per second where the engine reports visits on
stderr: --visits-re-X is a regular expression with one group, matched against
every stderr line of engine X; the group's numbers are summed per game and
divided by that engine's genmove seconds (KataGo with logSearchInfo = true
prints "New playouts: N" after each genmove). Each engine's stderr is kept
in DIR/NAME.stderr.

A speed probe: the same genmove round trip on fixed positions.

    bench/gtp_match.py speed --engine "CMD" --sgf FILE --moves 20,30,... [--name X]
        [--visits-re RE] [--budget V]

For each move number M: `loadsgf FILE M+1` (the position after M moves), then
`clear_cache` when the engine knows it (KataGo: so that no position comes from
its evaluation cache), then `genmove` for the side to move, timed. Prints per
position the seconds and the visits (from --visits-re on stderr, else --budget,
said so), then the totals: visits / seconds = visits per second.
"""
import argparse
import datetime
import json
import math
import os
import re
import select
import shlex
import subprocess
import sys
import threading
import time

COLS = "ABCDEFGHJKLMNOPQRST"


class EngineError(Exception):
    """The engine died, went silent, or answered garbage to a command we need."""


class Engine:
    """One GTP engine process: commands with answers, stderr kept and scanned."""

    def __init__(self, name, cmd, stderr_path, visits_re=None, timeout=0.0):
        self.name, self.cmd, self.timeout = name, cmd, timeout
        self.visits_re = re.compile(visits_re) if visits_re else None
        self.visits = 0          # sum of the visits_re numbers seen on stderr
        self.visits_seen = 0     # how many lines matched
        self.lock = threading.Lock()
        self.log = open(stderr_path, "a", encoding="utf-8", errors="replace")
        self.proc = subprocess.Popen(cmd, shell=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, bufsize=0)
        self.buf = b""
        self.reader = threading.Thread(target=self._read_stderr, daemon=True)
        self.reader.start()
        self.known = set()
        lst = self.command("list_commands", check=False)
        if lst is not None:
            self.known = set(lst.split())

    def _read_stderr(self):
        # A thread of its own: an engine that writes much to stderr must never
        # block on a full pipe while we wait for its stdout.
        for raw in iter(self.proc.stderr.readline, b""):
            line = raw.decode("utf-8", "replace")
            with self.lock:
                self.log.write(line)
                self.log.flush()
                if self.visits_re:
                    m = self.visits_re.search(line)
                    if m:
                        self.visits += int(float(m.group(1)))
                        self.visits_seen += 1

    def visits_total(self):
        with self.lock:
            return self.visits, self.visits_seen

    def _readline(self):
        while b"\n" not in self.buf:
            wait = self.timeout if self.timeout > 0 else None
            ready, _, _ = select.select([self.proc.stdout], [], [], wait)
            if not ready:
                raise EngineError(f"{self.name}: no answer within {self.timeout} s")
            chunk = os.read(self.proc.stdout.fileno(), 65536)
            if not chunk:
                try:
                    status = self.proc.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    status = "unknown: stdout closed"
                raise EngineError(f"{self.name}: exited (status {status})")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode("utf-8", "replace").replace("\r", "")

    def command(self, cmd, check=True):
        """The answer's text for '=', None for '?' (or EngineError when check)."""
        try:
            self.proc.stdin.write((cmd + "\n").encode())
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EngineError(f"{self.name}: cannot send '{cmd}': {e}")
        line = self._readline()
        while line.strip() == "":          # stray blank lines before an answer
            line = self._readline()
        if not line or line[0] not in "=?":
            raise EngineError(f"{self.name}: answer to '{cmd}' is not GTP: {line[:80]!r}")
        ok = line[0] == "="
        text = [re.sub(r"^[=?]\d*\s?", "", line)]
        while True:                        # a response ends with an empty line
            line = self._readline()
            if line.strip() == "":
                break
            text.append(line)
        body = "\n".join(text).strip()
        if not ok and check:
            raise EngineError(f"{self.name}: '{cmd}' refused: {body}")
        return body if ok else None

    def close(self):
        try:
            self.command("quit", check=False)
        except EngineError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.reader.join(timeout=5)
        self.log.close()


def parse_score(text):
    """'B+3.5' -> 3.5, 'W+R' -> None, '0' / 'Jigo' -> 0.0; Black positive. None if unreadable."""
    if text is None:
        return None
    t = text.strip().split()[0] if text.strip() else ""
    if t in ("0", "Jigo", "jigo", "Draw", "B+0", "W+0"):
        return 0.0
    m = re.match(r"^([BbWw])\+(\d+(?:\.\d+)?)$", t)
    if not m:
        return None
    v = float(m.group(2))
    return v if m.group(1) in "Bb" else -v


def result_string(margin):
    if margin is None:
        return "?"
    if margin == 0:
        return "0"
    return ("B+%g" % margin) if margin > 0 else ("W+%g" % -margin)


def gtp_to_sgf(move, size):
    """'D4' -> 'dp' on 19x19; 'pass' -> ''."""
    if move.lower() == "pass":
        return ""
    col = COLS.index(move[0].upper())
    row = int(move[1:])
    return chr(ord("a") + col) + chr(ord("a") + size - row)


def wilson(wins, n, z=1.96):
    if n == 0:
        return 0.0, 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return p, max(0.0, c - h), min(1.0, c + h)


def write_atomic(path, text):
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def sgf_escape(s):
    return s.replace("\\", "\\\\").replace("]", "\\]")


def match_params(p):
    """A match's parameters as compared on resume: spacing in a command line
    (engines, scorer) is not a parameter, since an empty optional argument of
    a bench script leaves two spaces."""
    return {k: (shlex.split(v) if k in ("a", "b", "scorer") and isinstance(v, str) else v)
            for k, v in p.items()}


class Match:
    def __init__(self, args):
        self.a = args
        self.engines = {}
        self.game = 1

    # -- engines -------------------------------------------------------
    def engine(self, key):
        """Engine 'a' or 'b', started (again) when missing or dead."""
        e = self.engines.get(key)
        cmd = (self.a.a if key == "a" else self.a.b).replace("{game}", str(self.game))
        if e is not None and e.proc.poll() is None and e.cmd == cmd:
            return e
        if e is not None:
            e.close()
        name = self.a.name_a if key == "a" else self.a.name_b
        rex = self.a.visits_re_a if key == "a" else self.a.visits_re_b
        e = Engine(name, cmd, os.path.join(self.a.out, f"{key}-{safe(name)}.stderr"), rex,
                   self.a.move_timeout)
        self.engines[key] = e
        return e

    def setup(self, e):
        e.command(f"boardsize {self.a.size}")
        e.command("clear_board")
        e.command(f"komi {self.a.komi}")
        if self.a.rules and "kata-set-rules" in e.known:
            e.command(f"kata-set-rules {self.a.rules}", check=False)

    # -- one game ------------------------------------------------------
    def play(self, index):
        """Plays game `index` (0-based) and returns its record (a dict)."""
        a_black = index % 2 == 0
        self.game = index + 1
        keys = {"B": "a" if a_black else "b", "W": "b" if a_black else "a"}
        rec = {"game": index + 1, "black": keys["B"], "white": keys["W"], "moves": [],
               "end": None, "margin": None, "scores": {}, "comment": "",
               "seconds": {"a": 0.0, "b": 0.0}, "genmoves": {"a": 0, "b": 0},
               "visits": {"a": 0, "b": 0}, "visits_seen": {"a": 0, "b": 0}}
        start = {}
        for k in ("a", "b"):
            try:
                e = self.engine(k)
                start[k] = e.visits_total()
                self.setup(e)
            except EngineError as err:
                # An engine that cannot even start a game is a set-up problem,
                # not a lost game: stop, leaving this game unplayed for a rerun.
                raise SystemExit(f"gtp_match: game {index + 1}: {err}")
        try:
            self.moves(rec, keys)
        except EngineError as err:     # a dead or silent engine loses the game
            loser = self.blame(err, keys)
            rec["end"], rec["margin"] = "forfeit", (1e9 if loser == "W" else -1e9)
            rec["comment"] += f"forfeit: {err}\n"
        if rec["end"] in ("passes", "cap"):
            self.score(rec)
        for k in ("a", "b"):
            e = self.engines.get(k)
            if e is not None and k in start:
                v, seen = e.visits_total()
                rec["visits"][k] = v - start[k][0]
                rec["visits_seen"][k] = seen - start[k][1]
        return rec

    def blame(self, err, keys):
        name = str(err).split(":", 1)[0]
        for color, k in keys.items():
            if self.engines.get(k) is not None and self.engines[k].name == name:
                return color
        return "B"

    def moves(self, rec, keys):
        passes = 0
        cap = self.a.max_moves or 2 * self.a.size * self.a.size
        while True:
            n = len(rec["moves"])
            if n >= cap:
                rec["end"] = "cap"
                return
            color = "B" if n % 2 == 0 else "W"
            mover, other = self.engines[keys[color]], self.engines[keys["W" if color == "B" else "B"]]
            t0 = time.monotonic()
            ans = mover.command(f"genmove {color}")
            rec["seconds"][keys[color]] += time.monotonic() - t0
            rec["genmoves"][keys[color]] += 1
            mv = ans.split()[0].lower() if ans.split() else ""
            if mv == "resign":
                rec["end"], rec["margin"] = "resign", (-1e9 if color == "B" else 1e9)
                return
            if mv != "pass" and not re.match(r"^[a-hj-t]\d{1,2}$", mv):
                rec["end"], rec["margin"] = "forfeit", (-1e9 if color == "B" else 1e9)
                rec["comment"] += f"forfeit: {mover.name} answered genmove with {ans!r}\n"
                return
            if other.command(f"play {color} {mv}", check=False) is None:
                rec["moves"].append([color, mv])
                rec["end"], rec["margin"] = "forfeit", (-1e9 if color == "B" else 1e9)
                rec["comment"] += f"forfeit: {other.name} refused {color} {mv} from {mover.name}\n"
                return
            rec["moves"].append([color, mv])
            passes = passes + 1 if mv == "pass" else 0
            if passes >= 2:
                rec["end"] = "passes"
                return

    def score(self, rec):
        for k in ("a", "b"):
            try:
                rec["scores"][k] = self.engines[k].command("final_score", check=False)
            except EngineError as err:
                rec["scores"][k] = None
                rec["comment"] += f"final_score: {err}\n"
        sa, sb = parse_score(rec["scores"]["a"]), parse_score(rec["scores"]["b"])
        given = [s for s in (sa, sb) if s is not None]
        rec["comment"] += f"final_score: {self.a.name_a} {rec['scores']['a']}, " \
                          f"{self.a.name_b} {rec['scores']['b']}\n"
        if len(given) == 1 or (len(given) == 2 and sign(sa) == sign(sb)):
            rec["margin"] = given[0]
            return
        if self.a.scorer:
            s = self.third_score(rec)
            rec["comment"] += f"third scorer: {s}\n"
            if parse_score(s) is not None:
                rec["margin"] = parse_score(s)
                return
        rec["end"], rec["margin"] = "disputed", None

    def third_score(self, rec):
        e = Engine("scorer", self.a.scorer, os.path.join(self.a.out, "scorer.stderr"), None,
                   self.a.move_timeout)
        try:
            self.setup(e)
            for color, mv in rec["moves"]:
                e.command(f"play {color} {mv}")
            return e.command("final_score", check=False)
        except EngineError as err:
            return f"error: {err}"
        finally:
            e.close()

    # -- files -----------------------------------------------------------
    def sgf(self, rec):
        a = self.a
        pb = a.name_a if rec["black"] == "a" else a.name_b
        pw = a.name_b if rec["black"] == "a" else a.name_a
        m = rec["margin"]
        if rec["end"] == "resign":
            re_ = "B+R" if m > 0 else "W+R"
        elif rec["end"] == "forfeit":
            re_ = "B+F" if m > 0 else "W+F"
        else:
            re_ = result_string(m)
        head = (f"(;GM[1]FF[4]CA[UTF-8]AP[hyeongse gtp_match.py]SZ[{a.size}]KM[{a.komi:g}]"
                f"RU[{sgf_escape(a.rules or 'unknown')}]PB[{sgf_escape(pb)}]PW[{sgf_escape(pw)}]"
                f"DT[{datetime.date.today().isoformat()}]RE[{re_}]GN[game {rec['game']}]"
                f"C[{sgf_escape('end: ' + str(rec['end']) + chr(10) + rec['comment'])}]\n")
        body = "".join(f";{c}[{gtp_to_sgf(mv, a.size)}]" + ("\n" if i % 12 == 11 else "")
                       for i, (c, mv) in enumerate(rec["moves"]))
        return head + body + ")\n"

    def run(self):
        a = self.a

        os.makedirs(a.out, exist_ok=True)
        params = {k: getattr(a, k) for k in ("a", "b", "name_a", "name_b", "size", "komi", "rules",
                                             "max_moves", "scorer")}
        mpath = os.path.join(a.out, "match.json")
        if os.path.exists(mpath):
            with open(mpath) as f:
                old = json.load(f)
            if match_params(old) != match_params(params):
                sys.exit(f"gtp_match: {a.out} holds a match with other parameters ({mpath}); "
                         "use another --out")
        else:
            write_atomic(mpath, json.dumps(params, indent=1) + "\n")
        try:
            for i in range(a.games):
                jpath = os.path.join(a.out, "game-%04d.json" % (i + 1))
                if os.path.exists(jpath):
                    continue
                rec = self.play(i)
                write_atomic(os.path.join(a.out, "game-%04d.sgf" % (i + 1)), self.sgf(rec))
                write_atomic(jpath, json.dumps(rec) + "\n")
                print(f"game {i + 1}/{a.games}: {self.sgf_line(rec)}", file=sys.stderr, flush=True)
        finally:
            for e in self.engines.values():
                e.close()
        text = summary(a, load_records(a.out, a.games))
        write_atomic(os.path.join(a.out, "summary.txt"), text)
        print(text, end="")

    def sgf_line(self, rec):
        b = self.a.name_a if rec["black"] == "a" else self.a.name_b
        return f"{b} Black, {len(rec['moves'])} moves, end {rec['end']}, margin {rec['margin']}"


def sign(x):
    return (x > 0) - (x < 0)


def safe(name):
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:40]


def load_records(out, games):
    recs = []
    for i in range(games):
        p = os.path.join(out, "game-%04d.json" % (i + 1))
        if os.path.exists(p):
            with open(p) as f:
                recs.append(json.load(f))
    return recs


def summary(a, recs):
    """The summary text of the finished games."""
    wins = {"a": 0.0, "b": 0.0}
    by_color = {("a", "B"): 0, ("a", "W"): 0, ("b", "B"): 0, ("b", "W"): 0}
    ends, decided, jigo = {}, 0, 0
    for r in recs:
        ends[r["end"]] = ends.get(r["end"], 0) + 1
        m = r["margin"]
        if m is None:
            continue
        decided += 1
        if m == 0:
            wins["a"] += 0.5
            wins["b"] += 0.5
            jigo += 1
            continue
        color = "B" if m > 0 else "W"
        k = r["black"] if color == "B" else r["white"]
        wins[k] += 1
        by_color[(k, color)] += 1
    p, lo, hi = wilson(wins["a"], decided)
    lines = [f"match: {a.name_a} vs {a.name_b}, {a.size}x{a.size}, komi {a.komi:g}, "
             f"rules {a.rules or '(engine default)'}; {len(recs)} of {a.games} games played",
             "ends: " + ", ".join(f"{k} {v}" for k, v in sorted(ends.items())),
             *(f"{name}: {wins[k]:g} points: {by_color[(k, 'B')] + by_color[(k, 'W')]} wins "
               f"({by_color[(k, 'B')]} as Black, {by_color[(k, 'W')]} as White)"
               + (f", {jigo} jigo (half a point each)" if jigo else "")
               for k, name in (("a", a.name_a), ("b", a.name_b))),
             f"{a.name_a} win rate: {100 * p:.1f}% of {decided} decided games, "
             f"95% Wilson interval [{100 * lo:.1f}%, {100 * hi:.1f}%]"
             + (f" ({len(recs) - decided} disputed, left out)" if len(recs) > decided else "")]
    for k, name in (("a", a.name_a), ("b", a.name_b)):
        secs = sum(r["seconds"][k] for r in recs)
        n = sum(r["genmoves"][k] for r in recs)
        vis = sum(r["visits"][k] for r in recs)
        seen = sum(r["visits_seen"][k] for r in recs)
        line = f"{name}: {n} genmoves, mean {secs / n if n else 0:.3f} s per move"
        if seen:
            line += f", {vis / secs if secs else 0:.1f} visits/s ({vis} visits reported on {seen} lines)"
        lines.append(line)
    return "\n".join(lines) + "\n"


# -- speed probe -----------------------------------------------------------

def mainline(path):
    """The text of a plain SGF record's main line (its first variation everywhere)."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    # Drop every later variation: text after a ')' that closes a branch is
    # its sibling.
    depth, keep, out = 0, True, []
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth >= 1:
                keep = False       # the first branch ended: the rest is siblings
        if keep:
            out.append(ch)
    return "".join(out)


def mainline_colors(path):
    """Colours of the main line's moves, in order (B/W), from a plain SGF record."""
    return re.findall(r";\s*([BW])\s*\[", mainline(path))


def speed(args):
    colors = mainline_colors(args.sgf)
    moves = [int(x) for x in args.moves.split(",") if x.strip()]
    e = Engine(args.name, args.engine, args.stderr or os.devnull, args.visits_re, args.move_timeout)
    tot_s, tot_v, rows = 0.0, 0, []
    try:
        for m in moves:
            if m >= len(colors):
                print(f"move {m}: the record has {len(colors)} moves, skipped", file=sys.stderr)
                continue
            e.command(f"loadsgf {os.path.abspath(args.sgf)} {m + 1}")
            if "clear_cache" in e.known:
                e.command("clear_cache")
            v0, seen0 = e.visits_total()
            t0 = time.monotonic()
            e.command(f"genmove {colors[m]}")
            dt = time.monotonic() - t0
            time.sleep(0.05)       # let the stderr reader catch the search's log lines
            v1, seen1 = e.visits_total()
            reported = seen1 > seen0
            v = v1 - v0 if reported else args.budget
            rows.append((m, dt, v, reported))
            tot_s += dt
            tot_v += v
    finally:
        e.close()
    for m, dt, v, rep in rows:
        print(f"{args.name}\tmove {m}\t{dt:.3f} s\t{v} visits{'' if rep else ' (budget)'}")
    how = "reported on stderr" if rows and all(r[3] for r in rows) else "budget where not reported"
    print(f"{args.name}: {len(rows)} positions, {tot_v} visits in {tot_s:.2f} s of genmove = "
          f"{tot_v / tot_s if tot_s else 0:.1f} visits/s ({how})")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="mode", required=True)
    m = sub.add_parser("match", help="play a match")
    m.add_argument("--a", required=True, help="engine A's command line")
    m.add_argument("--b", required=True, help="engine B's command line")
    m.add_argument("--name-a", default="A")
    m.add_argument("--name-b", default="B")
    m.add_argument("--out", required=True)
    m.add_argument("--games", type=int, default=2)
    m.add_argument("--size", type=int, default=19)
    m.add_argument("--komi", type=float, default=7.5)
    m.add_argument("--rules", default="", help="sent as kata-set-rules where the engine knows it")
    m.add_argument("--max-moves", type=int, default=0, help="default 2 * size * size")
    m.add_argument("--scorer", default="", help="third engine for disputed scores")
    m.add_argument("--visits-re-a", default="")
    m.add_argument("--visits-re-b", default="")
    m.add_argument("--move-timeout", type=float, default=0.0, help="seconds; 0 = wait forever")
    s = sub.add_parser("speed", help="time genmove on positions of a record")
    s.add_argument("--engine", required=True)
    s.add_argument("--name", default="engine")
    s.add_argument("--sgf", required=True)
    s.add_argument("--moves", required=True)
    s.add_argument("--visits-re", default="")
    s.add_argument("--budget", type=int, default=0, help="visits per genmove when not reported")
    s.add_argument("--stderr", default="", help="file for the engine's stderr")
    s.add_argument("--move-timeout", type=float, default=0.0)
    args = ap.parse_args()
    if args.mode == "match":
        if args.size < 2 or args.size > 19 or args.games < 1:
            ap.error("--size must be 2..19 and --games >= 1")
        Match(args).run()
    else:
        speed(args)


if __name__ == "__main__":
    main()
