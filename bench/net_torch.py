#!/usr/bin/env python3
"""bench/net_torch.py — the PyTorch peer of bench/net.sh: the same KataGo
network (a .bin.gz model, versions 8-14, ordinary and global-pooling residual
blocks) run by PyTorch on the CPU, so our engine's nnEvals/s can be set beside
a mainstream framework on the same weights.

Written for this project from the file format (mirroring worker/nn/model.c and
model_read.c, whose comments say why each step is as it is); nothing here
comes from KataGo's own python.

    net_torch.py MODEL [--batch B] [--seconds S] [--threads T] [--size N] [--eager]
                 [--device cuda]
        prints: net_torch batch=B threads=T evals=N seconds=S evals_per_s=X mode=M cpu_s=C
        (M: frozen, the TorchScript module PyTorch optimises for inference,
        the default; eager with --eager; C: the process's CPU seconds in the
        timed loop, which tells a loaded machine from a slow peer); with
        --device cuda: net_torch batch=B device=cuda evals=N seconds=S
        evals_per_s=X mode=fp16 torch=VERSION gpu=NAME (bench_cuda says
        what one call does)
    net_torch.py MODEL --selftest
        prints, for two fixed 19x19 inputs ('empty': plane 0 all ones, every
        other plane and global zero; 'pattern': a fixed spread of stones), the
        raw value logits (3), score outputs (4), pass logit, two policy logits
        and two ownership values with 6 decimals: the lines
        bench/bench_net_ref_probe prints from our C reference pass.
        bench/net.sh and tests/test_nn_torch_peer.sh check they agree within 1e-4.

Every batch norm that follows a linear layer is folded into it at load time,
as our loader does, so both engines do the same arithmetic per evaluation.
The whole net runs per evaluation: trunk, policy (with pass), value, score and
ownership heads, as KataGo's and our benchmarks do. The board is full-size and
plane 0 (on-board) all ones, so KataGo's masking reduces to plain pooling.
"""
import argparse
import gzip
import math
import os
import sys
import time
import warnings

import torch
import torch.nn.functional as F

SPATIAL, GLOBAL = 22, 19


class Reader:
    """Whitespace tokens and '@BIN@' float32 blocks of a KataGo model file."""

    def __init__(self, data):
        self.d, self.p, self.version = data, 0, 0

    def token(self):
        d, n = self.d, len(self.d)
        while self.p < n and d[self.p] in b" \t\r\n\v\f":
            self.p += 1
        start = self.p
        while self.p < n and d[self.p] not in b" \t\r\n\v\f":
            self.p += 1
        if start == self.p:
            raise ValueError("model file ends early (truncated?)")
        return d[start:self.p].decode("ascii", "replace")

    def int(self):
        return int(self.token())

    def floats(self, count):
        at = self.d.find(b"@BIN@", self.p)
        if at < 0 or self.d[self.p:at].strip():
            raise ValueError("no @BIN@ block at byte %d (a text model?)" % self.p)
        self.p = at + 5
        if len(self.d) - self.p < 4 * count:
            raise ValueError("fewer float bytes than the layer needs (truncated)")
        t = torch.frombuffer(bytearray(self.d[self.p:self.p + 4 * count]), dtype=torch.float32)
        self.p += 4 * count
        if sys.byteorder != "little":
            t = t.byteswap()
        return t.clone()

    # ---- KataGo's raw layers ------------------------------------------
    def conv(self):
        self.token()  # layer name
        ky, kx, ic, oc, dy, dx = (self.int() for _ in range(6))
        if (dy, dx) != (1, 1):
            raise ValueError("dilated convolutions are not supported here")
        w = self.floats(ky * kx * ic * oc).view(ky, kx, ic, oc)
        return w.permute(3, 2, 0, 1).contiguous()  # file y,x,in,out -> out,in,y,x

    def dense(self):
        self.token()
        ic, oc = self.int(), self.int()
        return self.floats(ic * oc).view(ic, oc)

    def bias(self):
        self.token()
        return self.floats(self.int())

    def bn(self):
        """A batch norm as y = x*scale + bias."""
        self.token()
        c, eps = self.int(), float(self.token())
        has_scale, has_bias = self.int(), self.int()
        mean, var = self.floats(c), self.floats(c)
        gamma = self.floats(c) if has_scale else torch.ones(c)
        beta = self.floats(c) if has_bias else torch.zeros(c)
        s = gamma / torch.sqrt(var + eps)
        return s, beta - s * mean

    def act(self):
        self.token()
        if self.version >= 11:
            kind = self.token()
            if kind != "ACTIVATION_RELU":
                raise ValueError("activation %s is not supported here (ReLU only)" % kind)


