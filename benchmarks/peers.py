#!/usr/bin/python3
"""tcl against the PyTorch a user already runs, on the same machine: for each
network (batch 1, fp32), PyTorch 1.13 eager and frozen TorchScript against
tcl's default schedule and tcl tuned (`--tcl-tune`, a stated trial budget,
the shipped cost model), all at 1 and 2 threads, the contenders alternated in
rounds and each timed by medians over every round's calls after warm-up.
Prints a table, writes JSON and a PNG bar chart.

    benchmarks/peers.py [--build build] [--models resnet50,...] [--threads 1,2]
        [--trials 300] [--rounds 2] [--runs 10] [--work DIR]
        [--out peers.json] [--png peers.png]

The peer at its best: convolution networks channels-last; frozen is
`torch.jit.optimize_for_inference(torch.jit.freeze(torch.jit.trace(m, x)))`;
its process runs without this machine's OPENBLAS_CORETYPE and
OPENBLAS_L2_SIZE, so that OpenBLAS uses the kernels the CPU really has (the
JSON names the kernel); at 2 threads in three settings, keeping the fastest
per mode: PyTorch's 2 OpenMP threads with OpenBLAS on 1 or on 2 threads (its
threads and PyTorch's can collide), and PyTorch on 1 thread with OpenBLAS on
2 (the matmuls parallel, nothing else).
The same operators and shapes on both sides, not the same weights.

tcl runs the zoo's tcl flavour with its weights as arguments
(build/zoo/args/<model>.mlir), which tcl-run fills with seeded random values
as PyTorch's are: with the zoo's splat constants LLVM folds every weight load
into a broadcast of one value, which would time less memory traffic than a
real network has, and a network of identical tokens (ViT's) makes its layer
norms divide rounding noise by epsilon, so no reordered sum matches the
reference.
Tuning is resumable: with --work, each (model, threads) keeps its database,
log and exported schedules in WORK/<model>_<threads>t and a rerun skips the
tuning already done. The tuner's summary gives the sum of the tuned tasks'
latencies; the tuned module's own median against it is the glue.
"""

import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time
from outputs import output_path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS = ["resnet50", "mobilenet_v2", "resnext50", "bert_base", "vit_b16", "gpt2"]
CONTENDERS = ["torch_eager", "torch_frozen", "tcl_default", "tcl_tuned"]
SECONDS = {"s": 1.0, "ms": 1e-3, "us": 1e-6}
WARMUP = 5


# ---------------------------------------------------------------------------
# The peer: PyTorch, run in a child process of its own (--peer)
# ---------------------------------------------------------------------------

def torch_network(name):
    """The PyTorch module and input of `name`, with the zoo's shapes."""
    import torch
    import torchvision
    nn = torch.nn
    vision = {"resnet50": torchvision.models.resnet50,
              "mobilenet_v2": torchvision.models.mobilenet_v2,
              "resnext50": torchvision.models.resnext50_32x4d,
              "vit_b16": torchvision.models.vit_b_16}
    if name in vision:
        model, x = vision[name]().eval(), torch.randn(1, 3, 224, 224)
        if name != "vit_b16":
            model = model.to(memory_format=torch.channels_last)
            x = x.contiguous(memory_format=torch.channels_last)
        return model, x
    if name == "bert_base":
        layer = nn.TransformerEncoderLayer(768, 12, 3072, dropout=0.0, activation="gelu",
                                           layer_norm_eps=1e-12, batch_first=True)
        return (nn.TransformerEncoder(layer, 12, enable_nested_tensor=False).eval(),
                torch.randn(1, 128, 768))
    if name == "gpt2":
        class Gpt2Stack(nn.Module):
            """GPT-2 small's 12 pre-LN causal blocks, GELU (tanh), and ln_f."""

            def __init__(self, seq=256):
                super().__init__()
                layer = nn.TransformerEncoderLayer(
                    768, 12, 3072, dropout=0.0, activation=nn.GELU(approximate="tanh"),
                    layer_norm_eps=1e-5, batch_first=True, norm_first=True)
                self.blocks = nn.TransformerEncoder(layer, 12, enable_nested_tensor=False)
                self.ln_f = nn.LayerNorm(768, eps=1e-5)
                self.register_buffer("mask", torch.triu(
                    torch.full((seq, seq), float("-inf")), diagonal=1))

            def forward(self, x):
                return self.ln_f(self.blocks(x, mask=self.mask))

        return Gpt2Stack().eval(), torch.randn(1, 256, 768)
    raise SystemExit("peers.py: no PyTorch network '%s'" % name)


