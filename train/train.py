"""train/train.py — trains the patent's net on a labels folder (train/README.md).

  /usr/bin/python3 train/train.py --data DIR --config train/configs/NAME.json
      --out DIR [--seed S] [--device cpu|cuda] [--resume | --resume-anyway]
      [--steps N] [--threads T]

Writes OUT/checkpoint.pt (every checkpoint_every steps, at the end and on
SIGINT/SIGTERM, atomically) and OUT/log.jsonl (progress and validation lines);
prints progress. Deterministic for a seed on the CPU; --resume continues from
OUT/checkpoint.pt to exactly the weights an uninterrupted run reaches.
"""
from __future__ import annotations

import argparse
import json
import os
import pickle
import signal
import sys
import time
from typing import Dict, Optional


def _stopped_starting(sig: int, frame: object) -> None:
    print("train: stopped by SIGINT while starting; nothing written", file=sys.stderr, flush=True)
    os._exit(130)   # not sys.exit: torch's C import code turns that into a traceback


if __name__ == "__main__":
    # torch takes seconds to load: a Ctrl-C then is a stop, not a traceback
    # (run() puts the Stop handler in place before anything is written)
    signal.signal(signal.SIGINT, _stopped_starting)

import numpy as np  # noqa: E402
import torch  # noqa: E402
import torch.nn.functional as F  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hsdata  # noqa: E402
from model import Net, param_count  # noqa: E402

DEFAULTS = {
    "board_size": 19, "blocks": 6, "channels": 64, "input_kernel": 5,
    "P": 32, "G": 32, "V": 32, "H": 64,
    "batch": 64, "steps": 1000, "lr": 0.02, "momentum": 0.9, "warmup_steps": 100,
    "weight_decay": 3e-5, "w_ownership": 1.0, "w_policy": 1.0, "w_value": 1.0,
    "w_score": 0.01, "score_huber_delta": 10.0, "lr_drops": [],
    "log_every": 10, "val_every": 500, "val_samples": 4096, "checkpoint_every": 500,
}
# the keys that change the numbers a run computes (a resume must not change them)
RUN_KEYS = [k for k in DEFAULTS if k not in ("steps", "log_every", "val_every",
                                              "val_samples", "checkpoint_every")]


def read_json(path: str) -> Dict:
    """The config file's object; a syntax error names the file and the place."""
    try:
        with open(path, encoding="utf-8") as f:
            cfg = json.load(f)
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: line {e.lineno} column {e.colno}: {e.msg}") from e
    except UnicodeDecodeError as e:
        raise ValueError(f"{path}: not UTF-8 text (byte {e.start})") from e
    if not isinstance(cfg, dict):
        raise ValueError(f"{path}: not a JSON object ({{...}})")
    return cfg


def load_config(path: str, steps: int | None) -> Dict:
    cfg = read_json(path)
    unknown = set(cfg) - set(DEFAULTS) - {"comment"}
    if unknown:
        raise ValueError(f"{path}: unknown keys {sorted(unknown)}")
    full = dict(DEFAULTS)
    full.update(cfg)
    full.pop("comment", None)
    if steps is not None:
        full["steps"] = steps
    check_config(full, path)
    return full


# The least each whole-number key may be: a net of 0 blocks trains and exports,
# then the engine refuses it; a batch or a period of 0 divides by zero later.
MIN_INT = {"board_size": 2, "blocks": 1, "channels": 1, "input_kernel": 1, "P": 1, "G": 1,
           "V": 1, "H": 1, "batch": 1, "steps": 1, "warmup_steps": 0, "log_every": 1,
           "val_every": 0, "val_samples": 0, "checkpoint_every": 1}


def check_config(cfg: Dict, path: str) -> None:
    """ValueError naming the first key whose value the run cannot use."""
    for k, least in MIN_INT.items():
        v = cfg[k]
        if isinstance(v, bool) or not isinstance(v, int) or v < least:
            raise ValueError(f"{path}: {k} must be a whole number >= {least}, not {v!r}"
                             + (" (--steps)" if k == "steps" else ""))
    if cfg["board_size"] > 19:
        raise ValueError(f"{path}: board_size must be at most 19, not {cfg['board_size']}")
    if cfg["input_kernel"] % 2 == 0:
        raise ValueError(f"{path}: input_kernel must be odd (3 or 5), not {cfg['input_kernel']}")
    for k in DEFAULTS:
        if k in MIN_INT or k == "lr_drops":
            continue
        v = cfg[k]
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not v >= 0:
            raise ValueError(f"{path}: {k} must be a number >= 0, not {v!r}")
    if cfg["lr"] <= 0:
        raise ValueError(f"{path}: lr must be above 0, not {cfg['lr']!r}")
    drops = cfg["lr_drops"]
    if not isinstance(drops, list) or any(isinstance(d, bool) or not isinstance(d, int) or d < 0
                                          for d in drops):
        raise ValueError(f"{path}: lr_drops must be a list of steps (whole numbers >= 0), "
                         f"not {drops!r}")


