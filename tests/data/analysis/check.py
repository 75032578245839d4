#!/usr/bin/env python3
"""tests/data/analysis/check.py -- checks one analysis session's replies.

    check.py QUERIES.jsonl REPLIES.jsonl [EXPECT.jsonl]

Every reply line must be a JSON object. Every analysis reply is checked for
what must hold whatever the evaluator: the fields KataGo gives, orders 0..k-1,
each pv starting with its move, legal vertex names, edge visits adding up (a
symmetric copy, isSymmetryOf, after the move it copies and with its visits,
counted once, its per-move ownership the copied move's mapped), per-move
ownership present iff asked, rootInfo's visits equal to the query's maxVisits (unless
terminated), policy and ownership lengths, policy -1 on every stone, and exactly one final reply
(isDuringSearch false) for every analysed turn of every query that was not
refused. EXPECT (when given) holds one pattern a line; each must match a
distinct reply (patterns are subsets: "$present" / "$absent" for a key,
"$prefix:TEXT" for a string), and every error or warning reply must be matched
by one: no unexpected error passes. Prints what failed; exit 1 on failure.
"""
import json
import sys

COLS = "ABCDEFGHJKLMNOPQRST"


def fail(msg):
    print("FAIL:", msg)
    fail.count += 1


fail.count = 0


def match(pat, act):
    if isinstance(pat, dict):
        if not isinstance(act, dict):
            return False
        for k, v in pat.items():
            if v == "$absent":
                if k in act:
                    return False
            elif v == "$present":
                if k not in act:
                    return False
            elif k not in act or not match(v, act[k]):
                return False
        return True
    if isinstance(pat, list):
        return isinstance(act, list) and len(pat) == len(act) and all(
            match(p, a) for p, a in zip(pat, act))
    if isinstance(pat, str) and pat.startswith("$prefix:"):
        return isinstance(act, str) and act.startswith(pat[len("$prefix:"):])
    return pat == act and type(pat) == type(act)


def vertex(name, n):
    """(x, y from the top) of a GTP vertex, or 'pass'; None when invalid."""
    if name == "pass":
        return "pass"
    if len(name) < 2 or name[0] not in COLS[:n]:
        return None
    try:
        row = int(name[1:])
    except ValueError:
        return None
    if not 1 <= row <= n:
        return None
    return (COLS.index(name[0]), n - row)


def stones(q, turn):
    """Points holding a stone at turn (the sessions' positions have no captures)."""
    n = q["boardXSize"]
    pts = set()
    for c, v in q.get("initialStones", []) + q["moves"][:turn]:
        if v.startswith("("):
            x, y = (int(t) for t in v.strip("()").split(","))
            pts.add((x, y))
        elif v.lower() != "pass":
            pts.add(vertex(v.upper(), n))
    return pts


SYMS = (lambda x, y, n: (x, y), lambda x, y, n: (n - 1 - x, y), lambda x, y, n: (x, n - 1 - y),
        lambda x, y, n: (n - 1 - x, n - 1 - y), lambda x, y, n: (y, x),
        lambda x, y, n: (n - 1 - y, x), lambda x, y, n: (y, n - 1 - x),
        lambda x, y, n: (n - 1 - y, n - 1 - x))


