#!/usr/bin/python3
"""The RDU sampler in pool mode: how much of a pool a cost model needs.

On the shipped CPU dataset, with the tasks of --test-networks held out, a
model is trained (1) on every training record, (2) on --fraction of each
training task's records chosen by the RDU sampler in --rounds rounds of
active learning (the first share random, each later one picked in the
embedding of a model trained on what is chosen so far), and (3) on the same
fraction chosen at random. Reported: PCA and top-1 on the held-out networks,
and the ratio of each to the full-pool model's. Prints a table, writes JSON.

With --new-target, the pool is that target's records and the three models
are trained as tcl meets a new target: distilled (`tcl-train --distill`)
from a teacher trained on --source-targets, which never sees the held-out
networks either. The database then needs both shipped datasets (the default
imports them).

    benchmarks/rdu_ablation.py [--build build] [--model mamba] [--fraction 0.1]
        [--seeds 1] [--new-target x86_64:x86-64-v2:1t] [--out rdu_ablation.json]
        [--samplers rdu --reuse EARLIER.json]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")
sys.path.insert(0, HERE)
from cost_models import SHIPPED_DATASETS, import_dataset  # noqa: E402
from outputs import output_path  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(ROOT, "build"))
    parser.add_argument("--db", help="a tuning database (default: the shipped dataset)")
    parser.add_argument("--model", default="mamba")
    parser.add_argument("--test-networks", default="resnet50,bert_base")
    parser.add_argument("--fraction", type=float, default=0.1)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seeds", type=int, default=1)
    parser.add_argument("--out", type=output_path, default="rdu_ablation.json")
    parser.add_argument("--samplers", default="none,rdu,random",
                        help="the models to train: on the full pool (none), RDU's picks, "
                             "random picks")
    parser.add_argument("--reuse", help="JSON of an earlier run of the same target: the "
                                        "models not in --samplers come from it")
    parser.add_argument("--new-target", help="the pool is this target's records, learned "
                        "by distillation from a teacher of --source-targets")
    parser.add_argument("--source-targets", default="x86_64:x86-64-v3:1t",
                        help="--new-target: the targets the teacher learned")
    args = parser.parse_args()
    bin_dir = os.path.join(args.build, "bin")

    samplers = args.samplers.split(",")
    if set(samplers) - {"none", "rdu", "random"}:
        sys.exit("--samplers: expected some of none, rdu, random")
    runs, reused = [], []
    if args.reuse:
        with open(args.reuse) as f:
            previous = json.load(f)
        if previous.get("new_target") != args.new_target:
            sys.exit("--reuse: that run learned another target")
        reused = [run for run in previous["runs"] if run["pool_sampler"] not in samplers]
    elif samplers != ["none", "rdu", "random"]:
        sys.exit("--samplers needs --reuse for the models it leaves out")
    with tempfile.TemporaryDirectory() as work:
        db = args.db or import_dataset(
            bin_dir, work, SHIPPED_DATASETS if args.new_target else SHIPPED_DATASETS[:1])
        transfer = []
        if args.new_target:
            teacher = os.path.join(work, "teacher.tclm")
            command = [os.path.join(bin_dir, "tcl-train"), db, "--model=" + args.model,
                       "--test-networks=" + args.test_networks,
                       "--targets=" + args.source_targets, "-o", teacher]
            print("running: " + " ".join(command[1:]), flush=True)
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            transfer = ["--new-target=" + args.new_target, "--distill=" + teacher]
        for seed in range(args.seeds):
            for sampler in ["none", "rdu", "random"]:
                earlier = [run for run in reused if run["pool_sampler"] == sampler
                           and run["seed"] == seed]
                if earlier:
                    runs.append(earlier[0])
                    continue
                if sampler not in samplers:
                    sys.exit("--reuse: that run has no %s model of seed %d" % (sampler, seed))
                out = os.path.join(work, "%s-%d.json" % (sampler, seed))
                pool = [] if sampler == "none" else [
                    "--pool-sampler=" + sampler, "--pool-fraction=%g" % args.fraction,
                    "--pool-rounds=%d" % args.rounds]
                command = [os.path.join(bin_dir, "tcl-train"), db, "--model=" + args.model,
                           "--test-networks=" + args.test_networks, "--seed=%d" % seed,
                           "--json=" + out] + pool + transfer
                print("running: " + " ".join(command[1:]), flush=True)
                subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
                with open(out) as f:
                    run = json.load(f)
                run["seed"] = seed
                runs.append(run)

    rows = []
    for sampler, label in [("none", "all records"), ("rdu", "RDU %g%%" % (100 * args.fraction)),
                           ("random", "random %g%%" % (100 * args.fraction))]:
        mine = [run for run in runs if run["pool_sampler"] == sampler]
        rows.append({"sampler": sampler, "label": label,
                     "train_records": statistics.median(r["train_records"] for r in mine),
                     "pca": statistics.median(r["pca"] for r in mine),
                     "top1": statistics.median(r["top1"] for r in mine),
                     "pca_per_seed": [r["pca"] for r in mine],
                     "top1_per_seed": [r["top1"] for r in mine]})
    full = rows[0]
    for row in rows:
        row["pca_vs_full"] = row["pca"] / full["pca"]
        row["top1_vs_full"] = row["top1"] / full["top1"]

    print()
    print("%s, held out %s, %d seed(s) (medians)%s" % (
        args.model, args.test_networks, args.seeds,
        ", distilled onto %s from %s" % (args.new_target, args.source_targets)
        if args.new_target else ""))
    print("%-14s %14s %8s %11s %8s %11s" % ("trained on", "records", "PCA", "PCA/full",
                                            "top-1", "top-1/full"))
    for row in rows:
        print("%-14s %14d %8.4f %10.1f%% %8.4f %10.1f%%" % (
            row["label"], row["train_records"], row["pca"], 100 * row["pca_vs_full"],
            row["top1"], 100 * row["top1_vs_full"]))
    with open(args.out, "w") as f:
        json.dump({"model": args.model, "test_networks": args.test_networks,
                   "fraction": args.fraction, "rounds": args.rounds,
                   "new_target": args.new_target,
                   "source_targets": args.source_targets if args.new_target else None,
                   "rows": rows,
                   "runs": runs}, f, indent=1)
    print("wrote " + args.out)


if __name__ == "__main__":
    main()