def losses(out: Dict[str, torch.Tensor], b: Dict[str, torch.Tensor], cfg: Dict) -> Dict[str, torch.Tensor]:
    """The patent's loss terms (L2 is the optimizer's weight decay) and their sum."""
    own = F.mse_loss(out["ownership"], b["ownership"])
    valid = b["policy"] >= 0
    ce = F.cross_entropy(out["policy"], b["policy"], ignore_index=-1, reduction="sum")
    pol = ce / valid.sum().clamp(min=1)
    val = F.mse_loss(out["value"], b["value"])
    score = F.huber_loss(out["score"], b["score"], delta=cfg["score_huber_delta"])
    total = (cfg["w_ownership"] * own + cfg["w_policy"] * pol + cfg["w_value"] * val
             + cfg["w_score"] * score)
    return {"loss": total, "ownership": own, "policy": pol, "value": val, "score": score}


def to_device(batch: Dict[str, np.ndarray], dev: torch.device) -> Dict[str, torch.Tensor]:
    return {k: torch.from_numpy(np.ascontiguousarray(v)).to(dev) for k, v in batch.items()}


@torch.no_grad()
def validate(net: Net, data: hsdata.Labels, cfg: Dict, dev: torch.device) -> Dict[str, float]:
    """Ownership MSE and sign agreement (points labelled +-1), policy top-1,
    value MSE and score mean absolute error over the first val_samples samples."""
    net.eval()
    sums = dict(own_se=0.0, points=0, agree=0, labelled=0, top1=0, moves=0, value_se=0.0,
                score_ae=0.0, samples=0)
    for nb in data.in_order(cfg["batch"], cfg["val_samples"]):
        b = to_device(nb, dev)
        out = net(b["planes"])
        own, lab = out["ownership"], b["ownership"]
        sums["own_se"] += float(((own - lab) ** 2).sum())
        sums["points"] += lab.numel()
        marked = lab != 0
        sums["agree"] += int((torch.sign(own)[marked] == lab[marked]).sum())
        sums["labelled"] += int(marked.sum())
        valid = b["policy"] >= 0
        sums["top1"] += int((out["policy"].argmax(1)[valid] == b["policy"][valid]).sum())
        sums["moves"] += int(valid.sum())
        sums["value_se"] += float(((out["value"] - b["value"]) ** 2).sum())
        sums["score_ae"] += float((out["score"] - b["score"]).abs().sum())
        sums["samples"] += len(lab)
    net.train()
    s = max(sums["samples"], 1)
    return {"samples": sums["samples"],
            "ownership_mse": sums["own_se"] / max(sums["points"], 1),
            "ownership_sign_agreement": sums["agree"] / max(sums["labelled"], 1),
            "policy_top1": sums["top1"] / max(sums["moves"], 1),
            "value_mse": sums["value_se"] / s, "score_mae": sums["score_ae"] / s}


def make_optimizer(net: Net, cfg: Dict) -> torch.optim.Optimizer:
    """SGD with momentum; L2 as weight decay on the conv and dense weights only
    (not on biases or BN parameters, whose decay would only fight the folding)."""
    decay = [p for n, p in net.named_parameters() if p.ndim > 1]
    rest = [p for n, p in net.named_parameters() if p.ndim <= 1]
    return torch.optim.SGD([{"params": decay, "weight_decay": cfg["weight_decay"]},
                            {"params": rest, "weight_decay": 0.0}],
                           lr=cfg["lr"], momentum=cfg["momentum"])