def fold(w, s, t):
    """conv weight [out,in,ky,kx] followed by y*s + t -> (w', b')."""
    return w * s.view(-1, 1, 1, 1), t


def gpool(x, value_head=False):
    """KataGo's pooling: mean, mean*(w-14)/10, and max (or, in the value head,
    mean*((w-14)^2/100 - 0.1)); x is [B,C,H,W] fully on the board."""
    w = float(math.sqrt(x.shape[2] * x.shape[3])) - 14.0
    mean = x.mean(dim=(2, 3))
    third = mean * (w * w / 100.0 - 0.1) if value_head else x.amax(dim=(2, 3))
    return torch.cat([mean, mean * (w / 10.0), third], dim=1)


def conv(x, w, b=None):
    """'same' zero padding for any odd kernel (the input conv is 5x5 in g170)."""
    return F.conv2d(x, w, b, padding="same")


class Net(torch.nn.Module):
    def __init__(self, path):
        super().__init__()
        with open(path, "rb") as f:
            raw = f.read()
        if raw[:2] == b"\x1f\x8b":
            raw = gzip.decompress(raw)
        r = Reader(raw)
        self.name = r.token()
        self.version = r.version = r.int()
        if not 8 <= self.version <= 14:
            raise ValueError("model version %d: this peer reads versions 8 to 14" % self.version)
        if (r.int(), r.int()) != (SPATIAL, GLOBAL):
            raise ValueError("the model does not take V7 inputs (22 planes, 19 globals)")
        if self.version >= 13:
            for _ in range(7):
                r.token()  # post-processing multipliers: not needed for raw outputs
        r.token()  # trunk name
        nblocks = r.int()
        for _ in range(5):
            r.int()  # trunk, mid, regular, dilated, gpool channels: the weights say
        self._reg("in_w", r.conv())
        self._reg("in_g", r.dense())
        self.blocks = []
        for i in range(nblocks):
            self.blocks.append(self._block(r, i))
        s, t = r.bn()
        r.act()
        self._reg("tip_s", s.view(1, -1, 1, 1))
        self._reg("tip_t", t.view(1, -1, 1, 1))
        self._policy(r)
        self._value(r)

    def _reg(self, name, t):
        """Weights are buffers: nothing here is trained."""
        self.register_buffer(name, t)

    def _conv_bn(self, r, name):
        w = r.conv()
        s, t = r.bn()
        r.act()
        w, b = fold(w, s, t)
        self._reg(name + "_w", w)
        self._reg(name + "_b", b)

    def _block(self, r, i):
        kind = r.token()
        r.token()  # block name
        if kind not in ("ordinary_block", "gpool_block"):
            raise ValueError("block kind %s is not supported here" % kind)
        p = "b%d_" % i
        s, t = r.bn()
        r.act()
        self._reg(p + "pre_s", s.view(1, -1, 1, 1))
        self._reg(p + "pre_t", t.view(1, -1, 1, 1))
        if kind == "ordinary_block":
            self._conv_bn(r, p + "c1")
        else:
            w1 = r.conv()
            self._conv_bn(r, p + "g")
            gm = r.dense()
            s, t = r.bn()
            r.act()
            w1, b1 = fold(w1, s, t)
            self._reg(p + "c1_w", w1)
            self._reg(p + "c1_b", b1)
            self._reg(p + "gm", gm * s.view(1, -1))  # pooled bias added before that norm
        self._reg(p + "c2_w", r.conv())
        return (kind == "gpool_block", p)

    def _policy(self, r):
        r.token()
        p1 = r.conv()
        self._conv_bn(r, "pg")
        gm = r.dense()
        s, t = r.bn()
        r.act()
        p1, b1 = fold(p1, s, t)
        self._reg("p1_w", p1)
        self._reg("p1_b", b1)
        self._reg("pgm", gm * s.view(1, -1))
        self._reg("p2_w", r.conv())
        self._reg("pass_w", r.dense())

    def _value(self, r):
        r.token()
        self._conv_bn(r, "v1")
        self._reg("v2_w", r.dense())
        self._reg("v2_b", r.bias())
        r.act()
        self._reg("v3_w", r.dense())
        self._reg("v3_b", r.bias())
        self._reg("sv_w", r.dense())
        self._reg("sv_b", r.bias())
        self._reg("own_w", r.conv())

    def buf(self, name):
        return getattr(self, name)

    def forward(self, spatial, glob):
        g = self.buf
        x = conv(spatial, g("in_w"))
        x = x + (glob @ g("in_g")).unsqueeze(2).unsqueeze(3)
        for is_gpool, p in self.blocks:
            pre = F.relu(x * g(p + "pre_s") + g(p + "pre_t"))
            t = conv(pre, g(p + "c1_w"), g(p + "c1_b"))
            if is_gpool:
                gg = F.relu(conv(pre, g(p + "g_w"), g(p + "g_b")))
                t = t + (gpool(gg) @ g(p + "gm")).unsqueeze(2).unsqueeze(3)
            t = F.relu(t)
            x = x + conv(t, g(p + "c2_w"))
        x = F.relu(x * g("tip_s") + g("tip_t"))
        # policy head
        pg = F.relu(conv(x, g("pg_w"), g("pg_b")))
        pooled = gpool(pg)
        p1 = F.relu(conv(x, g("p1_w"), g("p1_b")) + (pooled @ g("pgm")).unsqueeze(2).unsqueeze(3))
        policy = conv(p1, g("p2_w"))
        pass_ = pooled @ g("pass_w")
        # value head
        v1 = F.relu(conv(x, g("v1_w"), g("v1_b")))
        v2 = F.relu(gpool(v1, value_head=True) @ g("v2_w") + g("v2_b"))
        value = v2 @ g("v3_w") + g("v3_b")
        score = v2 @ g("sv_w") + g("sv_b")
        own = conv(v1, g("own_w"))
        return policy, pass_, value, score, own


