#!/usr/bin/python3
"""Cost and stability of measuring candidates, on ResNet-50 convolution tasks
and BERT-base matmul / batch_matmul tasks (zoo models, weights as arguments).

1. Stability: --stability-schedules schedules (drawn evenly from the
   selected tasks) are measured --stability-repeats times each, every time
   in a fresh `tcl-run` process (new compile, new inputs, interleaved in
   time). The relative spread of a schedule is (p90 - p10) / median of its
   repeated medians, the same definition `Timing` uses; the table shows its
   median over schedules and the fraction within 5%. The JSON keeps every
   schedule's medians.
2. Per-candidate cost: `tcl-collect` measures --schedules random schedules of
   every selected task into a fresh database, once with 1 worker and once
   with 2. Each record carries its wall time (process, build, timing,
   check); the table shows its median per family, and the throughput
   (candidates per second) of each run.

Prints tables and writes JSON (--out). Run it on an otherwise idle machine:
candidates take the same core locks as a running collection and wait for it.

    benchmarks/measurement.py [--build build] [--schedules 8] [--parts stability,cost]
                              [--out FILE]
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from outputs import output_path

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")


def percentile(values, fraction):
    values = sorted(values)
    position = fraction * (len(values) - 1)
    lower = int(position)
    upper = min(lower + 1, len(values) - 1)
    weight = position - lower
    return values[lower] * (1 - weight) + values[upper] * weight


def relative_spread(values):
    middle = statistics.median(values)
    return (percentile(values, 0.9) - percentile(values, 0.1)) / middle if middle else 0


def outline_tasks(bin_dir, work):
    """ResNet-50 conv tasks and BERT-base matmul tasks as standalone files."""
    zoo = os.path.join(work, "zoo")
    subprocess.run(["/usr/bin/python3", os.path.join(ROOT, "python", "tcl", "zoo.py"),
                    "--out", zoo, "--models", "resnet50,bert_base", "--weights", "args"],
                   check=True, stdout=subprocess.DEVNULL)
    families = {}
    for model, family, prefixes in [("resnet50", "resnet50 conv", ("conv2d_",)),
                                    ("bert_base", "bert matmul", ("matmul_", "batch_matmul_"))]:
        out = os.path.join(work, model)
        subprocess.run([os.path.join(bin_dir, "tcl-opt"), os.path.join(zoo, model + ".mlir"),
                        "--tcl-extract-tasks=outline-dir=" + out, "-o", os.devnull],
                       check=True, stdout=subprocess.DEVNULL)
        families[family] = sorted(os.path.join(out, name) for name in os.listdir(out)
                                  if name.startswith(prefixes))
    return families


def collect(bin_dir, tasks, workers, schedules, database):
    started = time.monotonic()
    result = subprocess.run(
        [os.path.join(bin_dir, "tcl-collect"), *tasks, "--db=" + database,
         "--schedules-per-task=%d" % schedules, "--round-size=%d" % schedules,
         "--workers=%d" % workers, "--onednn=none", "--no-progress"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seconds = time.monotonic() - started
    if result.returncode != 0:
        sys.exit("tcl-collect failed:\n" + result.stderr[-3000:])
    rate = float(re.search(r"([0-9.]+) measurements/s", result.stdout).group(1))
    exported = subprocess.run([os.path.join(bin_dir, "tcl-db"), "export", database],
                              check=True, stdout=subprocess.PIPE, text=True).stdout
    records = [json.loads(line) for line in exported.splitlines()]
    return [r for r in records if r["type"] == "record"], rate, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--schedules", type=int, default=8,
                        help="schedules per task in the cost runs")
    parser.add_argument("--stability-schedules", type=int, default=50)
    parser.add_argument("--stability-repeats", type=int, default=10)
    parser.add_argument("--stability-tasks", type=int, default=10,
                        help="tasks the stability schedules are drawn from")
    parser.add_argument("--parts", default="stability,cost",
                        help="which parts to run: cost, stability or both")
    parser.add_argument("--out", type=output_path, default="measurement.json")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    bin_dir = os.path.join(args.build, "bin")
    work = tempfile.mkdtemp(prefix="tcl-measurement-")
    families = outline_tasks(bin_dir, work)
    key_family = {os.path.basename(path).rsplit("_", 1)[1][:-5]: family
                  for family, paths in families.items() for path in paths}
    report = {"cost": [], "throughput": [], "stability": {}}

    # Stability first: for some seconds after the cost part's two busy
    # workers, kernels here ran 5-25% slower (docs/measurement.md).
    if "stability" in parts:
        measure_stability(args, bin_dir, work, families, report)
    if "cost" in parts:
        measure_cost(args, bin_dir, work, families, key_family, report)
    with open(args.out, "w") as f:
        json.dump(report, f, indent=2)
    print("\nwrote " + args.out)


def measure_cost(args, bin_dir, work, families, key_family, report):
    print("== Per-candidate cost (build + measure + check, wall time per record)")
    print("%-16s %8s %11s %14s %14s %11s" % ("family", "workers", "candidates",
                                             "median cost s", "p90 cost s", "valid"))
    for workers in (1, 2):
        tasks = [path for paths in families.values() for path in paths]
        database = os.path.join(work, "cost-%d.db" % workers)
        records, rate, seconds = collect(bin_dir, tasks, workers, args.schedules, database)
        for family in families:
            mine = [r for r in records if key_family.get(r["task"]) == family]
            costs = [r["wall_s"] for r in mine]
            row = {"family": family, "workers": workers, "candidates": len(mine),
                   "median_cost_s": statistics.median(costs),
                   "p90_cost_s": percentile(costs, 0.9),
                   "valid": sum(r["status"] == "ok" for r in mine)}
            report["cost"].append(row)
            print("%-16s %8d %11d %14.3f %14.3f %11d" % (
                family, workers, row["candidates"], row["median_cost_s"],
                row["p90_cost_s"], row["valid"]))
        report["throughput"].append({"workers": workers, "candidates": len(records),
                                     "seconds": seconds, "per_second": rate})
    print()
    print("%-8s %11s %10s %16s" % ("workers", "candidates", "seconds", "candidates/s"))
    for row in report["throughput"]:
        print("%-8d %11d %10.1f %16.2f" % (row["workers"], row["candidates"],
                                           row["seconds"], row["per_second"]))
    one, two = (row["per_second"] for row in report["throughput"])
    print("speed-up with 2 workers: %.2fx" % (two / one))



def measure_stability(args, bin_dir, work, families, report):
    """The same schedules, each measured in fresh processes."""
    print()
    print("== Stability: %d schedules x %d measurements, each in a fresh tcl-run"
          % (args.stability_schedules, args.stability_repeats))
    pool = []
    for family, paths in families.items():
        step = max(1, len(paths) // (args.stability_tasks // len(families)))
        pool += paths[::step][:args.stability_tasks // len(families)]
    per_task = -(-args.stability_schedules // len(pool))
    medians, minimums = {}, {}
    dropped, gave_up, measurements = [], 0, 0
    for repeat in range(args.stability_repeats):
        for path in pool:
            json_path = os.path.join(work, "stability.json")
            subprocess.run([os.path.join(bin_dir, "tcl-run"), path,
                            "--random-schedules=%d" % per_task, "--schedule-seed=1",
                            "--cores=0", "--json=" + json_path],
                           check=True, stdout=subprocess.DEVNULL)
            with open(json_path) as f:
                for candidate in json.load(f)["candidates"]:
                    if candidate["ok"]:
                        measurements += 1
                        kept = len(candidate["samples_s"])
                        lost = candidate.get("contended_samples", 0)
                        dropped.append(lost / (kept + lost))
                        gave_up += bool(candidate.get("contended"))
                        key = (os.path.basename(path), candidate["schedule"])
                        medians.setdefault(key, []).append(candidate["median_s"])
                        minimums.setdefault(key, []).append(candidate["min_s"])
        sys.stdout.write("\r  round %d/%d" % (repeat + 1, args.stability_repeats))
        sys.stdout.flush()
    print()
    # The first --stability-schedules schedules measured every time, in a
    # fixed order (never chosen by how stable they were).
    keys = sorted(key for key, values in medians.items()
                  if len(values) == args.stability_repeats)[:args.stability_schedules]
    spreads = [relative_spread(medians[key]) for key in keys]
    min_spreads = [relative_spread(minimums[key]) for key in keys]
    ranges = [(max(medians[key]) - min(medians[key])) / statistics.median(medians[key])
              for key in keys]
    stability = {"schedules": len(spreads), "repeats": args.stability_repeats,
                 "median_relative_spread": statistics.median(spreads),
                 "p90_relative_spread": percentile(spreads, 0.9),
                 "within_5_percent": sum(s <= 0.05 for s in spreads) / len(spreads),
                 "median_max_min_range": statistics.median(ranges),
                 "median_relative_spread_of_minimums": statistics.median(min_spreads),
                 "median_fraction_of_samples_dropped_as_contended": statistics.median(dropped),
                 "measurements_still_contended_after_patience": gave_up / measurements,
                 "medians_s": {"%s %s" % key: medians[key] for key in keys}}
    report["stability"] = stability
    print("%-10s %9s %24s %21s %18s %22s" % ("schedules", "repeats", "median (p90-p10)/median",
                                             "p90 of the spreads", "within 5%",
                                             "median (max-min)/median"))
    print("%-10d %9d %24s %21s %18s %22s" % (
        stability["schedules"], stability["repeats"],
        "%.1f%%" % (100 * stability["median_relative_spread"]),
        "%.1f%%" % (100 * stability["p90_relative_spread"]),
        "%.0f%%" % (100 * stability["within_5_percent"]),
        "%.1f%%" % (100 * stability["median_max_min_range"])))
    print("(the same spread of each measurement's minimum instead of its median: %.1f%%)"
          % (100 * stability["median_relative_spread_of_minimums"]))
    print("samples dropped because another tenant shared the core: median %.0f%% per "
          "measurement; %.0f%% of measurements were still contended when their patience "
          "ran out" % (100 * stability["median_fraction_of_samples_dropped_as_contended"],
                       100 * stability["measurements_still_contended_after_patience"]))


if __name__ == "__main__":
    main()
