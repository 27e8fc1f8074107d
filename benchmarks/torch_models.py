#!/usr/bin/python3
"""Models as torch-mlir writes them, tuned as a new user would: for each
model of the zoo's torch-mlir flavour (build/zoo/torch), `--tcl-tune` with a
trial budget and its end-to-end run, then `tcl-run --check` of the tuned
schedules on the model. Reports, per model, the tasks the tuner left without
a valid schedule (it must leave none), whether the tuned module matches the
naive-loops reference with finite outputs, and the end-to-end latency tuned
against the default schedule (measured in the same tuner run). Prints a
table and writes JSON.

    benchmarks/torch_models.py [--build build] [--trials 300]
        [--models resnet50,mobilenet_v2,vgg16,llama_layer] [--out FILE]
        [--work DIR]
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
SECONDS = {"s": 1.0, "ms": 1e-3, "us": 1e-6}


def seconds(text):
    """'12.345 ms' -> 0.012345; '-' -> None."""
    match = re.match(r"([0-9.]+) (s|ms|us)", text.strip())
    return float(match.group(1)) * SECONDS[match.group(2)] if match else None


def tune(build, model, trials, work):
    """Runs --tcl-tune with its end-to-end run; returns what its summary says."""
    db = os.path.join(work, "tuning.db")
    library = os.path.join(work, "library.mlir")
    options = "trials=%d db=%s end-to-end=true network=torch_%s" % (trials, db, os.path.basename(model)[:-5])
    start = time.time()
    run = subprocess.run(
        [os.path.join(build, "bin", "tcl-opt"), model, "--tcl-tune=" + options,
         "--tcl-export-schedules=" + library, "-o", os.path.join(work, "tuned.mlir")],
        capture_output=True, text=True)
    log = run.stderr
    with open(os.path.join(work, "tune.log"), "w") as f:
        f.write(log)
    result = {"tune_exit": run.returncode, "tune_wall_s": time.time() - start,
              "library": library}
    untuned = re.search(r"UNTUNED: (\d+) of (\d+) tasks", log)
    result["untuned"] = int(untuned.group(1)) if untuned else 0
    tasks = re.findall(r"^(\S+)\s+([0-9a-f]{16})\s+\d+\s+\d+ .*\s(tuned|default|UNTUNED)$",
                       log, re.MULTILINE)
    result["tasks"] = len(tasks)
    result["tasks_keeping_default"] = sum(uses == "default" for _, _, uses in tasks)
    end = re.search(r"end to end \(whole module, measured\): (.+?) tuned, (.+?) default", log)
    if end:
        result["tuned_s"], result["default_s"] = seconds(end.group(1)), seconds(end.group(2))
    if run.returncode != 0:
        result["error"] = log[-2000:]
    return result


def check(build, model, library, work):
    """tcl-run --check of the tuned schedules on the model, channels-last as
    the tuner rewrote it; whether it matches with finite outputs."""
    nhwc = os.path.join(work, "nhwc.mlir")
    subprocess.run([os.path.join(build, "bin", "tcl-opt"), model,
                    "--tcl-convert-conv-to-nhwc", "-o", nhwc], check=True)
    report = os.path.join(work, "check.json")
    run = subprocess.run(
        [os.path.join(build, "bin", "tcl-run"), nhwc, "--schedule=" + library,
         "--check", "--repeats=3", "--warmup=1", "--json=" + report],
        capture_output=True, text=True)
    if not os.path.exists(report):
        return {"check_ok": False, "check_error": run.stderr[-2000:]}
    with open(report) as f:
        data = json.load(f)
    finite = all(c["non_finite_reference"] == 0 and c["non_finite"] == 0
                 for c in data.get("checks", []))
    return {"check_ok": bool(data.get("ok")) and run.returncode == 0,
            "outputs_finite": finite,
            "checked_outputs": len(data.get("checks", []))}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--trials", type=int, default=300)
    parser.add_argument("--models", default="resnet50,mobilenet_v2,vgg16,llama_layer")
    parser.add_argument("--out", type=output_path, default="torch_models.json")
    parser.add_argument("--work", help="keep each model's database, logs and library "
                        "in WORK/<model> (a rerun resumes the tuning); default: a new "
                        "temporary directory")
    args = parser.parse_args()
    rows = []
    print("%-13s %6s %7s %8s %8s %11s %11s %8s" % (
        "model", "tasks", "untuned", "check", "finite", "default", "tuned", "speedup"))
    for name in filter(None, args.models.split(",")):
        model = os.path.join(args.build, "zoo", "torch", name + ".mlir")
        if not os.path.exists(model):
            sys.exit("torch_models.py: no %s (build the tcl-zoo target)" % model)
        if args.work:
            work = os.path.join(args.work, name)
            os.makedirs(work, exist_ok=True)
        else:
            work = tempfile.mkdtemp(prefix="tcl-torch-%s-" % name)
        row = {"model": name, "trials": args.trials, "work": work}
        row.update(tune(args.build, model, args.trials, work))
        if row["tune_exit"] == 0:
            row.update(check(args.build, model, row["library"], work))
        speedup = (row["default_s"] / row["tuned_s"]
                   if row.get("tuned_s") and row.get("default_s") else None)
        row["speedup_over_default"] = speedup
        rows.append(row)
        print("%-13s %6d %7d %8s %8s %11s %11s %8s" % (
            name, row["tasks"], row["untuned"], row.get("check_ok", "-"),
            row.get("outputs_finite", "-"),
            "%.3f ms" % (row["default_s"] * 1e3) if row.get("default_s") else "-",
            "%.3f ms" % (row["tuned_s"] * 1e3) if row.get("tuned_s") else "-",
            "%.2fx" % speedup if speedup else "-"), flush=True)
        if "error" in row:
            print(row["error"], file=sys.stderr)
    passed = all(r["tune_exit"] == 0 and r["untuned"] == 0 and r.get("check_ok")
                 and r.get("outputs_finite") and (r["speedup_over_default"] or 0) > 1
                 for r in rows)
    print("all tuned, checked, finite and faster than the default schedule:", passed)
    with open(args.out, "w") as f:
        json.dump({"rows": rows, "passed": passed}, f, indent=2)
    print("wrote", args.out)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