def random_inputs(batch, n, gen):
    """Valid-looking V7 inputs: plane 0 all ones, own/opponent stones with
    one-hot liberty planes (1, 2, 3+), komi 7.5/20 in global 5."""
    sp = torch.zeros(batch, SPATIAL, n, n)
    sp[:, 0] = 1.0
    u = torch.rand(batch, n, n, generator=gen)
    own, opp = u < 0.2, (u >= 0.2) & (u < 0.4)
    sp[:, 1], sp[:, 2] = own.float(), opp.float()
    libs = torch.randint(1, 4, (batch, n, n), generator=gen)
    stones = own | opp
    for k in range(3):
        sp[:, 3 + k] = (stones & (libs == k + 1)).float()
    gl = torch.zeros(batch, GLOBAL)
    gl[:, 5] = 7.5 / 20.0
    return sp, gl


def frozen(net, batch, n):
    """TorchScript: traced, frozen and optimize_for_inference'd, which moves
    the convolutions to oneDNN's layouts once and fuses conv + bias + ReLU,
    the best PyTorch 1.13 offers on the CPU without extra packages; the
    board size is baked in (the pooling scale is a constant)."""
    sp, gl = torch.zeros(batch, SPATIAL, n, n), torch.zeros(batch, GLOBAL)
    sp[:, 0] = 1.0
    with torch.inference_mode(False), torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "converting a tensor to a Python float": intended
        traced = torch.jit.trace(net, (sp, gl))
        return torch.jit.optimize_for_inference(torch.jit.freeze(traced.eval()))