def lr_at(cfg: Dict, step: int) -> float:
    """Linear warm-up to lr over warmup_steps, then constant but for a tenth
    after each step listed in lr_drops (fixed steps, not fractions of --steps,
    so the schedule does not depend on --steps and a longer run extends a
    shorter one). A short CPU run gains most from its last steps at a low
    rate, which is what the drops give."""
    drops = sum(1 for d in cfg.get("lr_drops", []) if step >= d)
    return cfg["lr"] * min(1.0, (step + 1) / max(cfg["warmup_steps"], 1)) * 0.1 ** drops


def save(path: str, state: Dict) -> None:
    tmp = path + ".tmp"
    torch.save(state, tmp)
    os.replace(tmp, path)


def finite(net: Net) -> bool:
    """Whether every weight and BN statistic is finite: a diverging run's loss
    can stay finite (train-mode BN) while the running statistics that eval and
    the export use have overflowed. One device sync, not one per tensor."""
    return bool(torch.stack([torch.isfinite(t).all() for t in net.state_dict().values()
                             if t.is_floating_point()]).all())


class NotFinite(Exception):
    """The run diverged: nothing more may be saved over the last good checkpoint."""


STOP_CODES = {signal.SIGINT: 130, signal.SIGTERM: 143}


class Stop:
    """SIGINT/SIGTERM only set a flag, which the loop reads between whole steps:
    a half-done optimizer step is never saved, and what is saved is a checkpoint
    like a scheduled one, so --resume goes on exactly. A second signal is
    ignored (the save under way finishes; it is atomic anyway)."""

    def __init__(self) -> None:
        self.sig: Optional[int] = None
        self.old: Dict[int, object] = {}

    def __enter__(self) -> "Stop":
        for s in STOP_CODES:
            self.old[s] = signal.signal(s, self._set)
        return self

    def __exit__(self, *exc: object) -> None:
        for s, handler in self.old.items():
            signal.signal(s, handler)

    def _set(self, sig: int, frame: object) -> None:
        if self.sig is None:
            self.sig = sig

    def name(self) -> str:
        return signal.Signals(self.sig).name

    def code(self) -> int:
        return STOP_CODES[self.sig]


class Log:
    def __init__(self, path: str):
        self.f = open(path, "a", encoding="utf-8")

    def write(self, rec: Dict) -> None:
        self.f.write(json.dumps(rec) + "\n")
        self.f.flush()


def setup_determinism(dev: torch.device) -> None:
    if dev.type == "cuda":
        # cuBLAS is only deterministic with a fixed workspace (set before its first use)
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
        torch.backends.cudnn.benchmark = False
        torch.backends.cudnn.deterministic = True
    torch.use_deterministic_algorithms(True)


def open_data(folder: str, cfg: Dict, config_path: str) -> tuple:
    """The train and val splits of the config's board size, checked before
    anything is written: a run that cannot start leaves no folder or log."""
    n, batch = cfg["board_size"], cfg["batch"]
    train = hsdata.Labels(folder, "train", n)
    val = hsdata.Labels(folder, "val", n)
    if train.count == 0:
        held = hsdata.sizes(folder, "train")
        if held:
            raise hsdata.DataError(
                f"{folder} holds no train samples of {n}x{n}, only of "
                + ", ".join(f"{s}x{s}" for s in held)
                + f": board_size in {config_path} must match the data")
        raise hsdata.DataError(f"{folder}: index.json lists no train shards")
    if train.batches_per_epoch(batch) == 0:
        raise hsdata.DataError(f"the train split has {train.count} samples of {n}x{n}: "
                               f"fewer than one batch of {batch}")
    return train, val


def data_record(folder: str, train: hsdata.Labels, val: hsdata.Labels) -> Dict:
    """What a checkpoint keeps of its data: the shards' names, sizes and CRCs
    say whether a resume sees the same samples (the folder is for messages:
    the same shards moved elsewhere are the same data)."""
    return {"folder": os.path.abspath(folder), "train": train.files, "val": val.files}


def load_checkpoint(path: str) -> Dict:
    try:
        ck = torch.load(path, map_location="cpu")
    except (pickle.UnpicklingError, RuntimeError, EOFError) as e:
        raise ValueError(f"{path} is not a checkpoint of train/train.py ({e})") from e
    if not isinstance(ck, dict) or not {"config", "model", "step"} <= set(ck):
        raise ValueError(f"{path} is not a checkpoint of train/train.py")
    return ck