def mapped_copy(src, cp, n):
    """Whether cp's per-move ownership (when given) is src's under a symmetry
    of the board that maps src's move onto cp's."""
    keys = [k for k in ("ownership", "ownershipStdev") if k in cp]
    if not keys:
        return True
    a, b = vertex(src["move"], n), vertex(cp["move"], n)
    for f in SYMS:
        if a != "pass" and f(a[0], a[1], n) != b:
            continue
        if all(cp[k][f(p % n, p // n, n)[1] * n + f(p % n, p // n, n)[0]] == src[k][p]
               for k in keys for p in range(n * n)):
            return True
    return False


def check_reply(r, q, terminated):
    n = q["boardXSize"]
    tag = "%s/%s" % (r.get("id"), r.get("turnNumber"))
    if r.get("noResults"):
        if not terminated:
            fail(tag + ": noResults for a query that was not terminated")
        return
    for k in ("id", "turnNumber", "isDuringSearch", "moveInfos", "rootInfo"):
        if k not in r:
            fail("%s: no %s" % (tag, k))
            return
    mis, root = r["moveInfos"], r["rootInfo"]
    if not mis and root.get("visits", 0) > 1:
        fail(tag + ": empty moveInfos")
    for k in ("visits", "winrate", "scoreLead", "scoreStdev", "utility", "currentPlayer",
              "weight", "thisHash", "symHash", "rawScoreSelfplay", "rawScoreSelfplayStdev"):
        if k not in root:
            fail("%s: rootInfo has no %s" % (tag, k))
    if sorted(m["order"] for m in mis) != list(range(len(mis))):
        fail(tag + ": orders are not 0..k-1")
    names = set()
    for m in mis:
        for k in ("move", "visits", "winrate", "scoreMean", "scoreStdev", "scoreLead", "utility",
                  "lcb", "utilityLcb", "weight", "edgeWeight", "playSelectionValue", "prior",
                  "order", "pv"):
            if k not in m:
                fail("%s: moveInfo has no %s" % (tag, k))
                return
        if vertex(m["move"], n) is None or m["move"] in names:
            fail("%s: bad or repeated move %s" % (tag, m["move"]))
        names.add(m["move"])
        if vertex(m["move"], n) in stones(q, r["turnNumber"]):
            fail("%s: move %s on a stone" % (tag, m["move"]))
        if not m["pv"] or m["pv"][0] != m["move"] or len(m["pv"]) > 10:
            fail("%s: pv %s does not start with %s" % (tag, m["pv"], m["move"]))
        if not 0 <= m["winrate"] <= 1 or not 0 <= m["prior"] <= 1:
            fail("%s: winrate or prior out of [0,1] for %s" % (tag, m["move"]))
        if bool(q.get("includePVVisits")) != ("pvVisits" in m):
            fail("%s: pvVisits present iff includePVVisits" % tag)
        if "pvVisits" in m and (len(m["pvVisits"]) != len(m["pv"]) or m["pvVisits"][0] != m["visits"]):
            fail("%s: pvVisits %s do not fit pv" % (tag, m["pvVisits"]))
        # edge visits (through the move) never exceed the node's (graph search:
        # other paths to the same position add to the node's only)
        if "pvEdgeVisits" in m and (len(m["pvEdgeVisits"]) != len(m["pv"])
                                    or m["pvEdgeVisits"][0] != m["edgeVisits"]
                                    or any(e > v for e, v in zip(m["pvEdgeVisits"], m["pvVisits"]))):
            fail("%s: pvEdgeVisits %s do not fit pv" % (tag, m["pvEdgeVisits"]))
        if m.get("edgeVisits", 0) > m["visits"]:
            fail("%s: edgeVisits over visits for %s" % (tag, m["move"]))
        # the bound lies below the utility it bounds (in the reported view:
        # below for the side the view is of, above for the other)
        if abs(m["utilityLcb"] - m["utility"]) > 2 * 6 or m["utilityLcb"] == m["utility"]:
            fail("%s: utilityLcb %s against utility %s" % (tag, m["utilityLcb"], m["utility"]))
        # weights: positive, the edge's a share of the child's, none over its visits
        if not 0 < m["edgeWeight"] <= m["weight"] * (1 + 1e-6) <= m["visits"] * (1 + 1e-6):
            fail("%s: weights %s / %s for %s visits" % (tag, m["edgeWeight"], m["weight"],
                                                       m["visits"]))
        if m["playSelectionValue"] < 0:
            fail("%s: negative playSelectionValue" % tag)
        # per-move ownership: present iff asked (a fresh tree knows every
        # move's), board-area long, in range
        for key, flag, lo in (("ownership", "includeMovesOwnership", -1),
                              ("ownershipStdev", "includeMovesOwnershipStdev", 0)):
            if bool(q.get(flag)) != (key in m):
                fail("%s: moveInfo %s present iff %s" % (tag, key, flag))
            elif key in m and (len(m[key]) != n * n or not all(lo <= v <= 1 for v in m[key])):
                fail("%s: moveInfo %s of %s: %d values or out of range" % (tag, key, m["move"],
                                                                          len(m[key])))
        # a symmetric copy (root symmetry pruning) follows the move it copies,
        # with its visits, and does not count them again
        if "isSymmetryOf" in m:
            src = [o for o in mis if o["move"] == m["isSymmetryOf"] and "isSymmetryOf" not in o]
            if not src or src[0]["order"] > m["order"] or src[0]["visits"] != m["visits"]:
                fail("%s: %s is no copy of %s" % (tag, m["move"], m["isSymmetryOf"]))
            elif not mapped_copy(src[0], m, n):
                fail("%s: %s's ownership is not %s's mapped" % (tag, m["move"], m["isSymmetryOf"]))
    if mis and max(m["playSelectionValue"] for m in mis) < 1:
        fail(tag + ": the largest playSelectionValue is under 1")
    if sum(m.get("edgeVisits", m["visits"]) for m in mis if "isSymmetryOf" not in m) > root["visits"]:
        fail(tag + ": moves' visits exceed the root's")
    want = q.get("maxVisits", (q.get("overrideSettings") or {}).get("maxVisits"))
    want = None if want is None else int(want)   # overrides may be strings, as KataGo takes them
    if want is not None and not terminated and not r["isDuringSearch"] and root["visits"] != want:
        fail("%s: root visits %s != maxVisits %s" % (tag, root["visits"], want))
    for key, flag, length in (("ownership", "includeOwnership", n * n),
                              ("ownershipStdev", "includeOwnershipStdev", n * n),
                              ("policy", "includePolicy", n * n + 1)):
        if bool(q.get(flag)) != (key in r):
            fail("%s: %s present iff %s" % (tag, key, flag))
        elif key in r and len(r[key]) != length:
            fail("%s: %s has %d values, not %d" % (tag, key, len(r[key]), length))
    if "ownership" in r and not all(-1 <= v <= 1 for v in r["ownership"]):
        fail(tag + ": ownership out of [-1,1]")
    if "policy" in r:
        pol = r["policy"]
        for (x, y) in stones(q, r["turnNumber"]):
            if pol[y * n + x] != -1:
                fail("%s: policy at stone (%d,%d) is %s, not -1 (row-major from the top?)"
                     % (tag, x, y, pol[y * n + x]))
        total = sum(v for v in pol if v >= 0)
        if abs(total - 1) > 1e-3 or any(v < 0 and v != -1 for v in pol):
            fail("%s: policy sums to %s" % (tag, total))


def main():
    queries = {}
    for line in open(sys.argv[1], errors="replace"):
        try:
            q = json.loads(line)
        except ValueError:
            continue
        if "\ufffd" in line:
            continue   # not UTF-8: not a request the engine may take
        if isinstance(q, dict) and isinstance(q.get("id"), str) and "action" not in q:
            queries[q["id"]] = q
    replies = []
    for i, line in enumerate(open(sys.argv[2])):
        try:
            r = json.loads(line)
        except ValueError:
            fail("reply line %d is not JSON: %r" % (i + 1, line[:200]))
            continue
        if not isinstance(r, dict):
            fail("reply line %d is not an object" % (i + 1))
            continue
        replies.append(r)
    refused = {r.get("id") for r in replies if "error" in r}
    terminated = {r.get("terminateId", "*") for r in replies if r.get("action", "").startswith("terminate")}
    finals = {}
    for r in replies:
        if "turnNumber" in r and r.get("id") in queries:
            q = queries[r["id"]]
            check_reply(r, q, r["id"] in terminated or "*" in terminated)
            if not r.get("isDuringSearch"):
                key = (r["id"], r["turnNumber"])
                finals[key] = finals.get(key, 0) + 1
    for qid, q in queries.items():
        if qid in refused:
            continue
        turns = q.get("analyzeTurns", [len(q["moves"])])
        for t in set(turns):
            if finals.get((qid, t), 0) != 1:
                fail("%s/%d: %d final replies, not 1" % (qid, t, finals.get((qid, t), 0)))
    if len(sys.argv) > 3:
        used = set()
        for line in open(sys.argv[3]):
            if not line.strip() or line.startswith("#"):
                continue
            pat = json.loads(line)
            hit = next((i for i, r in enumerate(replies) if i not in used and match(pat, r)), None)
            if hit is None:
                fail("no reply matches %s" % line.strip())
            else:
                used.add(hit)
        for i, r in enumerate(replies):
            if i not in used and ("error" in r or "warning" in r):
                fail("unexpected %s" % json.dumps(r))
    if fail.count:
        print("%d check(s) failed" % fail.count)
        sys.exit(1)
    print("ok: %d replies" % len(replies))


if __name__ == "__main__":
    main()