def selftest_inputs():
    """The probe's two fixed 19x19 inputs (bench_net_ref_probe.c builds the
    same): 'empty', plane 0 all ones and everything else zero; 'pattern', the
    same plus own stones where (y*19+x) % 7 == 0 and opponent stones where
    it is 3 mod 11 (and not own), and komi 7.5/20 in global 5, so that the
    trunk sees a board that is not uniform."""
    out = []
    for name in ("empty", "pattern"):
        sp = torch.zeros(1, SPATIAL, 19, 19)
        sp[:, 0] = 1.0
        gl = torch.zeros(1, GLOBAL)
        if name == "pattern":
            for k in range(19 * 19):
                if k % 7 == 0:
                    sp[0, 1, k // 19, k % 19] = 1.0
                elif k % 11 == 3:
                    sp[0, 2, k // 19, k % 19] = 1.0
            gl[0, 5] = 7.5 / 20.0
        out.append((name, sp, gl))
    return out


def selftest_lines(net):
    """Per input: value logits (3), score outputs (4), the pass logit, the
    policy logits of points 0 and 180 and the ownership (before tanh) there."""
    lines = []
    with torch.inference_mode():
        for name, sp, gl in selftest_inputs():
            policy, pass_, value, score, own = net(sp, gl)
            pol, ow = policy[0, 0].flatten(), own[0, 0].flatten()
            f = lambda xs: " ".join("%.6f" % x for x in xs)
            lines.append("%s value %s score %s pass %s policy %s own %s"
                  % (name, f(value[0].tolist()), f(score[0, :4].tolist()), f([pass_[0, 0]]),
                     f([pol[0], pol[180]]), f([ow[0], ow[180]])))
    return lines


def compare(mine, probe_file, tol=1e-4):
    """Our lines against the C probe's: same words, every number within tol."""
    with open(probe_file) as f:
        theirs = [ln.strip() for ln in f if ln.strip()]
    a, b = " ".join(mine).split(), " ".join(theirs).split()
    if len(a) != len(b):
        print("net_torch: the probe printed %d fields, we %d" % (len(b), len(a)))
        return 1
    worst, n = 0.0, 0
    for x, y in zip(a, b):
        try:
            d = abs(float(x) - float(y))
        except ValueError:
            if x != y:
                print("net_torch: field %r where the probe has %r" % (x, y))
                return 1
            continue
        worst, n = max(worst, d), n + 1
    ok = worst <= tol
    print("net_torch: %s our C reference pass: max |diff| %.2g over %d numbers (tolerance %g)"
          % ("agrees with" if ok else "DISAGREES with", worst, n, tol))
    return 0 if ok else 1


def bench(net, batch, n, seconds, threads, mode):
    gen = torch.Generator().manual_seed(12)
    sp, gl = random_inputs(batch, n, gen)
    with torch.inference_mode():
        for _ in range(3):  # warm-up: oneDNN primitive creation, allocator
            net(sp, gl)
        evals, t0, c0 = 0, time.perf_counter(), time.process_time()
        while True:
            net(sp, gl)
            evals += batch
            dt = time.perf_counter() - t0
            if dt >= seconds:
                break
    cpu = time.process_time() - c0
    print("net_torch batch=%d threads=%d evals=%d seconds=%.3f evals_per_s=%.1f mode=%s "
          "cpu_s=%.3f" % (batch, threads, evals, dt, evals / dt, mode, cpu))


def bench_cuda(net, batch, n, seconds):
    """The GPU peer of bench_net --backend cuda, doing the same work per call:
    FP32 inputs from pinned host memory onto the GPU, the whole net in FP16
    (channels-last, cuDNN's autotuner on: PyTorch's usual fast inference),
    every output back to the host as FP32 in one copy."""
    torch.backends.cudnn.benchmark = True
    dev = torch.device("cuda")
    net = net.to(dev).half().to(memory_format=torch.channels_last)
    gen = torch.Generator().manual_seed(12)
    sp, gl = random_inputs(batch, n, gen)
    sp, gl = sp.pin_memory(), gl.pin_memory()

    def step():
        x = sp.to(dev, non_blocking=True).half().contiguous(memory_format=torch.channels_last)
        g = gl.to(dev, non_blocking=True).half()
        outs = net(x, g)
        return torch.cat([o.reshape(batch, -1).float() for o in outs], 1).cpu()

    with torch.inference_mode():
        for _ in range(5):  # warm-up: cuDNN's autotuner tries its algorithms here
            step()
        torch.cuda.synchronize()
        evals, t0 = 0, time.perf_counter()
        while True:
            step()  # .cpu() waits for the GPU: each call is complete when timed
            evals += batch
            dt = time.perf_counter() - t0
            if dt >= seconds:
                break
    print("net_torch batch=%d device=cuda evals=%d seconds=%.3f evals_per_s=%.1f mode=fp16 "
          "torch=%s gpu=%s" % (batch, evals, dt, evals / dt, torch.__version__,
                               torch.cuda.get_device_name(0).replace(" ", "_")))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("model")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--seconds", type=float, default=10.0)
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--size", type=int, default=19)
    ap.add_argument("--eager", action="store_true",
                    help="run the plain module, not the frozen TorchScript one")
    ap.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                    help="cuda: time the net in FP16 on the GPU (bench/net_gpu.sh's peer)")
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--compare", metavar="PROBE_OUT",
                    help="compare --selftest's lines with bench_net_ref_probe's output in this file")
    a = ap.parse_args()
    torch.set_num_threads(a.threads)
    try:
        net = Net(a.model).eval()
    except (ValueError, OSError) as e:
        print("net_torch: %s: %s" % (a.model, e), file=sys.stderr)
        return 1
    if a.device == "cuda":
        if not torch.cuda.is_available():
            print("net_torch: --device cuda: this PyTorch sees no GPU", file=sys.stderr)
            return 1
        bench_cuda(net, a.batch, a.size, a.seconds)
    elif a.selftest or a.compare:
        lines = selftest_lines(net if a.eager else frozen(net, 1, 19))
        print("\n".join(lines))
        if a.compare:
            return compare(lines, a.compare)
    else:
        bench(net if a.eager else frozen(net, a.batch, a.size), a.batch, a.size, a.seconds,
              a.threads, "eager" if a.eager else "frozen")
    return 0


if __name__ == "__main__":
    sys.exit(main())