def resume_from(a: argparse.Namespace, cfg: Dict, ck_path: str, data: Dict) -> Optional[Dict]:
    """The checkpoint to continue (None for a new run); ValueError where it
    may not be continued with this config and data."""
    if not a.resume:
        if os.path.exists(ck_path):
            raise ValueError(f"{ck_path} exists: --resume to continue it, or another --out")
        return None
    if not os.path.exists(ck_path):
        raise ValueError(f"--resume but there is no {ck_path}")
    ck = load_checkpoint(ck_path)
    changed = [k for k in RUN_KEYS if ck["config"].get(k) != cfg[k]]
    if changed:
        raise ValueError(f"the config differs from the checkpoint's in {changed}")
    old = ck.get("data")
    if old is None:     # an older trainer's checkpoint: nothing to compare
        print(f"train: {ck_path} does not record its data; resuming on {a.data}", flush=True)
    elif (old["train"], old["val"]) != (data["train"], data["val"]):
        if not a.resume_anyway:
            raise ValueError(f"--data {a.data} is not the data {ck_path} was trained on "
                             f"({old['folder']}), so the run would not match an uninterrupted "
                             "one; --resume-anyway to go on with it all the same")
        print(f"train: resuming on other data than the checkpoint's ({old['folder']})",
              flush=True)
    if a.seed != ck["seed"]:
        print(f"train: resuming with the checkpoint's seed {ck['seed']}", flush=True)
    return ck


def run(a: argparse.Namespace, stop: Stop) -> int:
    cfg = load_config(a.config, a.steps)
    torch.set_num_threads(a.threads or os.cpu_count() or 1)
    if a.device == "cuda" and not torch.cuda.is_available():
        print("train: --device cuda but torch sees no CUDA device", file=sys.stderr)
        return 1
    dev = torch.device(a.device)
    setup_determinism(dev)
    train, val = open_data(a.data, cfg, a.config)
    data = data_record(a.data, train, val)
    ck_path = os.path.join(a.out, "checkpoint.pt")
    ck = resume_from(a, cfg, ck_path, data)
    if stop.sig is not None:
        print(f"train: stopped by {stop.name()} before training began; nothing written",
              file=sys.stderr)
        return stop.code()
    os.makedirs(a.out, exist_ok=True)
    seed, step, position = a.seed, 0, 0
    if ck is not None:
        seed, step, position = ck["seed"], ck["step"], ck["data_position"]
    torch.manual_seed(seed)
    net = Net(cfg).to(dev)
    opt = make_optimizer(net, cfg)
    if ck is not None:
        net.load_state_dict(ck["model"])
        opt.load_state_dict(ck["optimizer"])
        torch.set_rng_state(ck["rng_cpu"])
        if dev.type == "cuda" and ck.get("rng_cuda") is not None:
            torch.cuda.set_rng_state(ck["rng_cuda"])
    net.train()
    log = Log(os.path.join(a.out, "log.jsonl"))
    print(f"train: {train.count} train / {val.count} val samples of {cfg['board_size']}x"
          f"{cfg['board_size']}; net {cfg['blocks']}x{cfg['channels']}, "
          f"{param_count(net)} parameters; steps {step}..{cfg['steps']} on {dev}, "
          f"{torch.get_num_threads()} threads, seed {seed}", flush=True)
    log.write({"kind": "start", "step": step, "seed": seed, "device": str(dev),
               "threads": torch.get_num_threads(), "train_samples": train.count,
               "val_samples": val.count, "params": param_count(net), "config": cfg})
    saved = ck["step"] if ck is not None else None    # the step of the checkpoint on disk

    def check_weights() -> None:
        if not finite(net):     # a diverged run must not replace the last good checkpoint
            raise NotFinite(f"the weights are not finite at step {step}")

    def checkpoint() -> None:
        nonlocal saved
        check_weights()
        save(ck_path, {"config": cfg, "model": net.state_dict(), "optimizer": opt.state_dict(),
                       "step": step, "data_position": position, "seed": seed, "data": data,
                       "rng_cpu": torch.get_rng_state(),
                       "rng_cuda": torch.cuda.get_rng_state() if dev.type == "cuda" else None})
        saved = step

    t0, window_t, window_steps = time.time(), time.time(), 0
    acc: Dict[str, float] = {}
    try:
        while step < cfg["steps"] and stop.sig is None:
            b = to_device(train.batch(seed, position, cfg["batch"], augment=True), dev)
            position += 1
            for g in opt.param_groups:
                g["lr"] = lr_at(cfg, step)
            ls = losses(net(b["planes"]), b, cfg)
            if not torch.isfinite(ls["loss"]):
                raise NotFinite(f"loss is not finite at step {step + 1}")
            opt.zero_grad(set_to_none=True)
            ls["loss"].backward()
            opt.step()
            step += 1
            window_steps += 1
            for k, v in ls.items():
                acc[k] = acc.get(k, 0.0) + float(v)
            if step % cfg["log_every"] == 0 or step == cfg["steps"]:
                check_weights()
                now = time.time()
                sps = window_steps * cfg["batch"] / max(now - window_t, 1e-9)
                eta = (cfg["steps"] - step) * cfg["batch"] / max(sps, 1e-9)
                rec = {"kind": "train", "step": step, "samples_per_s": round(sps, 1),
                       "eta_s": round(eta), "lr": lr_at(cfg, step - 1)}
                rec.update({k: v / window_steps for k, v in acc.items()})
                log.write(rec)
                print(f"step {step}/{cfg['steps']}  {sps:.1f} samples/s  loss {rec['loss']:.4f} "
                      f"(own {rec['ownership']:.4f} pol {rec['policy']:.3f} val {rec['value']:.3f} "
                      f"score {rec['score']:.2f})  ETA {eta / 60:.1f} min", flush=True)
                acc, window_t, window_steps = {}, time.time(), 0
            if val.count and ((cfg["val_every"] and step % cfg["val_every"] == 0)
                              or step == cfg["steps"]):
                v = validate(net, val, cfg, dev)
                log.write({"kind": "val", "step": step, **v})
                print(f"val step {step}: " + " ".join(f"{k} {x:.4g}" for k, x in v.items()),
                      flush=True)
            if step % cfg["checkpoint_every"] == 0 or step == cfg["steps"]:
                checkpoint()
        if stop.sig is not None:
            if saved != step:
                checkpoint()
            log.write({"kind": "stop", "step": step, "signal": stop.name()})
            print(f"train: stopped by {stop.name()} at step {step}; checkpoint saved; rerun "
                  "the same command with --resume to go on", file=sys.stderr)
            return stop.code()
        if step == 0 or (ck is not None and step == ck["step"]):
            checkpoint()
        log.write({"kind": "end", "step": step, "seconds": round(time.time() - t0, 1)})
    except NotFinite as e:
        log.write({"kind": "stop", "step": step, "error": str(e)})
        kept = (f"the last checkpoint (step {saved}) is kept" if saved is not None
                else "no checkpoint was written")
        print(f"train: {e} (try a lower lr); {kept}", file=sys.stderr)
        return 1
    finally:
        log.f.close()
    print(f"train: done at step {step} in {time.time() - t0:.0f} s; {ck_path}", flush=True)
    return 0


