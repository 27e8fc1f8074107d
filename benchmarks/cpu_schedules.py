#!/usr/bin/python3
"""CPU schedule spaces side by side: naive loops, the heuristic default, the
best of N random legal schedules, and oneDNN, one thread, per task.

Covers the 1024^3 matmul and every task of the zoo's ResNet-50 and BERT-base
(or the models given: names in build/zoo, `torch/<name>` for the torch-mlir
flavour). Each task is outlined into a module of its own
(tcl-extract-tasks outline-dir=...), so every variant runs exactly the same
computation in the same process family, one after the other. Prints a table
of GFLOP/s and ratios, then per task kind the worst default/naive ratio (the
default schedule must never be slower than naive loops), and writes JSON.

    benchmarks/cpu_schedules.py [--build build] [--random 20]
        [--matmul-random 200] [--models resnet50,bert_base] [--out FILE]
    # every task kind of the zoo, default against naive only:
    benchmarks/cpu_schedules.py --random 0 --no-matmul \
        --models resnet50,mobilenet_v2,bert_base,torch/resnet50,torch/vgg16,torch/llama_layer
"""

import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
from outputs import output_path

MATMUL_1024 = """func.func @forward(%a: tensor<1024x1024xf32>, %b: tensor<1024x1024xf32>) -> tensor<1024x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1024x1024xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  %r = linalg.matmul ins(%a, %b : tensor<1024x1024xf32>, tensor<1024x1024xf32>) outs(%c : tensor<1024x1024xf32>) -> tensor<1024x1024xf32>
  return %r : tensor<1024x1024xf32>
}
"""


