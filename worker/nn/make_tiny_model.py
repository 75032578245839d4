#!/usr/bin/env python3
"""worker/nn/make_tiny_model.py — writes tiny hand-made KataGo-format models
(a few channels, random weights) for the fuzz seed corpus and reader tests.

Usage: make_tiny_model.py OUT_DIR
Writes v8 (ordinary + gpool blocks), v11 (mish activations), v15 (nested
bottleneck, pass MLP), each raw and gzip'd. Deterministic (fixed seed)."""
import gzip, random, struct, sys, os

class W:
    def __init__(self, version):
        self.v, self.out, self.rng = version, [], random.Random(1234 + version)
    def t(self, *toks):
        self.out.append(("\n".join(str(x) for x in toks) + "\n").encode())
    def floats(self, n, lo=-0.5, hi=0.5):
        self.out.append(b"@BIN@" + struct.pack("<%df" % n, *[self.rng.uniform(lo, hi) for _ in range(n)]) + b"\n")
    def conv(self, name, k, ic, oc):
        self.t(name, k, k, ic, oc, 1, 1); self.floats(k * k * ic * oc)
    def bn(self, name, c):
        self.t(name, c, 1e-5, 1, 1)
        self.floats(c); self.floats(c, 0.5, 1.5); self.floats(c, 0.5, 1.5); self.floats(c)
    def act(self, name, kind="ACTIVATION_RELU"):
        self.t(name, kind) if self.v >= 11 else self.t(name)
    def mat(self, name, ic, oc):
        self.t(name, ic, oc); self.floats(ic * oc)
    def bias(self, name, c):
        self.t(name, c); self.floats(c)

def block(w, kind, c, act):
    if kind == "ordinary":
        w.t("ordinary_block", "b"); w.bn("b.pre", c); w.act("b.pa", act)
        w.conv("b.c1", 3, c, c); w.bn("b.mid", c); w.act("b.ma", act); w.conv("b.c2", 3, c, c)
    elif kind == "gpool":
        w.t("gpool_block", "g"); w.bn("g.pre", c); w.act("g.pa", act)
        w.conv("g.c1", 3, c, 2); w.conv("g.gc", 3, c, 2); w.bn("g.gbn", 2); w.act("g.ga", act)
        w.mat("g.gm", 6, 2); w.bn("g.mid", 2); w.act("g.ma", act); w.conv("g.c2", 3, 2, c)
    else:
        w.t("nested_bottleneck_block", "n", 2); w.bn("n.pre", c); w.act("n.pa", act)
        w.conv("n.c1", 1, c, 2)
        block(w, "ordinary", 2, act); block(w, "gpool", 2, act)
        w.bn("n.post", 2); w.act("n.qa", act); w.conv("n.c2", 1, 2, c)

def model(v, kinds, act="ACTIVATION_RELU"):
    w, c = W(v), 3
    w.t("tiny-v%d" % v, v, 22, 19)
    if v >= 13: w.t(20, 20, 20, 20, 40, 0.25, 30)
    if v >= 15: w.t(0, 0, 0, 0, 0, 0, 0, 0)
    w.t("trunk", len(kinds), c, c, c, c, c)
    if v >= 15: w.t(0, 0, 0, 0, 0, 0)
    w.conv("conv1", 3, 22, c); w.mat("ginput", 19, c)
    for k in kinds: block(w, k, c, act)
    w.bn("tip", c); w.act("tipa", act)
    pc = 4 if v >= 16 else 2 if v >= 12 else 1
    w.t("policy"); w.conv("p1", 1, c, 2); w.conv("g1", 1, c, 2); w.bn("g1bn", 2); w.act("g1a", act)
    w.mat("pgm", 6, 2); w.bn("p1bn", 2); w.act("p1a", act); w.conv("p2", 1, 2, pc)
    if v >= 15:
        w.mat("pass", 6, 2); w.bias("passb", 2); w.act("passa", act); w.mat("pass2", 2, pc)
    else:
        w.mat("pass", 6, pc)
    w.t("value"); w.conv("v1", 1, c, 2); w.bn("v1bn", 2); w.act("v1a", act)
    w.mat("v2", 6, 4); w.bias("v2b", 4); w.act("v2a", act)
    w.mat("v3", 4, 3); w.bias("v3b", 3)
    sv = 6 if v >= 9 else 4
    w.mat("sv3", 4, sv); w.bias("sv3b", sv); w.conv("own", 1, 2, 1)
    return b"".join(w.out)

if __name__ == "__main__":
    out = sys.argv[1]
    for name, data in [("v8", model(8, ["ordinary", "gpool"])),
                       ("v11", model(11, ["gpool", "ordinary"], "ACTIVATION_MISH")),
                       ("v15", model(15, ["nested", "ordinary"])),
                       ("v16", model(16, ["ordinary"], "ACTIVATION_SILU"))]:
        open(os.path.join(out, "tiny-%s.bin" % name), "wb").write(data)
        open(os.path.join(out, "tiny-%s.bin.gz" % name), "wb").write(gzip.compress(data, mtime=0))