def blas_kernel():
    """The BLAS library this process loaded and, for OpenBLAS, its kernel."""
    import ctypes
    paths = set()
    with open("/proc/self/maps") as maps:
        for line in maps:
            path = line.split()[-1]
            if ("blas" in os.path.basename(path).lower() and ".so" in path):
                paths.add(path)
    for path in sorted(paths):
        try:
            library = ctypes.CDLL(path)
            library.openblas_get_corename.restype = ctypes.c_char_p
            return "%s (%s)" % (library.openblas_get_corename().decode(), path)
        except (OSError, AttributeError):
            continue
    return "not OpenBLAS (%s)" % ", ".join(sorted(paths))


def timed_calls(function, runs):
    for _ in range(WARMUP):
        function()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return samples


def peer_main(name, threads, runs):
    """Times `name` eager and frozen on `threads` PyTorch threads; prints one JSON line."""
    import torch
    torch.set_num_threads(threads)
    result = {"torch_threads": threads,
              "openblas_threads": os.environ.get("OPENBLAS_NUM_THREADS")}
    with torch.no_grad():
        model, x = torch_network(name)
        result["torch_eager"] = timed_calls(lambda: model(x), runs)
        try:
            frozen = torch.jit.optimize_for_inference(
                torch.jit.freeze(torch.jit.trace(model, x).eval()))
            result["torch_frozen"] = timed_calls(lambda: frozen(x), runs)
        except Exception as error:  # the peer's failure is a result, not ours
            result["torch_frozen_error"] = str(error)[:500]
    result["blas"] = blas_kernel()
    print(json.dumps(result))


def peer_settings(threads):
    """(PyTorch threads, OpenBLAS threads) tried for the peer on `threads` cores."""
    settings = {(threads, 1), (threads, threads)}
    if threads > 1:
        settings.add((1, threads))
    return sorted(settings)


def run_peer(name, setting, runs):
    torch_threads, openblas_threads = setting
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE")}
    env["OPENBLAS_NUM_THREADS"] = str(openblas_threads)
    run = subprocess.run(["/usr/bin/python3", os.path.abspath(__file__), "--peer", name,
                          "--threads", str(torch_threads), "--runs", str(runs)],
                         capture_output=True, text=True, env=env)
    lines = [l for l in run.stdout.splitlines() if l.startswith("{")]
    if run.returncode != 0 or not lines:
        return {"error": (run.stderr or run.stdout)[-1500:]}
    return json.loads(lines[-1])


# ---------------------------------------------------------------------------
# tcl: tuning (resumable) and tcl-run
# ---------------------------------------------------------------------------

def seconds(text):
    match = re.match(r"([0-9.]+) (s|ms|us)", text.strip())
    return float(match.group(1)) * SECONDS[match.group(2)] if match else None


def tune(build, model, name, threads, trials, work):
    """Tunes once per work directory; returns what the tuner's summary says."""
    library = os.path.join(work, "library.mlir")
    log_path = os.path.join(work, "tune.log")
    done = os.path.join(work, "done")
    start = time.time()
    if not os.path.exists(done):
        options = ("target=x86_64:host:%dt trials=%d db=%s network=%s end-to-end=true"
                   % (threads, trials, os.path.join(work, "tuning.db"), name))
        run = subprocess.run([os.path.join(build, "bin", "tcl-opt"), model,
                              "--tcl-tune=" + options, "--tcl-export-schedules=" + library,
                              "-o", os.devnull], capture_output=True, text=True)
        with open(log_path, "w") as f:
            f.write(run.stderr)
        if run.returncode != 0:
            return {"tune_error": run.stderr[-2000:]}
        with open(done, "w") as f:
            f.write("%.1f\n" % (time.time() - start))
    with open(log_path) as f:
        log = f.read()
    with open(done) as f:
        result = {"library": library, "trials": trials, "tune_wall_s": float(f.read())}
    tasks = re.search(r"  (\S+ \S+) tuned against .+? default schedule .*?, (\d+) of (\d+) tasks",
                      log)
    if tasks:
        result["tasks_sum_s"] = seconds(tasks.group(1))
        result["tasks_summed"], result["tasks"] = int(tasks.group(2)), int(tasks.group(3))
    end = re.search(r"end to end \(whole module, measured\): (.+?) tuned, (.+?) default", log)
    if end:
        result["tuner_module_s"] = seconds(end.group(1))
    untuned = re.search(r"UNTUNED: (\d+) of", log)
    result["untuned"] = int(untuned.group(1)) if untuned else 0
    return result