def run_json(command, json_path):
    """Runs a tcl tool with --json and returns its JSON, or None on failure."""
    if os.path.exists(json_path):
        os.remove(json_path)  # never read a previous task's result
    result = subprocess.run(command + ["--json=" + json_path],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    if result.returncode not in (0, 2) or not os.path.exists(json_path):
        if "has no baseline" in result.stderr:
            return None  # oneDNN has no primitive for this kind: shown as "-"
        sys.stderr.write("  failed: %s\n%s" % (" ".join(command), result.stderr[-2000:]))
        return None
    with open(json_path) as f:
        return json.load(f)


def measure_task(bin_dir, path, work, random_count, repeats):
    """All four variants of one task module; GFLOP/s or None each."""
    run = os.path.join(bin_dir, "tcl-run")
    onednn = os.path.join(bin_dir, "tcl-onednn")
    base = [run, path, "--num-threads=1", "--repeats=%d" % repeats]
    out = {}
    naive = run_json(base[:3] + ["--schedule=loops", "--repeats=3", "--warmup=1"],
                     os.path.join(work, "naive.json"))
    default = run_json(base + ["--schedule=default", "--check"],
                       os.path.join(work, "default.json"))
    random = random_count and run_json(
        base + ["--random-schedules=%d" % random_count, "--check"],
        os.path.join(work, "random.json"))
    vendor = run_json([onednn, path, "--num-threads=1", "--repeats=%d" % repeats],
                      os.path.join(work, "onednn.json"))
    flops = (default or naive or {}).get("flops", 0)
    out["flops"] = flops
    out["naive_s"] = naive and naive["median_s"]
    out["default_s"] = default and default["median_s"]
    out["best_random_s"] = random and random.get("best_median_s")
    out["best_schedule"] = random and random.get("best_schedule")
    out["random_failures"] = random and random.get("failures")
    out["random_count"] = random_count
    out["onednn_s"] = vendor and vendor["median_s"]
    for key in ("naive", "default", "best_random", "onednn"):
        seconds = out[key + "_s"]
        out[key + "_gflops"] = flops / seconds / 1e9 if seconds else None
    return out


def ratio(a, b):
    return a / b if a and b else None


def fmt(value, digits=1):
    return "-" if value is None else ("%.*f" % (digits, value))


def geomean(values):
    values = [v for v in values if v]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(os.path.dirname(__file__), "..", "build"))
    parser.add_argument("--models", default="resnet50,bert_base")
    parser.add_argument("--random", type=int, default=20,
                        help="random legal schedules per model task")
    parser.add_argument("--matmul-random", type=int, default=200,
                        help="random legal schedules for the 1024^3 matmul")
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--no-matmul", action="store_true")
    parser.add_argument("--out", type=output_path, default="cpu_schedules.json")
    args = parser.parse_args()
    bin_dir = os.path.join(args.build, "bin")
    zoo = os.path.join(args.build, "zoo")
    work = tempfile.mkdtemp(prefix="tcl-bench-")

    tasks = []  # (model, kind, path)
    if not args.no_matmul:
        path = os.path.join(work, "matmul_1024.mlir")
        with open(path, "w") as f:
            f.write(MATMUL_1024)
        tasks.append(("matmul1024", "matmul", path, args.matmul_random))
    for model in filter(None, args.models.split(",")):
        outline = os.path.join(work, model)
        subprocess.run([os.path.join(bin_dir, "tcl-opt"), os.path.join(zoo, model + ".mlir"),
                        "--tcl-extract-tasks=outline-dir=" + outline, "-o", "/dev/null"],
                       check=True, stdout=subprocess.DEVNULL)
        for name in sorted(os.listdir(outline)):
            if any(os.path.basename(path) == name for _, _, path, _ in tasks):
                continue  # the same task in an earlier model
            kind = name.rsplit("_", 1)[0]
            tasks.append((model, kind, os.path.join(outline, name), args.random))

    rows = []
    header = "%-17s %-14s %-16s %8s %8s %8s %8s %8s %9s %9s" % (
        "model", "kind", "task", "GFLOP", "naive", "default", "best", "oneDNN",
        "best/dnn", "dflt/nve")
    print("GFLOP/s, one thread; best = best of N random legal schedules")
    print(header)
    for model, kind, path, count in tasks:
        key = os.path.basename(path)[:-5].rsplit("_", 1)[-1]
        result = measure_task(bin_dir, path, work, count, args.repeats)
        result.update({"model": model, "kind": kind, "task": key})
        rows.append(result)
        print("%-17s %-14s %-16s %8.3f %8s %8s %8s %8s %9s %9s" % (
            model, kind, key, result["flops"] / 1e9, fmt(result["naive_gflops"]),
            fmt(result["default_gflops"]), fmt(result["best_random_gflops"]),
            fmt(result["onednn_gflops"]),
            fmt(ratio(result["onednn_s"], result["best_random_s"]), 2),
            fmt(ratio(result["naive_s"], result["default_s"]), 1)), flush=True)

    summary = {}
    mm = [r for r in rows if r["model"] == "matmul1024"]
    if mm:
        summary["matmul1024_best_over_onednn"] = ratio(mm[0]["onednn_s"], mm[0]["best_random_s"])
        summary["matmul1024_default_over_naive"] = ratio(mm[0]["naive_s"], mm[0]["default_s"])
    convs = [r for r in rows if r["model"] == "resnet50" and r["kind"] == "conv2d"]
    if convs:
        summary["resnet50_conv_geomean_best_over_onednn"] = geomean(
            [ratio(r["onednn_s"], r["best_random_s"]) for r in convs])
        summary["resnet50_conv_geomean_default_over_onednn"] = geomean(
            [ratio(r["onednn_s"], r["default_s"]) for r in convs])
    for kind in sorted({r["kind"] for r in rows}):
        ratios = [ratio(r["naive_s"], r["default_s"]) for r in rows if r["kind"] == kind]
        measured = [x for x in ratios if x]
        if measured:
            summary["%s_worst_default_over_naive" % kind] = min(measured)
            summary["%s_default_slower_than_naive" % kind] = sum(x < 1 for x in measured)
    print("summary:")
    for key, value in summary.items():
        print("  %-45s %s" % (key, fmt(value, 3)))
    with open(args.out, "w") as f:
        json.dump({"rows": rows, "summary": summary}, f, indent=2)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
