#!/usr/bin/python3
"""Tuning replayed on measured records: model, sampler and online update.

`tcl-train --replay-tuning` replays the tuner on the shipped datasets' records
of held-out networks (ReplayTuning.h): every (task, target) group is a task
whose records are the only candidates, each round picks a batch exactly as
`--tcl-tune` does (the model's first 4, then top-k or RDU, a random share),
reveals its labels and updates the model online. No measurement runs, so it
takes minutes and carries none of a shared machine's noise; what it cannot
show is the tuner's search, which proposes schedules no dataset holds.

For each method (tcl: Mamba + RDU; tenset-mlp: TenSet's MLP + top-k), both
pre-trained with every task of --networks held out (the models of
benchmarks/tuning.py, shared through --work), and each online update:

  none      no update: the pre-trained model throughout
  plain     20 steps of the ranking loss on what is measured, per round
  anchored  the same, held to the model as loaded by distillation on random
            schedules of every task, which also scores each first round
  own       anchored, with the model's own step count (10 for Mamba, 20 for
            TenSet-MLP): the tuner's default

Reported: the mean over tasks of best record / best found after 1, 2, 4, 8,
16 and --trials trials per task, and the same per network weighted as the
tuner's estimate (occurrences x latency). Prints a table and writes JSON.

    benchmarks/tuning_replay.py [--build build] [--networks resnet50,bert_base]
        [--target x86_64:x86-64-v3:1t] [--trials 32] [--work tuning-work]
        [--out docs/results/tuning_replay.json]
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from tuning import METHODS, method_model  # noqa: E402
from outputs import output_path  # noqa: E402

UPDATES = {
    "none": ["--replay-update-steps=0"],
    "plain": ["--replay-update-steps=20", "--replay-anchor=false"],
    "anchored": ["--replay-update-steps=20", "--replay-anchor=true"],
    "own": ["--replay-anchor=true"],
}


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    parser.add_argument("--networks", default="resnet50,bert_base")
    parser.add_argument("--methods", default="tcl,tenset-mlp")
    parser.add_argument("--updates", default="none,plain,anchored")
    parser.add_argument("--target", default="x86_64:x86-64-v3:1t")
    parser.add_argument("--trials", type=int, default=32)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--work", default="tuning-work",
                        help="models and the dataset, shared with benchmarks/tuning.py")
    parser.add_argument("--out", type=output_path, default="tuning_replay.json")
    args = parser.parse_args()
    # method_model reads the tuning benchmark's arguments.
    args.source_targets = "x86_64:x86-64-v3:1t,x86_64:x86-64-v2:1t"
    args.new_target_fraction = 0.1
    bin_dir = os.path.join(args.build, "bin")
    methods, updates = args.methods.split(","), args.updates.split(",")
    for method in methods:
        if method not in ("tcl", "tenset-mlp"):
            sys.exit("unknown method '%s' (expected tcl or tenset-mlp)" % method)
    for update in updates:
        if update not in UPDATES:
            sys.exit("unknown update '%s' (expected %s)" % (update, ", ".join(UPDATES)))
    os.makedirs(args.work, exist_ok=True)

    runs = []
    for method in methods:
        model = method_model(bin_dir, args.work, method, args)
        for update in updates:
            path = os.path.join(args.work, "replay-%s-%s-%d.json" % (method, update, args.seed))
            if not os.path.exists(path):
                command = [os.path.join(bin_dir, "tcl-train"),
                           os.path.join(args.work, "dataset.db"), "--evaluate=" + model,
                           "--test-networks=" + args.networks, "--new-target=" + args.target,
                           "--replay-tuning=%d" % args.trials,
                           "--replay-sampler=" + METHODS[method]["sampler"],
                           "--seed=%d" % args.seed, "--json=" + path + ".tmp"] + UPDATES[update]
                print("running: " + " ".join(command), flush=True)
                subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
                os.replace(path + ".tmp", path)
            with open(path) as f:
                replay = json.load(f)["replay"]
            runs.append({"method": method, "update": update, "replay": replay})

    marks = sorted({t for t in (1, 2, 4, 8, 16, args.trials) if t <= args.trials})
    networks = args.networks.split(",")
    print("\nbest record / best found, mean over %d trials per task (target %s)"
          % (args.trials, args.target))
    header = "%-11s %-9s %-10s" % ("method", "update", "") + "".join(
        "%8s" % ("%d" % t) for t in marks)
    print(header)
    for run in runs:
        at = {point["trials"]: point for point in run["replay"]}
        rows = [("mean", lambda p: p["mean_best_found"])] + [
            (n, lambda p, n=n: p["networks"].get(n)) for n in networks]
        for label, value in rows:
            cells = "".join("%8.4f" % value(at[t]) if value(at[t]) is not None else "%8s" % "-"
                            for t in marks)
            print("%-11s %-9s %-10s%s" % (run["method"], run["update"], label, cells))

    with open(args.out, "w") as f:
        json.dump({"target": args.target, "trials": args.trials, "seed": args.seed,
                   "networks": networks, "runs": runs}, f, indent=1)
    print("\nwrote " + args.out)


if __name__ == "__main__":
    main()