def run_tcl(build, model, schedule, threads, runs):
    with tempfile.NamedTemporaryFile(suffix=".json") as report:
        run = subprocess.run(
            [os.path.join(build, "bin", "tcl-run"), model, "--schedule=" + schedule,
             "--num-threads=%d" % threads, "--repeats=%d" % runs, "--warmup=%d" % WARMUP,
             "--json=" + report.name], capture_output=True, text=True)
        try:
            with open(report.name) as f:
                data = json.load(f)
        except (OSError, ValueError):
            data = {}
    if run.returncode != 0 or not data.get("samples_s"):
        return {"error": run.stderr[-1500:]}
    return {"samples": data["samples_s"]}


# ---------------------------------------------------------------------------
# The comparison
# ---------------------------------------------------------------------------

def median(values):
    values = sorted(values)
    middle = len(values) // 2
    return values[middle] if len(values) % 2 else 0.5 * (values[middle - 1] + values[middle])


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def measure(args, name, threads, tuned):
    """Alternates the contenders over the rounds; returns every sample."""
    model = os.path.join(args.build, "zoo", "args", name + ".mlir")
    samples = {c: [] for c in CONTENDERS}
    settings = peer_settings(threads)
    peer_samples = {s: {"torch_eager": [], "torch_frozen": []} for s in settings}
    notes = {}
    for round_index in range(args.rounds):
        steps = ["peer", "tcl_default", "tcl_tuned"]
        steps = steps[round_index % 3:] + steps[:round_index % 3]
        for step in steps:
            if step == "peer":
                for setting in settings:
                    result = run_peer(name, setting, args.runs)
                    if "error" in result:
                        notes["peer_error"] = result["error"]
                        continue
                    notes["blas"] = result["blas"]
                    if "torch_frozen_error" in result:
                        notes["torch_frozen_error"] = result["torch_frozen_error"]
                    for mode in ("torch_eager", "torch_frozen"):
                        peer_samples[setting][mode] += result.get(mode, [])
            elif step == "tcl_default" or tuned.get("library"):
                schedule = "default" if step == "tcl_default" else tuned["library"]
                result = run_tcl(args.build, model, schedule, threads, args.runs)
                if "error" in result:
                    notes[step + "_error"] = result["error"]
                samples[step] += result.get("samples", [])
    # The peer's best thread setting, per mode.
    for mode in ("torch_eager", "torch_frozen"):
        options = [(median(peer_samples[s][mode]), s) for s in settings
                   if peer_samples[s][mode]]
        if options:
            best_median, best = min(options)
            samples[mode] = peer_samples[best][mode]
            notes[mode + "_threads"] = "torch %d, OpenBLAS %d" % best
            notes[mode + "_by_threads"] = {"torch %d, OpenBLAS %d" % s: m for m, s in options}
    return samples, notes