def main(argv: list | None = None) -> int:
    ap = argparse.ArgumentParser(description="Trains hyeongse's ownership net (train/README.md).")
    ap.add_argument("--data", required=True, help="labels folder (index.json + shards)")
    ap.add_argument("--config", required=True, help="train/configs/NAME.json")
    ap.add_argument("--out", required=True, help="folder for checkpoint.pt and log.jsonl")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--device", choices=["cpu", "cuda"], default="cpu")
    ap.add_argument("--resume", action="store_true", help="continue from OUT/checkpoint.pt")
    ap.add_argument("--resume-anyway", action="store_true",
                    help="--resume even where --data is not the checkpoint's data")
    ap.add_argument("--steps", type=int, default=None, help="overrides the config's steps")
    ap.add_argument("--threads", type=int, default=0, help="torch threads (default: all cores)")
    a = ap.parse_args(argv)
    if a.threads < 0:
        ap.error(f"--threads must be 0 (all cores) or more, not {a.threads}")
    a.resume = a.resume or a.resume_anyway
    try:
        with Stop() as stop:
            return run(a, stop)
    except (hsdata.DataError, ValueError, OSError) as e:
        print(f"train: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    code = main()
    # Python puts the default handlers back while it shuts down (torch takes a
    # while): a second Ctrl-C then would turn exit 130 into a death by signal
    for s in STOP_CODES:
        signal.signal(s, signal.SIG_IGN)
    sys.exit(code)