def plot(rows, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    thread_counts = sorted({r["threads"] for r in rows})
    fig, axes = plt.subplots(1, len(thread_counts), figsize=(6 * len(thread_counts), 4),
                             squeeze=False)
    for ax, threads in zip(axes[0], thread_counts):
        subset = [r for r in rows if r["threads"] == threads]
        names = [r["model"] for r in subset]
        width = 0.2
        for i, contender in enumerate(CONTENDERS):
            values = [(r["median_s"].get(contender) or 0) * 1e3 for r in subset]
            ax.bar([x + (i - 1.5) * width for x in range(len(names))], values, width,
                   label=contender.replace("_", " "))
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names, rotation=20)
        ax.set_ylabel("median latency, ms (lower is better)")
        ax.set_title("%d thread%s, batch 1, fp32" % (threads, "s" if threads > 1 else ""))
        ax.set_yscale("log")
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--trials", type=int, default=300,
                        help="tuning budget per network and thread count")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--runs", type=int, default=10, help="timed calls per round")
    parser.add_argument("--work", help="keep each tuning in WORK/<model>_<threads>t "
                        "(a rerun resumes); default: a new temporary directory")
    parser.add_argument("--out", type=output_path, default="peers.json")
    parser.add_argument("--png", type=output_path, default="peers.png")
    parser.add_argument("--peer", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peer:
        return peer_main(args.peer, int(args.threads), args.runs)
    work_root = args.work or tempfile.mkdtemp(prefix="tcl-peers-")
    rows = []
    print("%-13s %3s %11s %11s %11s %11s %9s %9s %6s" % (
        "network", "thr", "torch eager", "torch frozen", "tcl default", "tcl tuned",
        "vs torch", "dflt/trch", "glue"))
    for name in filter(None, args.models.split(",")):
        model = os.path.join(args.build, "zoo", "args", name + ".mlir")
        if not os.path.exists(model):
            sys.exit("peers.py: no %s (build the tcl-zoo target)" % model)
        for threads in [int(t) for t in args.threads.split(",")]:
            work = os.path.join(work_root, "%s_%dt" % (name, threads))
            os.makedirs(work, exist_ok=True)
            tuned = tune(args.build, model, name, threads, args.trials, work)
            samples, notes = measure(args, name, threads, tuned)
            medians = {c: median(s) if s else None for c, s in samples.items()}
            peer = min([m for c, m in medians.items() if c.startswith("torch") and m] or [0])
            row = {"model": name, "threads": threads, "median_s": medians,
                   "samples": {c: len(s) for c, s in samples.items()},
                   "tuning": tuned, "notes": notes}
            row["peer_best_s"] = peer or None
            if peer and medians["tcl_tuned"]:
                row["tuned_speedup_over_peer"] = peer / medians["tcl_tuned"]
            if peer and medians["tcl_default"]:
                row["default_over_peer"] = medians["tcl_default"] / peer
            if tuned.get("tasks_sum_s") and medians["tcl_tuned"] and \
                    tuned.get("tasks_summed") == tuned.get("tasks"):
                row["glue"] = medians["tcl_tuned"] / tuned["tasks_sum_s"]
            rows.append(row)

            def ms(value):
                return "%.2f ms" % (value * 1e3) if value else "-"

            print("%-13s %3d %11s %11s %11s %11s %9s %9s %6s" % (
                name, threads, ms(medians["torch_eager"]), ms(medians["torch_frozen"]),
                ms(medians["tcl_default"]), ms(medians["tcl_tuned"]),
                "%.2fx" % row["tuned_speedup_over_peer"]
                if "tuned_speedup_over_peer" in row else "-",
                "%.2fx" % row["default_over_peer"] if "default_over_peer" in row else "-",
                "%.2fx" % row["glue"] if "glue" in row else "-"), flush=True)
            for key, value in notes.items():
                if key.endswith("error"):
                    print("  %s: %s" % (key, value.strip().splitlines()[-1]), file=sys.stderr)
    summary = {}
    for threads in sorted({r["threads"] for r in rows}):
        speedups = [r["tuned_speedup_over_peer"] for r in rows
                    if r["threads"] == threads and "tuned_speedup_over_peer" in r]
        summary["%dt" % threads] = {
            "geomean_tuned_speedup_over_peer": geomean(speedups),
            "networks_no_slower_within_3pct": sum(s >= 0.97 for s in speedups),
            "networks": len(speedups),
            "default_within_1_3x": sum(r.get("default_over_peer", 99) <= 1.3 for r in rows
                                       if r["threads"] == threads)}
        print("%d thread(s): tuned over PyTorch's faster mode, geomean %s; no slower "
              "(within 3%%) on %d of %d networks; default within 1.3x on %d" % (
                  threads, "%.2fx" % summary["%dt" % threads]["geomean_tuned_speedup_over_peer"]
                  if speedups else "-", summary["%dt" % threads]["networks_no_slower_within_3pct"],
                  len(speedups), summary["%dt" % threads]["default_within_1_3x"]))
    with open(args.out, "w") as f:
        json.dump({"trials": args.trials, "rounds": args.rounds, "runs": args.runs,
                   "warmup": WARMUP, "rows": rows, "summary": summary}, f, indent=2)
    plot(rows, args.png)
    print("wrote", args.out, "and", args.png)
    return 0


if __name__ == "__main__":
    sys.exit(main())
